#!/usr/bin/env node
// Differential-test peer: OAuth 1.0a signing by the npm package `oauth-1.0a` (ddo/oauth-1.0a).
//
// Reads JSON Lines requests on stdin, writes one JSON line per request on stdout (same order).
// The whole of stdin is read before anything is written, so a caller may write the full batch,
// close stdin, and then read the answers without risk of a pipe deadlock.
//
// Every value comes from the library's own methods:
//   base_string       = oauth.getBaseString(request, oauth_data)
//   normalized_params = oauth.getParameterString(request, oauth_data)
//   base_string_uri   = oauth.getBaseUrl(request.url)
//   signing_key       = oauth.getSigningKey(token_secret)
//   signature         = oauth.getSignature(request, token_secret, oauth_data)
//   authorization_header = oauth.toHeader(oauth_data with oauth_signature set).Authorization
//                       (what toHeader(authorize(request, token)) gives; checked against it)
// (getSignature is exactly what oauth.authorize() calls; authorize() itself is not used because it
// always adds a random oauth_nonce, the current oauth_timestamp and oauth_version, which the input
// may leave out.) The hash_function handed to the library is Node's crypto: HMAC for HMAC-*,
// RSASSA-PKCS1-v1_5 for RSA-* (over the library's base string); PLAINTEXT uses the library's own
// default hash_function (returns the signing key).
//
// Conversion of the input into the library's {url, method, data} form, as a user would do it:
//   - url: passed as given (the library parses the query out of it itself);
//   - data: the raw form body parsed as application/x-www-form-urlencoded (WHATWG URLSearchParams:
//     '+' is space, names and values percent-decoded); a repeated name becomes an array of values,
//     which the library supports ("multiple values" in its README/tests);
//   - protocol parameters: an oauth_data object built like authorize() builds it, holding only the
//     fields present in the input, plus callback/verifier/extra_oauth_params;
//   - an absent consumer_secret is passed as '' (the library would otherwise sign with the text
//     "undefined").
// Inputs it cannot represent (a protocol parameter name given twice) get an `error` line.
//
// See README.md in this folder for the protocol and for the library's known deviations.
'use strict';

const crypto = require('crypto');
const OAuth = require('oauth-1.0a');

const HMAC = { 'HMAC-SHA1': 'sha1', 'HMAC-SHA256': 'sha256', 'HMAC-SHA512': 'sha512' };
const RSA = { 'RSA-SHA1': 'sha1', 'RSA-SHA256': 'sha256', 'RSA-SHA512': 'sha512' };

function hashFunction(method, pem) {
  if (method === undefined || method === 'PLAINTEXT') return undefined; // library default
  if (HMAC[method]) {
    const alg = HMAC[method];
    // exactly the README's recipe: crypto.createHmac('sha1', key).update(base_string).digest('base64')
    return (baseString, key) => crypto.createHmac(alg, key).update(baseString).digest('base64');
  }
  if (RSA[method]) {
    if (!pem) throw new Error(`${method} needs rsa_private_key`);
    const alg = RSA[method];
    return (baseString) => crypto.createSign(alg).update(baseString).sign(pem, 'base64');
  }
  throw new Error(`unsupported signature method ${JSON.stringify(method)}`);
}

function parseForm(body) {
  // null prototype: a name such as "constructor" must not collide with Object.prototype here
  const data = Object.create(null);
  for (const [name, value] of new URLSearchParams(body)) {
    if (Object.prototype.hasOwnProperty.call(data, name)) {
      if (!Array.isArray(data[name])) data[name] = [data[name]];
      data[name].push(value);
    } else {
      data[name] = value;
    }
  }
  return data;
}

function cloneData(data) {
  const copy = Object.create(null);
  for (const k of Object.keys(data)) copy[k] = Array.isArray(data[k]) ? data[k].slice() : data[k];
  return copy;
}

function signOne(req) {
  const method = req.signature_method;
  const opts = {
    consumer: { key: req.consumer_key, secret: req.consumer_secret ?? '' },
  };
  if (method !== undefined) opts.signature_method = method;
  const hf = hashFunction(method, req.rsa_private_key);
  if (hf) opts.hash_function = hf;
  if (req.realm !== undefined) opts.realm = req.realm; // only used by toHeader(); never signed
  const oauth = new OAuth(opts);

  // oauth_data as authorize() builds it (same key order), limited to the fields present
  const oauthPairs = [];
  const push = (name, value) => { if (value !== undefined && value !== null) oauthPairs.push([name, value]); };
  push('oauth_consumer_key', req.consumer_key);
  push('oauth_nonce', req.nonce);
  push('oauth_signature_method', method);
  push('oauth_timestamp', req.timestamp);
  push('oauth_version', req.version);
  push('oauth_token', req.token);
  push('oauth_callback', req.callback);
  push('oauth_verifier', req.verifier);
  for (const pair of req.extra_oauth_params || []) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      throw new Error(`extra_oauth_params entry is not a [name, value] pair of strings: ${JSON.stringify(pair)}`);
    }
    push(pair[0], pair[1]);
  }
  const seen = new Set();
  for (const [name] of oauthPairs) {
    if (seen.has(name)) throw new Error(`cannot represent protocol parameter ${name} twice (oauth_data is an object)`);
    seen.add(name);
  }
  const oauthData = () => {
    const o = {};
    for (const [name, value] of oauthPairs) o[name] = value;
    return o;
  };

  const form = req.form_body === undefined || req.form_body === null ? undefined : parseForm(req.form_body);
  // a fresh request object per call: getParameterString merges the query into request.data
  const request = () => {
    const r = { url: req.url, method: req.method };
    if (form !== undefined) r.data = cloneData(form);
    return r;
  };

  const out = {
    id: req.id,
    base_string: oauth.getBaseString(request(), oauthData()),
    normalized_params: oauth.getParameterString(request(), oauthData()),
    base_string_uri: oauth.getBaseUrl(req.url),
    signature: null,
  };
  if (method === undefined) return out; // base-string-only request: nothing to sign
  out.signing_key = oauth.getSigningKey(req.token_secret);
  out.signature = oauth.getSignature(request(), req.token_secret, oauthData());
  // The Authorization header, the README's way: toHeader(authorize(...)). authorize() signs
  // an oauth_data object (which getParameterString merges the request's parameters into),
  // sets its oauth_signature and returns it; toHeader keeps the oauth_* names, sorted.
  const signed = oauthData();
  signed.oauth_signature = oauth.getSignature(request(), req.token_secret, signed);
  out.authorization_header = oauth.toHeader(signed).Authorization;
  // As a guard, where the input fits what authorize() itself sends (a nonce, a timestamp
  // and oauth_version, no callback, verifier or extras), the header must be exactly
  // toHeader(authorize(request, token)), with the nonce and timestamp pinned.
  if (fitsAuthorize(req)) {
    oauth.getNonce = () => req.nonce;
    oauth.getTimeStamp = () => req.timestamp;
    const token = req.token === undefined || req.token === null
      ? { secret: req.token_secret } : { key: req.token, secret: req.token_secret };
    const again = oauth.toHeader(oauth.authorize(request(), token)).Authorization;
    if (again !== out.authorization_header) {
      throw new Error(`wrapper disagrees with toHeader(authorize()): ${out.authorization_header} vs ${again}`);
    }
  }
  return out;
}

function fitsAuthorize(req) {
  const absent = (v) => v === undefined || v === null;
  return req.version === '1.0' && !absent(req.nonce) && !absent(req.timestamp)
    && absent(req.callback) && absent(req.verifier)
    && !(req.extra_oauth_params && req.extra_oauth_params.length);
}

function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { id: null, error: `invalid JSON input: ${e.message}` };
  }
  const id = req && typeof req === 'object' && req.id !== undefined ? req.id : null;
  try {
    if (!req || typeof req !== 'object' || Array.isArray(req)) throw new Error('input line is not a JSON object');
    return signOne(req);
  } catch (e) {
    return { id, error: `${e && e.name ? e.name : 'Error'}: ${e && e.message ? e.message : String(e)}` };
  }
}

const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const text = Buffer.concat(chunks).toString('utf8');
  const out = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    out.push(JSON.stringify(handle(line)) + '\n');
  }
  process.stdout.write(out.join(''));
});
