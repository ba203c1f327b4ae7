#!/usr/bin/env python3
"""Differential-test peer: OAuth 1.0a signing by Python's oauthlib (RFC 5849 module).

Reads JSON Lines requests on stdin, writes one JSON line per request on stdout (same order).
The whole of stdin is read before anything is written, so a caller may write the full batch,
close stdin, and then read the answers without risk of a pipe deadlock.

Every value comes from oauthlib's own code path, exactly the one ``oauthlib.oauth1.Client``
uses when it signs a request with the signature in the Authorization header
(``Client.get_oauth_signature``):

1. protocol parameters are rendered into an Authorization header by
   ``oauthlib.oauth1.rfc5849.parameters.prepare_headers`` (as ``Client._render`` does);
2. ``signature.collect_parameters(uri_query=urlparse(uri).query, body=<raw form body>,
   headers=<that header>)`` collects query + header + body parameters;
3. ``signature.normalize_parameters``, ``signature.base_string_uri`` and
   ``signature.signature_base_string`` build the base string;
4. ``Client.SIGNATURE_METHODS[method](base_string, client)`` signs it (PLAINTEXT:
   ``signature.sign_plaintext``, Client's fast path);
5. ``parameters.prepare_headers(oauth_params + [("oauth_signature", sig)], realm=realm)``
   renders the Authorization header, as ``Client.sign`` does through ``Client._render``.

As a guard that this wrapper really follows the library, the signature is computed a second
time by ``Client.get_oauth_signature(Request(...))`` itself, and the two must agree; and where
the request fits ``Client.sign``'s policies, the header must be the one ``Client.sign`` returns.

See README.md in this folder for the protocol and for oauthlib's known deviations.
"""

import functools
import json
import sys
import urllib.parse
import warnings

warnings.simplefilter("ignore")  # never let a warning reach stdout (they go to stderr anyway)

from oauthlib.common import Request, extract_params  # noqa: E402
from oauthlib.oauth1 import rfc5849  # noqa: E402
from oauthlib.oauth1.rfc5849 import parameters, signature  # noqa: E402

FORM = "application/x-www-form-urlencoded"

# Speed only: oauthlib re-parses (and cryptography re-validates) the PEM key on every RSA
# signature, ~7 ms each. Memoise that pure step (same algorithm object + same PEM -> same key
# object); every byte of every output is unchanged.
signature._prepare_key_plus = functools.lru_cache(maxsize=16)(signature._prepare_key_plus)


def protocol_params(req):
    """The oauth_* protocol parameters, in the order oauthlib's Client.get_oauth_params uses,
    but only those present in the input (absent field = parameter not sent)."""
    params = []
    for field, name in (
        ("nonce", "oauth_nonce"),
        ("timestamp", "oauth_timestamp"),
        ("version", "oauth_version"),
        ("signature_method", "oauth_signature_method"),
        ("consumer_key", "oauth_consumer_key"),
        ("token", "oauth_token"),
        ("callback", "oauth_callback"),
        ("verifier", "oauth_verifier"),
    ):
        if req.get(field) is not None:
            params.append((name, req[field]))
    for pair in req.get("extra_oauth_params") or []:
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(x, str) for x in pair)):
            raise ValueError("extra_oauth_params entry is not a [name, value] pair of strings: %r"
                             % (pair,))
        name, value = pair
        if not name.startswith("oauth_"):
            # prepare_headers is decorated with utils.filter_params and would silently drop it
            raise ValueError(
                "extra parameter %r is not oauth_*: oauthlib's prepare_headers drops it" % name
            )
        params.append((name, value))
    return params


def sign_one(req):
    uri = req["url"]
    method = req["method"]
    body = req.get("form_body")  # None = no body; "" = empty form body
    headers = {"Content-Type": FORM} if body is not None else {}

    if body is not None and extract_params(body) is None:
        # Client.sign raises exactly this; collect_parameters alone would silently drop the body
        raise ValueError("Headers indicate a formencoded body but body was not decodable.")

    oauth_params = protocol_params(req)
    sig_method = req.get("signature_method")

    # --- stage functions, as in Client.get_oauth_signature -------------------------------
    # Client._render(request) with the AUTH_HEADER signature type and realm=None: the realm
    # is only added to the header after signing, so it never reaches collect_parameters.
    auth_headers = parameters.prepare_headers(oauth_params, dict(headers), realm=None)
    collected = signature.collect_parameters(
        uri_query=urllib.parse.urlparse(uri).query,
        body=body,
        headers=auth_headers,
    )
    normalized = signature.normalize_parameters(collected)
    bs_uri = signature.base_string_uri(uri, auth_headers.get("Host", None))
    base_string = signature.signature_base_string(method, bs_uri, normalized)

    out = {
        "id": req.get("id"),
        "base_string": base_string,
        "normalized_params": normalized,
        "base_string_uri": bs_uri,
        "signature": None,
    }
    if sig_method is None:
        # base-string-only request (no oauth_signature_method): nothing to sign
        return out

    if sig_method not in rfc5849.Client.SIGNATURE_METHODS:
        raise ValueError("unsupported signature method %r" % sig_method)
    client = rfc5849.Client(
        req.get("consumer_key"),
        client_secret=req.get("consumer_secret") or "",
        resource_owner_key=req.get("token"),
        resource_owner_secret=req.get("token_secret") or "",
        signature_method=sig_method,
        rsa_key=req.get("rsa_private_key"),
    )
    if sig_method == rfc5849.SIGNATURE_PLAINTEXT:
        sig = signature.sign_plaintext(client.client_secret, client.resource_owner_secret)
    else:
        sig = rfc5849.Client.SIGNATURE_METHODS[sig_method](base_string, client)

    # --- cross-check with the library's own one-call path ------------------------------
    request = Request(uri, http_method=method, body=body, headers=dict(headers))
    request.oauth_params = list(oauth_params)
    again = client.get_oauth_signature(request)
    if again != sig:
        raise RuntimeError(
            "wrapper disagrees with Client.get_oauth_signature: %r vs %r" % (sig, again)
        )

    out["signature"] = sig
    # --- the Authorization header, as Client.sign renders it ----------------------------
    # Client.sign appends ('oauth_signature', sig) to the protocol parameters and hands them
    # to Client._render, which calls prepare_headers(oauth_params, headers, realm=realm).
    signed = oauth_params + [("oauth_signature", sig)]
    header = parameters.prepare_headers(signed, {}, realm=req.get("realm"))["Authorization"]
    out["authorization_header"] = header
    # As a guard, where the input fits Client.sign's own policies (it always sends
    # oauth_version="1.0", a nonce and a timestamp; drops an empty token, callback or verifier;
    # refuses a body on GET/HEAD), the header must be exactly the one Client.sign returns.
    if fits_client_sign(req):
        signing_client = rfc5849.Client(
            req.get("consumer_key"),
            client_secret=req.get("consumer_secret") or "",
            resource_owner_key=req.get("token"),
            resource_owner_secret=req.get("token_secret") or "",
            callback_uri=req.get("callback"),
            signature_method=sig_method,
            rsa_key=req.get("rsa_private_key"),
            verifier=req.get("verifier"),
            realm=req.get("realm"),
            nonce=req.get("nonce"),
            timestamp=req.get("timestamp"),
        )
        _, signed_headers, _ = signing_client.sign(uri, http_method=method, body=body,
                                                   headers=dict(headers))
        if signed_headers["Authorization"] != header:
            raise RuntimeError("wrapper disagrees with Client.sign: %r vs %r"
                               % (header, signed_headers["Authorization"]))
    return out


def fits_client_sign(req):
    """Whether Client.sign, with the nonce and timestamp pinned, would send exactly the
    protocol parameters this request asks for (see get_oauth_params and sign)."""
    return (
        req.get("version") == "1.0"
        and req.get("nonce") and req.get("timestamp")
        and req.get("token") != "" and req.get("callback") != "" and req.get("verifier") != ""
        and not req.get("extra_oauth_params")
        and not (req.get("form_body") is not None and req["method"].upper() in ("GET", "HEAD"))
    )


def handle(line):
    try:
        req = json.loads(line)
    except Exception as e:  # noqa: BLE001
        return {"id": None, "error": "invalid JSON input: %s" % e}
    rid = req.get("id") if isinstance(req, dict) else None
    try:
        if not isinstance(req, dict):
            raise ValueError("input line is not a JSON object")
        return sign_one(req)
    except Exception as e:  # noqa: BLE001 - a peer must answer every line
        return {"id": rid, "error": "%s: %s" % (type(e).__name__, e)}


def main():
    data = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    lines = [l for l in data.split("\n") if l.strip()]
    out = [json.dumps(handle(l), ensure_ascii=True) for l in lines]
    sys.stdout.buffer.write("".join(o + "\n" for o in out).encode("ascii"))
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
