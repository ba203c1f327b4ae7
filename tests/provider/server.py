#!/usr/bin/env python3
"""A small, real OAuth 1.0a (RFC 5849) provider for integration tests.

Every signature check is done by oauthlib 4.0.1 (tests/peers/requirements.txt); this file only
keeps the state (consumer, tokens, PINs, seen nonces) in memory and speaks HTTP on 127.0.0.1.
See tests/provider/README.md for endpoints, credentials and oauthlib's quirks.
"""
import argparse
import email.policy
import hashlib
import json
import os
import re
import secrets
import string
import sys
import threading
import warnings
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlencode, urlsplit

from oauthlib.common import urlencoded as OAUTHLIB_QUERY_CHARS
from oauthlib.oauth1 import (
    AccessTokenEndpoint, AuthorizationEndpoint, RequestTokenEndpoint, RequestValidator,
    ResourceEndpoint, SIGNATURE_HMAC_SHA1, SIGNATURE_HMAC_SHA256, SIGNATURE_HMAC_SHA512,
    SIGNATURE_PLAINTEXT, SIGNATURE_RSA_SHA1, SIGNATURE_RSA_SHA256, SIGNATURE_RSA_SHA512,
)
from oauthlib.oauth1.rfc5849 import errors, signature, utils as oauth_utils

FORM = "application/x-www-form-urlencoded"
AUTH_FAILED = [{"code": 32, "message": "Could not authenticate you."}]
# Why a request failed, from the flags oauthlib leaves in request.validator_log ("nonce" is ours).
REASONS = {"nonce": "nonce+timestamp already used (replay)", "client": "unknown consumer key",
           "resource_owner": "unknown token, or not issued to this consumer",
           "verifier": "wrong oauth_verifier (PIN)", "callback": "oauth_callback not allowed",
           "realm": "realm not allowed", "signature": "signature mismatch"}


class Validator(RequestValidator):
    """In-memory state for one consumer. One lock: the server is threaded."""

    enforce_ssl = False                     # plain http on loopback
    # oauthlib's defaults are alphanumeric only and 20..30 long; our keys contain '-'.
    safe_characters = set(string.ascii_letters + string.digits + "-_.~")
    client_key_length = request_token_length = access_token_length = (1, 128)
    nonce_length = (8, 128)                 # 32-char alphanumeric nonces, oauthlib's ~30 digits
    verifier_length = (1, 64)               # our PINs are 7 digits
    timestamp_lifetime = 600                # |now - oauth_timestamp| > 600 s is rejected
    # (oauthlib itself insists on exactly 10 digits: `len(request.timestamp) != 10` in base.py.)
    dummy_client = "dummy-client"           # used by oauthlib so that unknown keys cost the
    dummy_request_token = "dummy-request-token"   # same time as known ones; never valid
    dummy_access_token = "dummy-access-token"

    def __init__(self, opts):
        super().__init__()
        self.lock = threading.Lock()
        self.local = threading.local()      # last oauthlib request seen by this thread
        self.consumer_key, self.consumer_secret = opts.consumer_key, opts.consumer_secret
        self.rsa_key = open(opts.rsa_public_key).read() if opts.rsa_public_key else None
        self.only_method = opts.only_method
        self.request_tokens = {}            # token -> {client, secret, callback, verifier}
        self.access_tokens = {opts.access_token: {"client": opts.consumer_key,
                                                  "secret": opts.access_secret}}
        self.seen = set()                   # (client, timestamp, nonce, token)

    @property
    def allowed_signature_methods(self):
        rsa = (SIGNATURE_RSA_SHA1, SIGNATURE_RSA_SHA256, SIGNATURE_RSA_SHA512)
        methods = (SIGNATURE_HMAC_SHA1, SIGNATURE_HMAC_SHA256, SIGNATURE_HMAC_SHA512,
                   SIGNATURE_PLAINTEXT) + (rsa if self.rsa_key else ())
        # --only-method: a provider that takes one method (Magento: HMAC-SHA256).
        return tuple(m for m in methods if m == self.only_method) if self.only_method else methods

    def _token(self, table, client_key, token):
        with self.lock:
            t = table.get(token)
        return t if t and t["client"] == client_key else None

    # -- secrets (oauthlib wants *some* secret even for unknown keys, then fails the check) --
    def get_client_secret(self, client_key, request):
        return self.consumer_secret if client_key == self.consumer_key else "dummy"

    def get_request_token_secret(self, client_key, token, request):
        t = self._token(self.request_tokens, client_key, token)
        return t["secret"] if t else "dummy"

    def get_access_token_secret(self, client_key, token, request):
        t = self._token(self.access_tokens, client_key, token)
        return t["secret"] if t else "dummy"

    # -- realms are not used by this provider: accept whatever realm the client sends --
    def check_realms(self, realms): return True
    def get_default_realms(self, client_key, request): return []
    def get_realms(self, token, request): return []
    def validate_requested_realms(self, client_key, realms, request): return True
    def validate_realms(self, client_key, token, request, uri=None, realms=None): return True
    def verify_realms(self, token, realms, request): return True

    # -- validation --
    def get_rsa_key(self, client_key, request): return self.rsa_key
    def validate_client_key(self, client_key, request): return client_key == self.consumer_key

    def validate_request_token(self, client_key, token, request):
        return self._token(self.request_tokens, client_key, token) is not None

    def validate_access_token(self, client_key, token, request):
        return self._token(self.access_tokens, client_key, token) is not None

    def validate_redirect_uri(self, client_key, redirect_uri, request):
        return redirect_uri == "oob" or redirect_uri.startswith(("http://", "https://"))

    def validate_verifier(self, client_key, token, verifier, request):
        t = self._token(self.request_tokens, client_key, token)
        return bool(t and t["verifier"] and secrets.compare_digest(t["verifier"], verifier))

    def verify_request_token(self, token, request):
        with self.lock:
            return token in self.request_tokens

    def validate_timestamp_and_nonce(self, client_key, timestamp, nonce, request,
                                     request_token=None, access_token=None):
        # Called by all three signed endpoints before any other validator method, and *before*
        # the signature is checked: a rejected request still uses up its nonce.
        self.local.request = request
        key = (client_key, timestamp, nonce, request_token or access_token)
        with self.lock:
            if key in self.seen:
                request.validator_log["nonce"] = False
                return False
            self.seen.add(key)              # grows for the life of the server (--max-seconds)
            return True

    # -- storage --
    def save_request_token(self, token, request):
        with self.lock:
            self.request_tokens[token["oauth_token"]] = {
                "client": request.client_key, "secret": token["oauth_token_secret"],
                "callback": request.redirect_uri, "verifier": None}

    def get_redirect_uri(self, token, request):
        with self.lock:
            return self.request_tokens[token]["callback"]

    def pin_for(self, token):
        """The PIN already given for this request token, or a new 7-digit one."""
        with self.lock:
            t = self.request_tokens.get(token)
            return (t and t["verifier"]) or str(1000000 + secrets.randbelow(9000000))

    def save_verifier(self, token, verifier, request):
        with self.lock:
            self.request_tokens[token]["verifier"] = verifier["oauth_verifier"]

    def save_access_token(self, token, request):
        with self.lock:
            self.access_tokens[token["oauth_token"]] = {
                "client": request.client_key, "secret": token["oauth_token_secret"]}

    def invalidate_request_token(self, client_key, request_token, request):
        with self.lock:
            self.request_tokens.pop(request_token, None)


def explain(request, error=None):
    """A human-readable reason for a rejection (oauthlib only answers True/False)."""
    if error is not None:
        return str(error.description if isinstance(error, errors.OAuth1Error) else error)
    if request is None:
        return "malformed OAuth request"
    bad = [REASONS.get(k, k) for k, v in request.validator_log.items() if v is False]
    if bad:
        return "; ".join(bad)
    if not request.resource_owner_key:
        return "missing oauth_token"
    return "oauth_token has a bad format"


def multipart_fields(body, ctype):
    """The fields of a multipart/form-data body: name -> bytes (a file's content)."""
    message = BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + ctype.encode("latin-1") + b"\r\n\r\n" + body)
    return {part.get_param("name", header="content-disposition"): part.get_payload(decode=True)
            for part in message.iter_parts()}


def multipart_signed(uri, method, body, ctype, headers, server):
    """Diagnostics for a refused multipart request: would the signature match if the text
    fields had been signed as a form body (which RFC 5849 §3.4.1.3.1 forbids)?"""
    header = next((v for k, v in headers.items() if k.lower() == "authorization"), "")
    try:
        auth = dict(oauth_utils.parse_authorization_header(header))
    except ValueError:
        return ""
    fields = [(k, v.decode("latin-1")) for k, v in multipart_fields(body, ctype).items()
              if k != "media"]
    if auth.get("oauth_signature_method") != SIGNATURE_HMAC_SHA1:
        return ""
    params = signature.collect_parameters(uri_query=urlsplit(uri).query, body=fields,
                                          headers={"Authorization": header})
    base = signature.signature_base_string(method, signature.base_string_uri(uri),
                                           signature.normalize_parameters(params))
    v = server.validator
    token = auth.get("oauth_token")
    secret = v.get_access_token_secret(auth.get("oauth_consumer_key"), token, None)
    with warnings.catch_warnings():     # sign_hmac_sha1 is deprecated, and plain
        warnings.simplefilter("ignore", DeprecationWarning)
        signed = signature.sign_hmac_sha1(base, v.consumer_secret, secret)
    if signed == \
            oauth_utils.unescape(auth.get("oauth_signature", "")):
        return "; the multipart fields were signed (only the query and the oauth_ parameters are)"
    return ""


def path_of(target):
    return urlsplit(target).path


def redact(text):
    # A PLAINTEXT oauth_signature *is* the secrets; never log it (path or oauthlib's message).
    return re.sub(r"(oauth_signature=)[^&'\s]*", r"\1<redacted>", text)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"           # keep-alive; every response has Content-Length
    # The headers and the body go out in two writes; with Nagle's algorithm on,
    # the second waits for the client's delayed ACK (40 ms) on a kept-alive
    # connection. Off, as every production server has it.
    disable_nagle_algorithm = True
    server_version = "oauth1-test-provider"

    def log_message(self, fmt, *args): pass   # http.server's own log; ours is in reply()

    def do_GET(self):
        try:
            self.route()
        except Exception as e:              # a bug here must not kill the connection silently
            self.reply(500, f"internal error: {type(e).__name__}: {e}\n", "text/plain", repr(e))

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_GET

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            out = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:               # skip trailers up to the blank line
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""): pass
                    return out
                out += self.rfile.read(size)
                self.rfile.readline()
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n > 0 else b""

    def reply(self, status, body, ctype, reason=None, extra_headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for name, value in extra_headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        line = f"{self.command} {redact(self.path)} {status}"
        sys.stderr.write(line + (f" reason={redact(reason)}" if reason else "") + "\n")
        sys.stderr.flush()

    def reject(self, reason, oauthlib_status=401):
        body = {"errors": AUTH_FAILED, "oauthlib_error": reason, "oauthlib_status": oauthlib_status}
        self.reply(401, json.dumps(body), "application/json", reason)

    def oauth_uri(self):
        """The URI the client requested: http://Host + the raw request target, not re-encoded."""
        host = self.headers.get("Host") or f"127.0.0.1:{self.server.server_port}"
        target = self.path
        if self.server.opts.encode_raw_query and "?" in target:
            # Opt-in: percent-encode the query bytes that oauthlib.common.urldecode refuses.
            # self.path is latin-1, one char per byte, so ord(c) is the byte.
            path, _, query = target.partition("?")
            target = path + "?" + "".join(
                c if c in OAUTHLIB_QUERY_CHARS else "%%%02X" % ord(c) for c in query)
        return f"http://{host}{target}"

    def route(self):
        body = self.read_body()
        if not self.path.startswith("/") or not re.fullmatch(
                r"[A-Za-z0-9.\-\[\]:]*", self.headers.get("Host", "")):
            return self.reply(400, "origin-form target and a plain Host header required\n",
                              "text/plain", "bad request target or Host")
        path, method = urlsplit(self.path).path, self.command
        ctype = self.headers.get("Content-Type", "")
        # Exactly oauthlib's own test (base.py): only such a body holds signed parameters.
        form = body.decode("latin-1") if FORM in ctype else None
        headers = dict(self.headers.items())
        srv = self.server
        if path == "/health" and method in ("GET", "HEAD"):
            return self.reply(200, "ok\n", "text/plain")
        if path == "/oauth/request_token":
            return self.token_step(srv.request_ep.create_request_token_response, form, headers, {})
        if path == "/oauth/access_token":
            return self.token_step(srv.access_ep.create_access_token_response, form, headers,
                                   {"user_id": srv.opts.user_id,
                                    "screen_name": srv.opts.screen_name})
        if path == "/oauth/authorize" and method == "GET":
            return self.authorize()
        if path == "/release":
            # Lets a waiting /2/stream answer finish (see stream()).
            srv.released.set()
            return self.reply(200, "released\n", "text/plain")
        if path == "/oauth/redirect":
            # Unsigned, as a front end that moved an endpoint answers.
            return self.redirect()
        if path.startswith(("/1.1/", "/2/")) or (
                path == "/oauth/renew_access_token" and method == "GET"):
            return self.resource(form, body, ctype, headers)
        return self.reply(404, json.dumps({"errors": [{"message": "no such endpoint"}]}),
                          "application/json", "no such endpoint")

    def token_step(self, create_response, form, headers, credentials):
        if self.command != "POST":
            return self.reply(405, "POST only\n", "text/plain", "POST only")
        self.server.validator.local.request = None
        try:
            _, body, status = create_response(self.oauth_uri(), "POST", form, headers,
                                              credentials=credentials)
        except ValueError as e:             # oauthlib.common.urldecode refused the query
            return self.reject(explain(None, e))
        if status != 200:
            # A 400 from oauthlib carries its reason form-encoded; a 401 carries none.
            described = dict(parse_qsl(body or ""))
            reason = described.get("error_description") or described.get("error") \
                or explain(self.server.validator.local.request)
            return self.reject(reason, status)
        # Like X: no oauth_authorized_realms (oauthlib always adds it, empty here).
        # --no-callback-confirmed: like Magento, no oauth_callback_confirmed either.
        dropped = {"oauth_authorized_realms"}
        if self.server.opts.no_callback_confirmed:
            dropped.add("oauth_callback_confirmed")
        pairs = [(k, v) for k, v in parse_qsl(body, keep_blank_values=True) if k not in dropped]
        # --token-answer-suffix: a provider that adds bytes form encoding does not allow.
        self.reply(200, urlencode(pairs) + self.server.opts.token_answer_suffix, FORM)

    def redirect(self):
        """Answers ?status=301|302|303|307|308 with Location: ?to (as given, decoded; `self`
        is this very target, a loop)."""
        q = dict(parse_qsl(urlsplit(self.path).query))
        if q.get("to") == "self":
            q["to"] = self.path
        status = int(q.get("status", "307"))
        if status not in (301, 302, 303, 307, 308) or "to" not in q:
            return self.reply(400, "need ?status=301|302|303|307|308&to=URL\n", "text/plain",
                              "bad redirect request")
        self.reply(status, "", "text/plain", f"redirect to {q['to']}", [("Location", q["to"])])

    def media(self, form, body, ctype):
        """X's chunked media upload (v1.1): INIT and FINALIZE with a form body (signed), APPEND
        with multipart/form-data (not signed: oauthlib reads only the query and the header for
        it), STATUS as a GET with a query."""
        if "multipart/form-data" in ctype:
            fields = multipart_fields(body, ctype)
        else:
            fields = {k: v.encode() for k, v in parse_qsl(form or "", keep_blank_values=True)}
        fields.update({k: v.encode() for k, v in parse_qsl(urlsplit(self.path).query)})
        text = lambda name: fields.get(name, b"").decode("latin-1")
        command, uploads = text("command"), self.server.uploads
        def fail(why):
            return self.reply(400, json.dumps({"errors": [{"message": why}]}),
                              "application/json", why)
        if command == "INIT":
            if self.command != "POST" or form is None:
                return fail("INIT is a POST with a form body")
            if not text("total_bytes").isdigit() or not text("media_type"):
                return fail("INIT needs total_bytes and media_type")
            with self.server.validator.lock:
                media_id = str(710511363345354753 + len(uploads))
                uploads[media_id] = {"total": int(text("total_bytes")), "segments": {},
                                     "type": text("media_type"), "polls": 0, "final": False}
            return self.reply(202, json.dumps({"media_id": int(media_id),
                                               "media_id_string": media_id,
                                               "expires_after_secs": 86400}),
                              "application/json")
        upload = uploads.get(text("media_id"))
        if upload is None:
            return fail(f"unknown media_id {text('media_id')!r}")
        if command == "APPEND":
            if "multipart/form-data" not in ctype:
                return fail("APPEND is multipart/form-data")
            if not text("segment_index").isdigit() or "media" not in fields:
                return fail("APPEND needs segment_index and media")
            upload["segments"][int(text("segment_index"))] = fields["media"]
            return self.reply(204, b"", "text/plain", f"segment {text('segment_index')}")
        if command == "FINALIZE":
            segments = upload["segments"]
            if sorted(segments) != list(range(len(segments))):
                return fail(f"segments are not 0..n-1: {sorted(segments)}")
            size = sum(len(b) for b in segments.values())
            if size != upload["total"]:
                return fail(f"got {size} bytes, INIT said total_bytes={upload['total']}")
            upload["final"] = True
            return self.reply(201, json.dumps({
                "media_id": int(text("media_id")), "media_id_string": text("media_id"),
                "size": size, "processing_info": {"state": "pending", "check_after_secs": 0}}),
                "application/json")
        if command == "STATUS" and self.command == "GET" and upload["final"]:
            upload["polls"] += 1
            state = "succeeded" if upload["polls"] > 1 else "in_progress"
            info = {"state": state, "progress_percent": 100 if state == "succeeded" else 50}
            if state != "succeeded":
                info["check_after_secs"] = 0
            data = b"".join(upload["segments"][i] for i in range(len(upload["segments"])))
            return self.reply(200, json.dumps({
                "media_id": int(text("media_id")), "media_id_string": text("media_id"),
                "processing_info": info, "sha1": hashlib.sha1(data).hexdigest()}),
                "application/json")
        return fail(f"bad command {command!r} for {self.command}")

    def media_v2(self, body, ctype):
        """X's v2 chunked media upload (docs.x.com, media-upload-chunked; the xdevplatform
        sample media_upload_v2.py): POST /2/media/upload/initialize with a JSON body, POST
        /2/media/upload/{id}/append with multipart/form-data (segment_index, media), POST
        /2/media/upload/{id}/finalize, GET /2/media/upload?command=STATUS&media_id={id}. None
        of these bodies is a form, so none is signed: only the query and oauth_* are."""
        path, uploads = path_of(self.path), self.server.uploads
        query = dict(parse_qsl(urlsplit(self.path).query))
        def fail(why):
            return self.reply(400, json.dumps({"errors": [{"message": why}]}),
                              "application/json", why)
        parts = path.split("/")          # ['', '2', 'media', 'upload', ...]
        if path == "/2/media/upload/initialize" and self.command == "POST":
            try:
                init = json.loads(body or b"{}")
            except ValueError:
                return fail("initialize takes a JSON body")
            if not isinstance(init.get("total_bytes"), int) or not init.get("media_type"):
                return fail("initialize needs total_bytes and media_type")
            with self.server.validator.lock:
                media_id = str(1880028106020515840 + len(uploads))
                uploads[media_id] = {"total": init["total_bytes"], "segments": {},
                                     "type": init["media_type"], "polls": 0, "final": False}
            return self.reply(200, json.dumps({"data": {
                "id": media_id, "media_key": "13_" + media_id, "expires_after_secs": 86400}}),
                "application/json")
        if path == "/2/media/upload" and self.command == "GET" and query.get("command") == "STATUS":
            upload = uploads.get(query.get("media_id", ""))
            if upload is None or not upload["final"]:
                return fail("STATUS of an unknown or unfinished upload")
            upload["polls"] += 1
            state = "succeeded" if upload["polls"] > 1 else "in_progress"
            info = {"state": state, "progress_percent": 100 if state == "succeeded" else 50}
            if state != "succeeded":
                info["check_after_secs"] = 0
            data = b"".join(upload["segments"][i] for i in range(len(upload["segments"])))
            return self.reply(200, json.dumps({"data": {
                "id": query["media_id"], "processing_info": info,
                "sha1": hashlib.sha1(data).hexdigest()}}), "application/json")
        if len(parts) == 6 and self.command == "POST":
            upload = uploads.get(parts[4])
            if upload is None:
                return fail(f"unknown media id {parts[4]!r}")
            if parts[5] == "append":
                if "multipart/form-data" not in ctype:
                    return fail("append is multipart/form-data")
                fields = multipart_fields(body, ctype)
                index = fields.get("segment_index", b"").decode("latin-1")
                if not index.isdigit() or "media" not in fields:
                    return fail("append needs segment_index and media")
                upload["segments"][int(index)] = fields["media"]
                return self.reply(200, json.dumps({"data": {"expires_at": 1}}),
                                  "application/json")
            if parts[5] == "finalize":
                segments = upload["segments"]
                if sorted(segments) != list(range(len(segments))):
                    return fail(f"segments are not 0..n-1: {sorted(segments)}")
                size = sum(len(b) for b in segments.values())
                if size != upload["total"]:
                    return fail(f"got {size} bytes, initialize said {upload['total']}")
                upload["final"] = True
                return self.reply(200, json.dumps({"data": {
                    "id": parts[4], "size": size,
                    "processing_info": {"state": "pending", "check_after_secs": 0}}}),
                    "application/json")
        return fail(f"no such media upload request: {self.command} {path}")

    def stream(self):
        """A chunked body in two parts: "first\\n" at once, then "released\\n" once GET /release
        has been asked for, or "not released\\n" after 20 s: a client that holds the whole body
        before printing it shows nothing until then, so the test cannot ask for /release."""
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        def chunk(data):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        chunk(b"first\n")
        released = self.server.released.wait(20)
        self.server.released.clear()
        chunk(b"released\n" if released else b"not released\n")
        chunk(b"")
        sys.stderr.write(f"{self.command} {self.path} 200 released={released}\n")
        sys.stderr.flush()

    def authorize(self):
        """Stands in for the user clicking "Authorize": the body is the PIN (oauth_verifier)."""
        token = dict(parse_qsl(urlsplit(self.path).query)).get("oauth_token", "")
        pin = self.server.validator.pin_for(token)
        try:
            # headers={}: only the query's oauth_token matters here. A non-oob callback would
            # get a 302 from oauthlib; we answer with the PIN in every case.
            self.server.authorize_ep.create_authorization_response(
                self.oauth_uri(), "GET", None, {}, credentials={"oauth_verifier": pin})
        except errors.InvalidClientError:
            return self.reply(404, "unknown or already used request token\n", "text/plain",
                              "unknown request token")
        except (errors.OAuth1Error, ValueError) as e:
            return self.reply(400, f"bad authorize request: {explain(None, e)}\n", "text/plain",
                              explain(None, e))
        self.reply(200, pin, "text/plain")

    def resource(self, form, body, ctype, headers):
        ep, uri, error = self.server.resource_ep, self.oauth_uri(), None
        try:
            ok, request = ep.validate_protected_resource_request(uri, self.command, form, headers)
        except ValueError as e:             # oauthlib.common.urldecode refused the query
            ok, request, error = False, None, e
        if not ok and error is None and (request is None or not request.validator_log):
            # oauthlib swallowed an OAuth1Error; redo the same (side-effect free) step to get
            # its description. Diagnostics only: the verdict above is already final.
            try:
                req = ep._create_request(uri, self.command, form, headers)
                ep._check_mandatory_parameters(req)
            except errors.OAuth1Error as e:
                error = e
        if not ok:
            reason = explain(request, error)
            if path_of(self.path) == "/1.1/media/upload.json" and "multipart/form-data" in ctype:
                reason += multipart_signed(uri, self.command, body, ctype, headers, self.server)
            return self.reject(reason)
        if path_of(self.path) == "/oauth/renew_access_token":
            # E*TRADE's renewal (developer.etrade.com, Authorization API, "Renew Access
            # Token"): a GET signed with the access token, answered in plain text.
            return self.reply(200, "Access Token has been renewed", "text/plain")
        if path_of(self.path) in ("/1.1/redirect", "/2/redirect"):
            return self.redirect()          # signed: its nonce is now used up
        if path_of(self.path) == "/2/stream":
            return self.stream()
        if path_of(self.path) == "/2/raw":
            # Any bytes, control characters too: ?hex=1b5b33316d...
            hexed = dict(parse_qsl(urlsplit(self.path).query)).get("hex", "")
            return self.reply(200, bytes.fromhex(hexed), "text/plain")
        if path_of(self.path) == "/1.1/media/upload.json":
            return self.media(form, body, ctype)
        if path_of(self.path).startswith("/2/media/upload"):
            return self.media_v2(body, ctype)
        split = urlsplit(self.path)
        query = split.query
        try:
            parsed_json = json.loads(body) if "json" in ctype and body else None
        except ValueError:
            parsed_json = None
        self.reply(200, json.dumps({
            "ok": True, "method": self.command, "path": split.path,
            "query": parse_qsl(query, keep_blank_values=True), "raw_query": query,
            "form": parse_qsl(form, keep_blank_values=True) if form is not None else None,
            "json": parsed_json, "oauth_token": request.resource_owner_key,
            "consumer_key": request.client_key, "signature_method": request.signature_method,
        }), "application/json")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0, help="0 = any free port (default)")
    p.add_argument("--consumer-key", default="test-consumer-key-0001")
    p.add_argument("--consumer-secret", default="test-consumer-secret-0001")
    p.add_argument("--access-token", default="test-access-token-0001")
    p.add_argument("--access-secret", default="test-access-secret-0001")
    p.add_argument("--user-id", default="1000000001")
    p.add_argument("--screen-name", default="oauth1_signer_test")
    p.add_argument("--max-seconds", type=float, default=300, help="exit after this; 0 = never")
    p.add_argument("--ignore-stdin", action="store_true",
                   help="do not exit at stdin EOF (for shell scripts that background it)")
    p.add_argument("--encode-raw-query", action="store_true",
                   help="percent-encode query bytes oauthlib refuses (e.g. '|') before checking")
    p.add_argument("--token-answer-suffix", default="",
                   help="append this, raw, to every token answer (e.g. a newline)")
    p.add_argument("--rsa-public-key", metavar="PEM", help="also accept RSA-SHA* with this key")
    p.add_argument("--only-method", metavar="METHOD",
                   help="accept this signature method alone (Magento: HMAC-SHA256)")
    p.add_argument("--no-callback-confirmed", action="store_true",
                   help="leave oauth_callback_confirmed out of the temporary-credentials answer "
                        "(as Magento does)")
    opts = p.parse_args()

    validator = Validator(opts)
    if not (validator.check_client_key(opts.consumer_key)
            and validator.check_access_token(opts.access_token)):
        p.error("consumer key / access token must be 1..128 chars of [A-Za-z0-9-_.~]")
    # socketserver's listen backlog is 5: more clients connecting at once see
    # their SYNs dropped and retried a second or more later.
    ThreadingHTTPServer.request_queue_size = 128
    server = ThreadingHTTPServer(("127.0.0.1", opts.port), Handler)
    server.daemon_threads = True
    server.opts, server.validator = opts, validator
    server.released = threading.Event()
    server.uploads = {}                     # media_id -> chunked upload state
    server.request_ep = RequestTokenEndpoint(validator)
    server.authorize_ep = AuthorizationEndpoint(validator)
    server.access_ep = AccessTokenEndpoint(validator)
    server.resource_ep = ResourceEndpoint(validator)

    why = []
    def stop(reason):                       # from a helper thread: shutdown() blocks
        why.append(reason)
        server.shutdown()

    def watch_stdin():
        try:
            while os.read(0, 65536):
                pass
        except OSError:                     # no stdin at all counts as EOF
            pass
        stop("stdin reached EOF")

    if not opts.ignore_stdin:
        threading.Thread(target=watch_stdin, daemon=True).start()
    if opts.max_seconds > 0:
        timer = threading.Timer(opts.max_seconds, stop, [f"--max-seconds {opts.max_seconds:g}"])
        timer.daemon = True
        timer.start()

    print(f"listening on http://127.0.0.1:{server.server_port}", flush=True)
    server.serve_forever(poll_interval=0.2)
    server.server_close()
    sys.stderr.write(f"exiting: {why[0] if why else 'stopped'}\n")


if __name__ == "__main__":
    main()
