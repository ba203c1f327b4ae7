#!/usr/bin/env python3
"""Writes fixtures/captures/generators.json: captured requests in each generator's own format,
each request signed by oauthlib (4.0.1), with one known mistake or none.

    python3 tests/peers/capture_fixtures.py > fixtures/captures/generators.json

The requests are signed here, by oauthlib's own stages (``signature.collect_parameters``,
``normalize_parameters``, ``base_string_uri``, ``signature_base_string``,
``sign_hmac_sha1``, ``parameters.prepare_headers``), so nothing in a fixture comes from the
Rust code under test. A "mistake" is one wrong rule applied to oauthlib's base string before
oauthlib signs it: the request sent is the right one, its signature is not.

Each generator below writes the request as the tool it is named after does; the rules are
read from that tool's own source (cited in each case's ``source``) and written out here in
Python, not copied:

* Chromium DevTools "Copy as cURL (bash)" and "(cmd)": NetworkLogView.ts, generateCurlCommand
  (escapeStringPosix, escapeStringWin);
* Firefox DevTools "Copy as cURL (POSIX)" and "(Windows)": devtools/client/shared/curl.js;
* Postman's cURL snippet: postman-code-generators, codegens/curl/lib/index.js and util.js;
* Insomnia's (HTTPSnippet's) shell cURL snippet: Kong/httpsnippet,
  src/targets/shell/curl/client.ts and helpers/shell.ts;
* HAR 1.2 (Chrome's and Firefox's exports), and raw HTTP/1.1 messages (RFC 9112).

The expected request (``sent``) is the generator's input, what the client sent; for
``--data-urlencode`` it is the body curl 7.88.1 sends for it (curl_easy_escape, then %20 as
``+``), checked against curl itself with a listening socket.
"""

import json
import re
import sys
import urllib.parse

from oauthlib.oauth1.rfc5849 import parameters, signature, utils

# The X developer docs' example credentials (public; "Creating a signature").
CREDENTIALS = {
    "consumer_key": "xvz1evFS4wEEPTGEFPHBog",
    "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
    "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
}
FORM = "application/x-www-form-urlencoded"
UA_CHROME = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/126.0.0.0 Safari/537.36")
UA_FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"

SOURCES = {
    "chromium": "Chromium DevTools, \"Copy as cURL\": front_end/panels/network/NetworkLogView.ts, "
                "generateCurlCommand (escapeStringPosix, escapeStringWin), "
                "https://github.com/ChromeDevTools/devtools-frontend",
    "firefox": "Firefox DevTools, \"Copy as cURL\": devtools/client/shared/curl.js "
               "(Curl.generateCommand, CurlUtils.escapeStringPosix / escapeStringWin), "
               "https://github.com/mozilla/gecko-dev/blob/master/devtools/client/shared/curl.js",
    "postman": "Postman's cURL code snippet: postman-code-generators, codegens/curl/lib/index.js "
               "and lib/util.js (defaults: multiLine, longFormat, followRedirect, quoteType single), "
               "https://github.com/postmanlabs/postman-code-generators",
    "insomnia": "Insomnia's \"Generate Code\" (Shell / cURL), HTTPSnippet: "
                "src/targets/shell/curl/client.ts and src/helpers/shell.ts (quote), "
                "https://github.com/Kong/httpsnippet",
    "har": "HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): log.entries[].request "
           "{method, url, headers, postData {mimeType, text, params}}, response {status, headers, "
           "content {text}}",
    "http": "RFC 9112 (HTTP/1.1): request-line (§3), origin-form and Host (§3.2.1, §3.2), "
            "header fields (§5), Content-Length (§6.2) and chunked (§7.1)",
    "x": "X's error codes: https://developer.x.com/en/support/x-api/error-troubleshooting "
         "(\"X API v1.1 error codes\": 32 Could not authenticate you, 135 Timestamp out of bounds)",
}


# -- signing: oauthlib's stages, with one wrong rule or none ---------------------------------

def mistaken(base_string_uri, params_string, mistake):
    """The base string's URI and parameter string, with `mistake` applied."""
    if mistake == "space-as-plus":
        # A form encoder in the parameter string: a space written '+' (%2B in the base string).
        params_string = params_string.replace("%20", "+")
    elif mistake == "default-port-kept":
        scheme, rest = base_string_uri.split("://", 1)
        host, _, path = rest.partition("/")
        base_string_uri = "%s://%s:%d/%s" % (scheme, host, 443 if scheme == "https" else 80, path)
    return base_string_uri, params_string


def sign(method, url, form_body=None, nonce="", timestamp="", mistake=None):
    """The Authorization header oauthlib signs for the request (HMAC-SHA1)."""
    oauth = [
        ("oauth_nonce", nonce),
        ("oauth_timestamp", timestamp),
        ("oauth_version", "1.0"),
        ("oauth_signature_method", "HMAC-SHA1"),
        ("oauth_consumer_key", CREDENTIALS["consumer_key"]),
        ("oauth_token", CREDENTIALS["token"]),
    ]
    signed_url = url
    if mistake == "query-param-missing":
        signed_url = url.split("?", 1)[0]
    header = parameters.prepare_headers(oauth)["Authorization"]
    collected = signature.collect_parameters(
        uri_query=urllib.parse.urlparse(signed_url).query,
        body=form_body or "",
        headers={"Authorization": header},
    )
    params_string = signature.normalize_parameters(collected)
    uri = signature.base_string_uri(signed_url)
    uri, params_string = mistaken(uri, params_string, mistake)
    base = signature.signature_base_string(method, uri, params_string)
    sig = signature.sign_hmac_sha1(base, CREDENTIALS["consumer_secret"], CREDENTIALS["token_secret"])
    return parameters.prepare_headers(oauth + [("oauth_signature", sig)])["Authorization"]


def sign_query(method, url, nonce, timestamp):
    """The URL with oauthlib's protocol parameters in its query (RFC 5849 §3.5.2)."""
    oauth = [
        ("oauth_nonce", nonce),
        ("oauth_timestamp", timestamp),
        ("oauth_version", "1.0"),
        ("oauth_signature_method", "HMAC-SHA1"),
        ("oauth_consumer_key", CREDENTIALS["consumer_key"]),
        ("oauth_token", CREDENTIALS["token"]),
    ]
    collected = signature.collect_parameters(uri_query=urllib.parse.urlparse(url).query) + oauth
    base = signature.signature_base_string(
        method, signature.base_string_uri(url), signature.normalize_parameters(collected))
    sig = signature.sign_hmac_sha1(base, CREDENTIALS["consumer_secret"], CREDENTIALS["token_secret"])
    return parameters.prepare_request_uri_query(oauth + [("oauth_signature", sig)], url)


# -- the generators -------------------------------------------------------------------------

def chromium_posix(s):
    if re.search(r"[\x00-\x1f\x7f-\x9f!]|'", s):
        out = s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
        out = re.sub(r"[\x00-\x1f\x7f-\x9f!]", lambda m: "\\u%04x" % ord(m.group(0)), out)
        return "$'" + out + "'"
    return "'" + s + "'"


def chromium_win(s):
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    out = re.sub(r"[^a-zA-Z0-9\s_\-:=+~'/.',?;*]", lambda m: "^" + m.group(0), out)
    out = re.sub(r"%(?=[a-zA-Z0-9_])", "%^", out)
    out = re.sub(r"[^ -~\r\n]", " ", out)
    out = re.sub(r"\r?\n|\r", "^\n\n", out)
    return '^"' + out + '^"'


def chromium(req, platform):
    escape = chromium_win if platform == "win" else chromium_posix
    ignored = {"accept-encoding", "host", "method", "path", "scheme", "version"}
    parts = [re.sub(r"[\[{}\]]", lambda m: "\\" + m.group(0), escape(req["url"]))]
    inferred = "GET"
    data = []
    if req.get("body") is not None:
        data.append("--data-raw " + escape(req["body"]))
        ignored.add("content-length")
        inferred = "POST"
    if req["method"] != inferred:
        parts.append("-X " + escape(req["method"]))
    for name, value in req["headers"]:
        if name.lower() in ignored:
            continue
        if value.strip():
            parts.append("-H " + escape(name + ": " + value))
        else:
            parts.append("-H " + escape(name + ";"))
    parts += data
    parts.append("--compressed")
    join = " ^\n  " if platform == "win" else " \\\n  "
    return "curl " + (join if len(parts) >= 3 else " ").join(parts)


def firefox_posix(s):
    def char(c):
        code = ord(c)
        return ("\\x0%x" % code if code < 16 else "\\x%x" % code) if code < 256 else "\\u%04x" % code
    if re.search(r"[^\x20-\x7e]|'", s):
        out = (s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
               .replace("\r", "\\r").replace("!", "\\041"))
        out = re.sub(r"([&|])", r"^\1", out)
        out = re.sub(r"[^\x20-\x7e]", lambda m: char(m.group(0)), out)
        return "$'" + out + "'"
    return "'" + s + "'"


def firefox_win(s):
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    out = re.sub(r"[`$]", lambda m: "\\" + m.group(0), out)
    out = re.sub(r"[^a-zA-Z0-9\s_\-:=+~/.',?;()*$&\\{}\"`]", lambda m: "^" + m.group(0), out)
    out = re.sub(r"%(?=[a-zA-Z0-9_])", "%^", out)
    out = re.sub(r"\r?\n", "^\n\n", out)
    return '^"' + out + '^"'


def firefox(req, platform):
    escape = firefox_win if platform == "win" else firefox_posix

    def if_needed(v):
        return v if re.fullmatch(r"[a-zA-Z-]+", v) else escape(v)

    parts = [escape(req["url"])]
    if "[" in req["url"] or "]" in req["url"]:
        parts.append("--globoff")
    ignored = {"host"}
    data = []
    if req.get("body") is not None and req["method"] in ("PUT", "POST", "PATCH"):
        data.append("--data-raw " + if_needed(req["body"]))
        ignored.add("content-length")
    if req["method"] == "HEAD":
        parts.append("-I")
    elif req["method"] != "GET":
        parts.append("-X " + if_needed(req["method"]))
    for name, value in req["headers"]:
        if name.lower() in ignored:
            continue
        parts.append("-H " + if_needed(name + ": " + value))
    parts += data
    join = " ^\n  " if platform == "win" else " \\\n  "
    return "curl " + (join if len(parts) >= 3 else " ").join(parts)


def postman_quote(s):
    return s.replace("'", "'\\''")


def postman(req, params):
    """Postman's defaults; `params` are its urlencoded body's key/value pairs (decoded)."""
    indent = " \\\n"
    snippet = "curl --location --request %s '%s'" % (req["method"], postman_quote(req["url"]))
    for name, value in req["headers"]:
        snippet += indent + "--header '%s: %s'" % (postman_quote(name), postman_quote(value))
    for key, value in params:
        snippet += indent + "--data-urlencode '%s=%s'" % (postman_quote(key), postman_quote(value))
    return snippet


def curl_urlencode(value):
    """What curl sends for --data-urlencode's content: curl_easy_escape, then %20 as '+'."""
    return urllib.parse.quote(value, safe="-._~").replace("%20", "+")


def httpsnippet_quote(s):
    if re.fullmatch(r"[a-z0-9\-_/.@%^=:]+", s, re.I):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def insomnia(req, params):
    lines = ["curl --request %s" % req["method"], "--url " + httpsnippet_quote(req["url"])]
    for name, value in sorted(req["headers"]):
        lines.append("--header " + httpsnippet_quote("%s: %s" % (name, value)))
    for name, value in params:
        lines.append("--data " + httpsnippet_quote("%s=%s" % (name, value)))
    return " \\\n  ".join(lines)


def har(creator, entries):
    return json.dumps({"log": {"version": "1.2", "creator": creator, "pages": [],
                               "entries": entries}}, indent=2, ensure_ascii=False)


def har_entry(req, status, response_headers, response_text, http_version, started):
    query = urllib.parse.parse_qsl(urllib.parse.urlparse(req["url"]).query, keep_blank_values=True)
    request = {
        "method": req["method"], "url": req["url"], "httpVersion": http_version,
        "headers": [{"name": n, "value": v} for n, v in req["headers"]],
        "queryString": [{"name": n, "value": v} for n, v in query],
        "cookies": [], "headersSize": -1, "bodySize": len(req.get("body") or ""),
    }
    if req.get("body") is not None:
        ctype = dict((n.lower(), v) for n, v in req["headers"]).get("content-type", FORM)
        post = {"mimeType": ctype, "text": req["body"]}
        if ctype.startswith(FORM):
            post["params"] = [{"name": p.split("=")[0], "value": p.partition("=")[2]}
                              for p in req["body"].split("&")]
        request["postData"] = post
    return {
        "startedDateTime": started, "time": 231.4, "request": request,
        "response": {"status": status, "statusText": "", "httpVersion": http_version,
                     "headers": [{"name": n, "value": v} for n, v in response_headers],
                     "cookies": [],
                     "content": {"size": len(response_text), "mimeType": "application/json",
                                 "text": response_text},
                     "redirectURL": "", "headersSize": -1, "bodySize": -1},
        "cache": {}, "timings": {"send": 0.2, "wait": 200.1, "receive": 0.5},
    }


def raw_http(req, chunked=False):
    target = req["url"].split("://", 1)[1]
    host, _, path = target.partition("/")
    lines = ["%s /%s HTTP/1.1" % (req["method"], path), "Host: " + host]
    lines += ["%s: %s" % (n, v) for n, v in req["headers"]]
    body = (req.get("body") or "").encode()
    if req.get("body") is not None:
        if chunked:
            lines.append("Transfer-Encoding: chunked")
            half = len(body) // 2
            framed = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in (body[:half], body[half:]) if c)
            body = framed + b"0\r\n\r\n"
        else:
            lines.append("Content-Length: %d" % len(body))
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


# -- the cases ------------------------------------------------------------------------------

X_UPDATE = "https://api.x.com/1.1/statuses/update.json?include_entities=true"
X_BODY = "status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21"


def request(method, url, body, nonce, timestamp, mistake=None, headers_before=(),
            headers_after=(), content_type=FORM):
    header = sign(method, url, body if content_type == FORM else None, nonce, timestamp, mistake)
    headers = list(headers_before) + [("authorization", header)]
    if body is not None:
        headers.append(("content-type", content_type))
    headers += list(headers_after)
    return {"method": method, "url": url, "body": body, "headers": headers,
            "authorization": header, "content_type": content_type if body is not None else None}


def case(id, fmt, source, text, req, now, mistake=None, valid=True, **more):
    out = {"id": id, "format": fmt, "source": source, "text": text,
           "signed_by": "oauthlib 4.0.1 (tests/peers/capture_fixtures.py)",
           "credentials": CREDENTIALS, "now": now,
           "sent": {"method": req["method"], "url": req["url"], "body": req["body"],
                    "authorization": req["authorization"],
                    "content_type": req["content_type"]},
           "mistake": mistake, "valid": valid}
    out.update(more)
    return out


def chrome_headers():
    return [("accept", "*/*"), ("accept-language", "en-US,en;q=0.9")], [
        ("origin", "https://x.example"), ("referer", "https://x.example/"),
        ("sec-fetch-mode", "cors"), ("user-agent", UA_CHROME)]


def cases():
    out = []
    before, after = chrome_headers()

    r = request("POST", X_UPDATE, X_BODY, "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
                "1318622958", headers_before=before, headers_after=after)
    out.append(case("chromium-bash-form-post", "curl", SOURCES["chromium"] + " (bash)",
                    chromium(r, "posix"), r, 1318622958, shell="bash"))

    r = request("POST", X_UPDATE, X_BODY, "c2hlbGwgcXVvdGluZyBpbiBjbWQ", "1318622960",
                headers_before=before, headers_after=after)
    out.append(case("chromium-cmd-form-post", "curl", SOURCES["chromium"] + " (cmd)",
                    chromium(r, "win"), r, 1318622960, shell="cmd"))

    body = "status=Hello%20Ladies%20%2B%20Gentlemen"
    r = request("POST", X_UPDATE, body, "c3BhY2UgYXMgcGx1cw", "1318622970", "space-as-plus",
                headers_before=before, headers_after=after)
    out.append(case("chromium-cmd-space-as-plus", "curl", SOURCES["chromium"] + " (cmd)",
                    chromium(r, "win"), r, 1318622970, "space-as-plus", False, shell="cmd"))

    # X API v2: a JSON body (not signed) with ' and !, which Chromium writes in $'...'.
    r = request("POST", "https://api.x.com/2/tweets", '{"text":"It\'s here! ☃"}',
                "anNvbiBib2R5IGFuc2ktYw", "1318622980", headers_before=before,
                headers_after=after, content_type="application/json")
    out.append(case("chromium-bash-v2-json-ansi-c", "curl", SOURCES["chromium"] + " (bash)",
                    chromium(r, "posix"), r, 1318622980, shell="bash"))

    ff = [("Host", "api.x.com"), ("User-Agent", UA_FIREFOX), ("Accept", "*/*"),
          ("Accept-Language", "en-US,en;q=0.5")]
    url = "https://api.x.com/1.1/statuses/home_timeline.json?count=2&since_id=14927799"
    r = request("GET", url, None, "ZmlyZWZveCBwb3NpeCBnZXQ", "1318623000", headers_before=ff)
    out.append(case("firefox-posix-get-query", "curl", SOURCES["firefox"] + " (POSIX)",
                    firefox(r, "posix"), r, 1318623000, shell="bash"))

    # A body with a quote: Firefox writes $'...' and each & as ^&, which bash keeps.
    body = "status=it%27s%20fine&trim_user=1"
    r = request("POST", X_UPDATE, body.replace("%27", "'"), "ZmlyZWZveCBjYXJldA", "1318623010",
                headers_before=ff)
    out.append(case("firefox-posix-caret-kept", "curl", SOURCES["firefox"] + " (POSIX)",
                    firefox(r, "posix"), r, 1318623010, None, False, shell="bash",
                    expect_warning="caret-in-ansi-c-quote",
                    notes="the command sends status=it's fine^&trim_user=1: its body is not the "
                          "one the browser sent and signed"))

    r = request("GET", "https://api.x.com/2/users/me", None, "ZmlyZWZveCB3aW5kb3dz",
                "1318623020", headers_before=ff)
    out.append(case("firefox-windows-caret-kept", "curl", SOURCES["firefox"] + " (Windows)",
                    firefox(r, "win"), r, 1318623020, None, False, shell="cmd",
                    expect_warning="caret-in-cmd-quotes",
                    notes="Firefox writes the header's quotes as \\\" without ^: cmd.exe takes "
                          "them for quotes, keeps the ^ of ^%^3D inside them, and the command "
                          "sends the signature with carets"))

    params = [("status", "Hello Ladies + Gentlemen, a signed OAuth request!")]
    body = "&".join("%s=%s" % (k, curl_urlencode(v)) for k, v in params)
    r = request("POST", X_UPDATE, body, "cG9zdG1hbiB1cmxlbmNvZGVk", "1318623030")
    r["headers"] = [h for h in r["headers"] if h[0] != "content-type"]
    out.append(case("postman-data-urlencode", "curl", SOURCES["postman"],
                    postman(r, params), r, 1318623030, shell="bash"))

    r = request("POST", X_UPDATE, body, "cG9zdG1hbiBxdWVyeQ", "1318623040",
                "query-param-missing")
    r["headers"] = [h for h in r["headers"] if h[0] != "content-type"]
    out.append(case("postman-query-param-missing", "curl", SOURCES["postman"],
                    postman(r, params), r, 1318623040, "query-param-missing", False,
                    shell="bash"))

    # HTTPSnippet writes a form parameter's value raw (--data 'name=value'), so only a value
    # a form would not encode is sent as signed.
    params = [("status", "Hello_Ladies")]
    r = request("POST", "https://api.x.com/1.1/statuses/update.json", "status=Hello_Ladies",
                "aW5zb21uaWEgaHR0cHNuaXBwZXQ", "1318623050")
    out.append(case("insomnia-httpsnippet-form", "curl", SOURCES["insomnia"],
                    insomnia(r, params), r, 1318623050, shell="bash"))

    # Chrome's HAR: a script, the signed POST (401, X's code 32), an image.
    r = request("POST", X_UPDATE, X_BODY, "aGFyIGRlZmF1bHQgcG9ydA", "1318623060",
                "default-port-kept",
                headers_before=[(":authority", "api.x.com"), (":method", "POST"),
                                (":path", "/1.1/statuses/update.json?include_entities=true"),
                                (":scheme", "https")] + before, headers_after=after)
    code32 = '{"errors":[{"code":32,"message":"Could not authenticate you."}]}'
    script = {"method": "GET", "url": "https://x.example/app.js", "body": None,
              "headers": [(":authority", "x.example"), ("accept", "*/*")]}
    entries = [
        har_entry(script, 200, [("content-type", "text/javascript")], "", "http/2.0",
                  "2011-10-14T20:11:00.000Z"),
        har_entry(r, 401, [("content-type", "application/json; charset=utf-8"),
                           ("date", "Fri, 14 Oct 2011 20:11:01 GMT")], code32, "http/2.0",
                  "2011-10-14T20:11:00.900Z"),
    ]
    text = har({"name": "WebInspector", "version": "537.36"}, entries)
    out.append(case("chrome-har-default-port-kept", "har", SOURCES["har"] + "; Chrome's export "
                    "(creator WebInspector, HTTP/2 pseudo-headers); " + SOURCES["x"],
                    text, r, 1318623061, "default-port-kept", False, entry=None,
                    answer={"status": 401, "code": "32"}))

    # Firefox's HAR: two signed requests; the second answered 135, its Date 600 s after its
    # timestamp (the client's clock 10 minutes behind).
    ok = request("GET", "https://api.x.com/2/users/me", None, "ZmlyZWZveCBoYXIgb2s",
                 "1318623100", headers_before=ff)
    late = request("POST", X_UPDATE, X_BODY, "ZmlyZWZveCBoYXIgbGF0ZQ", "1318623100",
                   headers_before=ff, headers_after=[("Origin", "https://x.example")])
    code135 = '{"errors":[{"code":135,"message":"Timestamp out of bounds."}]}'
    entries = [
        har_entry(ok, 200, [("Content-Type", "application/json"),
                            ("Date", "Fri, 14 Oct 2011 20:11:40 GMT")],
                  '{"data":{"id":"370773112"}}', "HTTP/2", "2011-10-14T20:11:40.000Z"),
        har_entry(late, 401, [("Content-Type", "application/json; charset=utf-8"),
                              ("Date", "Fri, 14 Oct 2011 20:21:40 GMT")], code135, "HTTP/2",
                  "2011-10-14T20:21:40.000Z"),
    ]
    text = har({"name": "Firefox", "version": "128.0"}, entries)
    out.append(case("firefox-har-valid-entry", "har", SOURCES["har"] + "; Firefox's export",
                    text, ok, 1318623100, entry=0, answer=None))
    out.append(case("firefox-har-timestamp-out-of-bounds", "har",
                    SOURCES["har"] + "; Firefox's export; " + SOURCES["x"], text, late, None,
                    "clock", False, entry=1,
                    answer={"status": 401, "code": "135", "clock_offset_seconds": -600}))

    # Raw HTTP/1.1, as Burp or mitmproxy save it.
    r = request("POST", X_UPDATE, X_BODY, "YnVycCByYXcgcmVxdWVzdA", "1318623200",
                headers_after=[("User-Agent", "curl/8.5.0"), ("Accept", "*/*")])
    r["headers"] = [(n.title() if n != "authorization" else "Authorization", v)
                    for n, v in r["headers"]]
    out.append(case("http-content-length", "http", SOURCES["http"],
                    raw_http(r).decode(), r, 1318623200, scheme="https"))
    r = request("POST", X_UPDATE, X_BODY, "Y2h1bmtlZCBib2R5IHNwYWNl", "1318623210",
                "space-as-plus")
    out.append(case("http-chunked-space-as-plus", "http", SOURCES["http"],
                    raw_http(r, chunked=True).decode(), r, 1318623210, "space-as-plus", False,
                    scheme="https"))
    # The protocol parameters in the query (RFC 5849 §3.5.2), an absolute-form target.
    url = sign_query("GET", "http://api.example.com/photos?size=original", "cXVlcnkgdHJhbnNtaXNzaW9u",
                     "1318623220")
    r = {"method": "GET", "url": url, "body": None, "headers": [("Accept", "*/*")],
         "authorization": None, "content_type": None}
    text = "GET %s HTTP/1.1\r\nHost: api.example.com\r\nAccept: */*\r\n\r\n" % url
    out.append(case("http-absolute-form-query", "http", SOURCES["http"] + "; the absolute-form "
                    "target a client sends a proxy (§3.2.2); RFC 5849 §3.5.2", text, r,
                    1318623220, scheme="http"))
    return out


def main():
    all_cases = cases()
    json.dump({"schema": "fixtures/captures/README.md", "count": len(all_cases),
               "cases": all_cases}, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
