"""Providers' own client libraries, as their users run them, for the provider
profiles' tests (tests/providers.rs): reads one JSON request per line on stdin,
answers one JSON object per line with what that client sends.

- {"client": "mastercard", "url", "method", "payload", "consumer_key", "key_pem",
   "nonce", "timestamp"} -> {"authorization_header"}: mastercard-oauth1-signer's
   OAuth.get_authorization_header, its nonce and clock pinned.
- {"client": "woocommerce", "url", "method", "consumer_key", "consumer_secret",
   "nonce", "timestamp"} -> {"url"}: woocommerce's OAuth.get_oauth_url (the query
   transmission of its REST client over plain HTTP), its nonce pinned.
- {"client": "lti-launch", "launch_url", "consumer_key", "consumer_secret", "params",
   "nonce", "timestamp"} -> {"body"}: lti's ToolConsumer.generate_launch_request (a
   form POST signed by requests-oauthlib in the body), nonce and clock pinned.
- {"client": "lti-verify", "launch_url", "consumer_key", "consumer_secret", "body",
   "now"} -> {"valid"}: lti's ToolProvider.is_valid_request (oauthlib's
   SignatureOnlyEndpoint) on a launch body, as a tool checks a launch.
"""
import json
import sys
from unittest import mock
from urllib.parse import parse_qsl


def mastercard(r):
    from cryptography.hazmat.primitives import serialization
    import oauth1.coreutils as util
    from oauth1.oauth import OAuth
    key = serialization.load_pem_private_key(r["key_pem"].encode(), password=None)
    with mock.patch.object(util, "get_nonce", lambda length=16: r["nonce"]), \
            mock.patch.object(util, "get_timestamp", lambda: int(r["timestamp"])):
        header = OAuth.get_authorization_header(
            r["url"], r["method"], r.get("payload"), r["consumer_key"], key)
    return {"authorization_header": header}


def woocommerce(r):
    from woocommerce.oauth import OAuth
    o = OAuth(r["url"], r["consumer_key"], r["consumer_secret"], version="wc/v3",
              method=r["method"], oauth_timestamp=int(r["timestamp"]))
    o.generate_nonce = lambda: r["nonce"]
    return {"url": o.get_oauth_url()}


def lti_launch(r):
    import oauthlib.oauth1.rfc5849 as rfc
    from lti import ToolConsumer
    consumer = ToolConsumer(consumer_key=r["consumer_key"],
                            consumer_secret=r["consumer_secret"],
                            launch_url=r["launch_url"], params=r["params"])
    with mock.patch.object(rfc, "generate_nonce", lambda: r["nonce"]), \
            mock.patch.object(rfc, "generate_timestamp", lambda: r["timestamp"]):
        prepared = consumer.generate_launch_request()
    body = prepared.body.decode() if isinstance(prepared.body, bytes) else prepared.body
    return {"body": body}


def lti_verify(r):
    import time
    from lti import ToolProvider

    from oauthlib.oauth1 import RequestValidator

    class Validator(RequestValidator):
        # A tool's validator: oauthlib's defaults (the signature checked,
        # the methods HMAC-SHA1 and the rest), one known key, no nonce store.
        enforce_ssl = False
        dummy_client = "dummy"

        @property
        def safe_characters(self):
            return set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

        @property
        def client_key_length(self): return (1, 100)

        @property
        def nonce_length(self): return (1, 100)

        def check_client_key(self, key): return True
        def check_nonce(self, nonce): return True
        def validate_client_key(self, key, request): return key == r["consumer_key"]
        def validate_timestamp_and_nonce(self, key, ts, nonce, request, request_token=None,
                                         access_token=None): return True
        def get_client_secret(self, key, request): return r["consumer_secret"]

    params = dict(parse_qsl(r["body"], keep_blank_values=True))
    provider = ToolProvider.from_unpacked_request(
        secret=r["consumer_secret"], params=params, url=r["launch_url"],
        headers={"Content-Type": "application/x-www-form-urlencoded"})
    with mock.patch.object(time, "time", lambda: float(r["now"])):
        valid = provider.is_valid_request(Validator())
    return {"valid": bool(valid)}


CLIENTS = {"mastercard": mastercard, "woocommerce": woocommerce,
           "lti-launch": lti_launch, "lti-verify": lti_verify}

for line in sys.stdin.read().splitlines():
    request = json.loads(line)
    answer = CLIENTS[request["client"]](request)
    answer["id"] = request.get("id")
    print(json.dumps(answer))
