#!/usr/bin/env python3
"""The three-legged flow, as requests-oauthlib (over oauthlib) runs it, against a provider at
BASE_URL that stands in for X's paths (`oauth1 serve`):

    python3 tests/peers/serve_flow.py BASE_URL CONSUMER_KEY CONSUMER_SECRET CALLBACK

Prints one JSON object: each step's HTTP status and what it gave, then the access token used
on another path, and two refusals (the same verifier again; a wrong verifier for a fresh
temporary token). CALLBACK is a URL (the authorisation answer is a redirect to it) or "oob"
(the answer holds the verifier). Every request is signed by oauthlib.
"""

import json
import sys
import urllib.parse

import requests
from requests_oauthlib import OAuth1Session


def authorize(base, session, callback):
    """The verifier, as the authorisation step gives it (a redirect, or a form for oob)."""
    url = session.authorization_url(base + "/oauth/authorize")
    answer = requests.get(url, allow_redirects=False, timeout=10)
    if callback == "oob":
        return answer.status_code, None, dict(urllib.parse.parse_qsl(answer.text))
    location = answer.headers.get("Location", "")
    return answer.status_code, location, session.parse_authorization_response(location)


def main():
    base, key, secret, callback = sys.argv[1:5]
    out = {}
    session = OAuth1Session(key, client_secret=secret, callback_uri=callback)
    # Each answer's media type, as the session received it.
    out["media"] = {}

    def media(answer, *args, **kwargs):
        path = urllib.parse.urlsplit(answer.url).path
        out["media"][path] = answer.headers.get("Content-Type")

    session.hooks["response"].append(media)
    temporary = session.fetch_request_token(base + "/oauth/request_token")
    out["temporary"] = {k: v for k, v in temporary.items() if k != "oauth_token_secret"}
    status, location, authorised = authorize(base, session, callback)
    out["authorize_status"] = status
    out["location"] = location
    verifier = authorised["oauth_verifier"]
    if callback == "oob":
        session = OAuth1Session(key, client_secret=secret,
                                resource_owner_key=temporary["oauth_token"],
                                resource_owner_secret=temporary["oauth_token_secret"],
                                verifier=verifier)
        session.hooks["response"].append(media)
    access = session.fetch_access_token(base + "/oauth/access_token")
    out["access"] = {k: v for k, v in access.items() if k != "oauth_token_secret"}
    out["access_has_secret"] = bool(access.get("oauth_token_secret"))
    me = session.get(base + "/2/users/me", timeout=10)
    out["me"] = {"status": me.status_code, "json": me.json()}
    tweet = session.post(base + "/1.1/statuses/update.json", data={"status": "Hello Ladies + Gentlemen"},
                         timeout=10)
    out["tweet"] = {"status": tweet.status_code, "json": tweet.json()}

    # The same verifier, the same temporary token, once more: refused.
    again = OAuth1Session(key, client_secret=secret,
                          resource_owner_key=temporary["oauth_token"],
                          resource_owner_secret=temporary["oauth_token_secret"],
                          verifier=verifier)
    answer = again.post(base + "/oauth/access_token", timeout=10)
    out["reused"] = {"status": answer.status_code, "body": answer.text}

    # A fresh temporary token, authorised, exchanged with a wrong verifier: refused.
    fresh = OAuth1Session(key, client_secret=secret, callback_uri="oob")
    temp = fresh.fetch_request_token(base + "/oauth/request_token")
    authorize(base, fresh, "oob")
    wrong = OAuth1Session(key, client_secret=secret, resource_owner_key=temp["oauth_token"],
                          resource_owner_secret=temp["oauth_token_secret"],
                          verifier="not-the-verifier")
    answer = wrong.post(base + "/oauth/access_token", timeout=10)
    out["wrong"] = {"status": answer.status_code, "body": answer.text}
    # The temporary token is no access token.
    as_access = OAuth1Session(key, client_secret=secret, resource_owner_key=temp["oauth_token"],
                              resource_owner_secret=temp["oauth_token_secret"])
    answer = as_access.get(base + "/2/users/me", timeout=10)
    out["temporary_as_access"] = {"status": answer.status_code}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
