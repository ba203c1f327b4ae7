// The page in a real browser: Debian's headless Chromium driven by
// playwright-core (never `npx playwright install`). A static server of the
// built folder (web/dist; WEB_DIST=dir for another build, such as an older
// page to see these tests fail on) on 127.0.0.1 only; every expected value
// is a public vector read from fixtures/ (X developer docs, RFC 5849,
// Twitter's sign-in example), or an independent encoder's or decoder's
// (Node's Buffer and encodeURIComponent), never the page's own output.
// Screenshots of each panel go to web/tests/artifacts/ (WEB_SCREENSHOTS=dir
// to put them elsewhere, as docs/img/ is refreshed).
//
// Tests named "#24.N" are issue 24's findings, one or more each.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const dist = path.resolve(process.env.WEB_DIST || path.join(root, 'web', 'dist'));
// axe-core, served to the page from its own origin (its CSP allows no other).
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const shots = path.resolve(process.env.WEB_SCREENSHOTS || path.join(here, 'artifacts'));
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(root, 'fixtures', name), 'utf8'));

const X_DOCS = "X developer docs, 'Percent encoding parameters'";
const percentVectors = fixture('percent_encoding.json').vectors.filter((v) => v.source.startsWith(X_DOCS));
const xSignature = fixture('signatures.json').vectors.find((v) => v.id === 'x-docs-creating-a-signature');
const vector = (vid) => fixture('signatures.json').vectors.find((v) => v.id === vid);
const explainCase = (cid) => fixture('explain.json').cases.find((c) => c.id === cid);
const spaceAsPlus = explainCase('explain-space-as-plus');
// The X flow's three legs, from Twitter's "Sign in with Twitter" example, and
// RFC 5849 §1.2's (with a realm).
const requestToken = vector('twitter-sign-in-request-token');
const accessToken = vector('twitter-sign-in-access-token');
const rfcTemporary = vector('rfc5849-1.2-temporary-credentials');
const rfcToken = vector('rfc5849-1.2-token-credentials');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

let server, origin, context, page, userDataDir;
// The loopback provider (tests/provider/server.py): every check is Python
// oauthlib 4.0.1's. Every curl command the page shows is run against it
// and must verify (sendShown).
let provider;
const requests = [];
const echoed = [];
// Uncaught errors in the page (a Rust panic is one): none, at any time.
const errors = [];

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'build the page first: bash web/build.sh');
  server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (name === '/__axe.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      fs.createReadStream(axeSource).pipe(res);
      return;
    }
    if (name === '/__echo') {
      // What a curl command sent: kept for the test to read.
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        echoed.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
      return;
    }
    const file = path.join(dist, name === '/' ? 'index.html' : name);
    if (!file.startsWith(dist + path.sep) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  provider = await startProvider();
  origin = `http://127.0.0.1:${server.address().port}`;
  fs.mkdirSync(shots, { recursive: true });
  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oauth1-web-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 900, height: 900 },
  });
  context.on('request', (r) => requests.push(r.url()));
  page = context.pages()[0] || (await context.newPage());
  // WEB_TIMEOUT=ms: a shorter wait for a missing element (an older page).
  if (process.env.WEB_TIMEOUT) context.setDefaultTimeout(Number(process.env.WEB_TIMEOUT));
  page.on('pageerror', (e) => errors.push(String(e)));
  // The clock the page reads when no timestamp is pinned: the X docs
  // example's moment, so a blank timestamp must sign exactly as pinned.
  await page.clock.setFixedTime(Number(xSignature.inputs.timestamp) * 1000);
  await page.goto(`${origin}/`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  await fullModule();
  assert.deepEqual(errors, []);
});

// The page loads its full module (the capture readers, RSA) when one is
// first used (issue 42.4): the tests that paste captures or sign with RSA
// want their answer at once, so it is loaded first, the way a user loads it
// (a capture pasted, then taken away). #42.4 tests the first use itself.
async function fullModule(p = page) {
  if (await p.evaluate(() => document.body.dataset.full === 'loaded')) return;
  await p.getByTestId('explain-capture').fill('curl https://api.x.com/');
  await p.waitForSelector('body[data-full=loaded]', { timeout: 30000 });
  await p.getByTestId('explain-capture').fill('');
}

after(async () => {
  await context?.close();
  provider?.proc.stdin.end();
  await new Promise((ok) => server?.close(ok) ?? ok());
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
});

// The provider, with the RSA public key of oauthlib's test key (which the
// page is given as a private key where a test signs with RSA); its stdin is
// a pipe, and it exits when the pipe closes.
async function startProvider() {
  const proc = spawn('python3', [path.join(root, 'tests', 'provider', 'server.py'), '--port', '0',
    '--max-seconds', '900', '--rsa-public-key', path.join(root, 'fixtures', 'keys', 'oauthlib_tests_rsa_public.pem')],
  { stdio: ['pipe', 'pipe', 'pipe'] });
  const log = [];
  proc.stderr.on('data', (d) => log.push(String(d)));
  const base = await new Promise((ok, fail) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /^listening on (\S+)/m.exec(out);
      if (m) ok(m[1]);
    });
    proc.on('exit', (code) => fail(new Error(`the loopback provider exited (${code}): ${log.join('')}\n` +
      'install the peers: python3 -m pip install -r tests/peers/requirements.txt')));
  });
  return { proc, base, log };
}

// The provider's credentials (tests/provider/README.md).
const PROVIDER = {
  consumer_key: 'test-consumer-key-0001', consumer_secret: 'test-consumer-secret-0001',
  token: 'test-access-token-0001', token_secret: 'test-access-secret-0001',
};
const now = () => String(Math.floor(Date.now() / 1000));

// Runs the curl command the page shows, as a user would paste it, and
// returns the provider's answer: its status and its body.
async function sendShown() {
  const command = await id('sign-curl').textContent();
  const { stdout } = await promisify(execFile)('bash', ['-c',
    `${command} --silent --show-error --max-time 10 --write-out '\n%{http_code}'`]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut), command };
}

// Sends what the page shows and asserts that oauthlib verified it.
async function assertVerified(what) {
  const answer = await sendShown();
  assert.equal(answer.status, 200, `${what}: ${answer.body}\n${answer.command}\n${provider.log.slice(-3).join('')}`);
  return answer.body.startsWith('{') ? JSON.parse(answer.body) : answer.body;
}

const id = (t) => page.getByTestId(t);
const shot = (panel, name) => page.locator(`#${panel}`).screenshot({ path: path.join(shots, `${name}.png`) });

// Fills the Sign panel with a vector's inputs; the callback and verifier
// fields only where the page has them (so that the tests of issue 17 run on
// any page).
async function fillSign(inputs) {
  if (await id('sign-leg').count()) await id('sign-leg').selectOption('resource');
  await id('sign-method').fill(inputs.method);
  await id('sign-url').fill(inputs.url);
  // A body that is not a form: JSON, or other bytes with their media type.
  if (await id('sign-body-type').count()) {
    await id('sign-body-type').selectOption(inputs.body_type ?? 'form');
    if (inputs.body_type === 'bytes') await id('sign-content-type').fill(inputs.content_type ?? '');
    await id('sign-body-hash').selectOption(inputs.body_hash ?? 'never');
    await id('sign-body-hash-algorithm').selectOption(inputs.body_hash_algorithm ?? 'follow-method');
  }
  await id('sign-body').fill(inputs.body ?? inputs.form_body ?? '');
  await id('sign-consumer-key').fill(inputs.consumer_key);
  await id('sign-consumer-secret').fill(inputs.consumer_secret ?? '');
  await id('sign-token').fill(inputs.token ?? '');
  await id('sign-token-secret').fill(inputs.token_secret ?? '');
  for (const f of ['callback', 'verifier']) {
    if (inputs[f] !== undefined || (await id(`sign-${f}`).count())) await id(`sign-${f}`).fill(inputs[f] ?? '');
  }
  if (await id('sign-provider').count()) await id('sign-provider').selectOption('none');
  await id('sign-signature-method').selectOption(inputs.signature_method);
  if (await id('sign-private-key').count()) await id('sign-private-key').fill(inputs.rsa_private_key ?? '');
  await id('sign-nonce').fill(inputs.nonce);
  await id('sign-timestamp').fill(inputs.timestamp);
  await id('sign-realm').fill(inputs.realm ?? '');
  // oauth_version is sent where the vector sends it.
  if (await id('sign-version').count()) await id('sign-version').setChecked(inputs.version === '1.0');
  if (await id('sign-transmission').count()) await id('sign-transmission').selectOption(inputs.transmission ?? 'header');
}

// An Authorization header's parameters, decoded and sorted (order and
// blanks between parameters are not normative: RFC 5849 §3.5.1).
function headerParams(header) {
  const out = [];
  for (const m of header.replace(/^OAuth\s+/, '').matchAll(/([\w-]+)="([^"]*)"/g)) {
    out.push([m[1], decodeURIComponent(m[2])]);
  }
  return out.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : 1));
}

test('percent: the four X docs examples encode, and decode back', async () => {
  assert.equal(percentVectors.length, 4);
  for (const v of percentVectors) {
    await id('pct-text').fill(v.inputs.input);
    assert.equal(await id('pct-encoded').inputValue(), v.published ?? v.expected, v.id);
    await id('pct-text').fill('');
    await id('pct-encoded').fill(v.published ?? v.expected);
    assert.equal(await id('pct-text').inputValue(), v.inputs.input, v.id);
  }
});

test('percent: %E2%98%83 decodes to a snowman, its three UTF-8 bytes shown', async () => {
  await id('pct-mode').selectOption('strict');
  await id('pct-encoded').fill('%E2%98%83');
  assert.equal(await id('pct-text').inputValue(), '☃');
  assert.match(await id('pct-bytes').textContent(), /e2 98 83/);
  assert.equal(await id('pct-binary').isVisible(), false);
  await id('pct-text').fill('☃');
  assert.equal(await id('pct-encoded').inputValue(), '%E2%98%83');
  assert.match(await id('pct-bytes').textContent(), /3 bytes: e2 98 83/);
});

test('percent: %2G is flagged at its byte offset, marked in place', async () => {
  await id('pct-encoded').fill('abc%2Gdef');
  const error = await id('pct-error').textContent();
  // 'abc' is bytes 0..2: the '%' is byte 3.
  assert.match(error, /\b3\b/);
  assert.equal(await page.locator('[data-testid=pct-error] mark').textContent(), '%2G');
  assert.equal(await id('pct-encoded').getAttribute('aria-invalid'), 'true');
});

test('percent: %FF%FE is shown as binary, in hex', async () => {
  await id('pct-encoded').fill('%FF%FE');
  assert.equal(await id('pct-binary').isVisible(), true);
  assert.match(await id('pct-binary').textContent(), /binary, not text/);
  assert.match(await id('pct-hex').textContent(), /ff fe/);
  await shot('percent', 'web-percent');
  await id('pct-encoded').fill('ok');
  assert.equal(await id('pct-binary').isVisible(), false);
});

test('percent: in form mode + is a space, in strict mode a plus', async () => {
  await id('pct-mode').selectOption('form');
  await id('pct-encoded').fill('a+b');
  assert.equal(await id('pct-text').inputValue(), 'a b');
  await id('pct-mode').selectOption('strict');
  assert.equal(await id('pct-text').inputValue(), 'a+b');
});

test('sign: the X docs "Creating a signature" request gives its published base string and signature', async () => {
  await fillSign(xSignature.inputs);
  const base = (await id('sign-base-string').textContent()).replace(/[\r\n]/g, '');
  assert.equal(base, xSignature.published.base_string);
  assert.equal(await id('sign-normalized').textContent(), xSignature.published.normalized_params);
  assert.equal(await id('sign-signature').textContent(), xSignature.published.signature);
  const header = await id('sign-header').textContent();
  assert.ok(header.includes(`oauth_signature="${encodeURIComponent(xSignature.published.signature)}"`), header);
  // The base string is broken at each '&': more than one line.
  assert.ok((await page.locator('[data-testid=sign-base-string] .line').count()) > 2);
  const rows = await page.locator('[data-testid=sign-params] tbody tr').count();
  assert.equal(rows, xSignature.expected.collected_params.length);
  assert.equal((await id('sign-error').textContent()).trim(), '');
  await shot('sign', 'web-sign');
});

test('sign: a copy button copies what its stage shows', async () => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await fillSign(xSignature.inputs);
  await page.locator('button[data-copy=sign-signature]').click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), xSignature.published.signature);
  await page.locator('button[data-copy=sign-base-string]').click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), xSignature.published.base_string);
  // The table: a name and a value per line (the fixture lists them in another order).
  await page.locator('button[data-copy=sign-params]').click();
  const lines = (await page.evaluate(() => navigator.clipboard.readText())).split('\n').sort();
  assert.deepEqual(lines, xSignature.expected.collected_params.map(([n, v]) => `${n}\t${v}`).sort());
});

test('sign: a blank timestamp is the browser clock, a blank nonce a fresh one', async () => {
  await fillSign(xSignature.inputs);
  await id('sign-timestamp').fill('');
  // The page clock is fixed at the X docs timestamp.
  assert.equal(await id('sign-signature').textContent(), xSignature.published.signature);
  await id('sign-nonce').fill('');
  const nonce = async () => /oauth_nonce="([^"]+)"/.exec(await id('sign-header').textContent())?.[1];
  const first = await nonce();
  await id('sign-realm').fill('r');
  const second = await nonce();
  assert.ok(first && second && first !== second, `${first} ${second}`);
});

test('sign: an error names its offset in the field', async () => {
  await fillSign(xSignature.inputs);
  await id('sign-url').fill('https://api.x.com/1.1/x.json?a=%2G');
  const error = await id('sign-error').textContent();
  // "https://api.x.com/1.1/x.json?a=" is 31 bytes.
  assert.match(error, /\b31\b/);
  assert.equal(await page.locator('[data-testid=sign-error] mark').textContent(), '%2G');
  assert.equal(await id('sign-url').getAttribute('aria-invalid'), 'true');
  assert.equal(await id('sign-signature').textContent(), '');
});

test('explain: a base string with + for spaces is named space-as-plus', async () => {
  await fillSign(spaceAsPlus.inputs);
  await id('explain-their-signature').fill('');
  await id('explain-their-header').fill('');
  await id('explain-their-base-string').fill(spaceAsPlus.theirs.base_string);
  const cause = page.locator('[data-testid=explain-result] [data-code="space-as-plus"]');
  assert.equal(await cause.count(), 1, 'one element per cause');
  assert.ok((await cause.locator('mark').count()) >= 2, 'ours and theirs marked');
  const codes = await page.locator('[data-testid=explain-result] [data-code]')
    .evaluateAll((els) => els.map((e) => e.dataset.code));
  assert.equal(new Set(codes).size, codes.length, codes.join(' '));
  await shot('explain', 'web-explain');
  // Their signature alone: the search finds the same cause.
  await id('explain-their-base-string').fill('');
  await id('explain-their-signature').fill(spaceAsPlus.theirs.signature);
  assert.equal(await cause.count(), 1);
  // Their header: the same.
  await id('explain-their-signature').fill('');
  await id('explain-their-header').fill(spaceAsPlus.theirs.authorization_header);
  assert.equal(await cause.count(), 1);
  // Our own header: they match.
  await id('explain-their-header').fill(await id('sign-header').textContent());
  assert.match(await id('explain-result').textContent(), /match/);
  await id('explain-their-header').fill('');
});

test('base64: the X docs signature decodes to its 20 bytes, the HMAC-SHA1 length', async () => {
  const sig = xSignature.published.signature;
  await id('b64-alphabet').selectOption('standard');
  await id('b64-encoded').fill(sig);
  const hex = Buffer.from(sig, 'base64').toString('hex').match(/../g).join(' ');
  assert.equal(await id('b64-hex').inputValue(), hex);
  const length = await id('b64-length').textContent();
  assert.match(length, /\b20 bytes\b/);
  assert.match(length, /HMAC-SHA1/);
  await shot('base64', 'web-base64');
  // Back again from the hex, in the URL-safe alphabet without padding.
  await id('b64-alphabet').selectOption('url');
  await id('b64-padding').setChecked(false);
  await id('b64-hex').fill(hex);
  assert.equal(await id('b64-encoded').inputValue(), Buffer.from(sig, 'base64').toString('base64url'));
  await id('b64-padding').setChecked(true);
  await id('b64-alphabet').selectOption('standard');
});

test('base64: malformed input is flagged at its offset', async () => {
  await id('b64-encoded').fill('Zm9v!mFy');
  assert.match(await id('b64-error').textContent(), /\b4\b/);
  assert.equal(await page.locator('[data-testid=b64-error] mark').textContent(), '!');
  await id('b64-text').fill('foobar');
  // RFC 4648 §10.
  assert.equal(await id('b64-encoded').inputValue(), 'Zm9vYmFy');
  assert.match(await id('b64-length').textContent(), /\b6 bytes\b/);
  assert.equal((await id('b64-error').textContent()).trim(), '');
});

test('keyboard only: the Percent panel, from the top of the page', async () => {
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.testid ?? '');
  let presses = 0;
  while ((await focused()) !== 'pct-mode') {
    await page.keyboard.press('Tab');
    assert.ok(++presses < 20, 'pct-mode reached by Tab');
  }
  // The mode select: one step down is "form".
  await page.keyboard.press('ArrowDown');
  assert.equal(await id('pct-mode').inputValue(), 'form');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'pct-text');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(percentVectors[2].inputs.input);
  assert.equal(await id('pct-encoded').inputValue(), percentVectors[2].published ?? percentVectors[2].expected);
  // On to the encoded box (past its copy button, if there is one).
  while ((await focused()) !== 'pct-encoded') {
    await page.keyboard.press('Tab');
    assert.ok(++presses < 20, 'pct-encoded reached by Tab');
  }
  await page.keyboard.press('Control+A');
  await page.keyboard.type('a+b');
  assert.equal(await id('pct-text').inputValue(), 'a b');
  while ((await focused()) !== 'pct-mode') {
    await page.keyboard.press('Shift+Tab');
    assert.ok(++presses < 30, 'pct-mode reached by Shift+Tab');
  }
  await page.keyboard.press('ArrowUp');
  assert.equal(await id('pct-mode').inputValue(), 'strict');
  assert.equal(await id('pct-text').inputValue(), 'a+b');
});

test('360 pixels wide: nothing is wider than the screen', async () => {
  await page.setViewportSize({ width: 360, height: 800 });
  await fillSign(xSignature.inputs);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `page is ${wide}px wide`);
  await page.screenshot({ path: path.join(shots, 'web-360.png') });
  await page.setViewportSize({ width: 900, height: 900 });
});

test('no layout shift: a result appearing moves nothing below it', async () => {
  await id('pct-encoded').fill('ok');
  const y = () => page.locator('#sign').boundingBox().then((b) => b.y);
  const before = await y();
  await id('pct-encoded').fill('%FF%FE');
  assert.equal(await y(), before, 'binary result');
  await id('pct-encoded').fill('%2G');
  assert.equal(await y(), before, 'error');
  await id('pct-encoded').fill('ok');
});

// Issue 24 -------------------------------------------------------------------

const signature = () => id('sign-signature').textContent();

test('#24.1 sign: the request-token leg, with oauth_callback in its field, signs to the published signatures', async () => {
  await fillSign(requestToken.inputs);
  assert.equal(await signature(), requestToken.published.signature);
  assert.deepEqual(headerParams(await id('sign-header').textContent()),
    headerParams(requestToken.expected.authorization_header).map(([n, v]) =>
      [n, n === 'oauth_signature' ? requestToken.published.signature : v]));
  // RFC 5849 §1.2's, with a realm.
  await fillSign(rfcTemporary.inputs);
  assert.equal(await signature(), rfcTemporary.published.signature);
  assert.deepEqual(headerParams(await id('sign-header').textContent()), headerParams(rfcTemporary.published.header));
});

test('#24.1 sign: the authorize leg gives the URL to send the user to, with the temporary token', async () => {
  await id('sign-leg').selectOption('authorize');
  // The temporary token of Twitter's example; X's authorize endpoint (X docs,
  // "Obtaining user access tokens": https://api.x.com/oauth/authorize).
  await id('sign-token').fill(accessToken.inputs.token);
  assert.equal(await id('sign-authorize-url').textContent(),
    `https://api.x.com/oauth/authorize?oauth_token=${encodeURIComponent(accessToken.inputs.token)}`);
  await id('sign-leg').selectOption('resource');
});

test('#24.1 sign: the access-token leg, with oauth_verifier in its field, signs to the published signatures', async () => {
  await fillSign(accessToken.inputs);
  assert.equal(await signature(), accessToken.published.signature);
  const header = await id('sign-header').textContent();
  assert.ok(header.includes(`oauth_verifier="${accessToken.inputs.verifier}"`), header);
  await fillSign(rfcToken.inputs);
  assert.equal(await signature(), rfcToken.published.signature);
  assert.deepEqual(headerParams(await id('sign-header').textContent()), headerParams(rfcToken.published.header));
});

test('#24.1 sign: oauth_callback typed into the URL, oauth_verifier into the body, sign as their fields do', async () => {
  const { callback, ...rest } = requestToken.inputs;
  await fillSign({ ...rest, url: `${rest.url}?oauth_callback=${encodeURIComponent(callback)}` });
  assert.equal((await id('sign-error').textContent()).trim(), '');
  assert.equal(await signature(), requestToken.published.signature);
  // Sent once, in the header: the command's URL is without it.
  assert.ok((await id('sign-header').textContent()).includes('oauth_callback='));
  assert.ok((await id('sign-curl').textContent()).includes(`'${rest.url}'`));
  assert.equal(await page.locator('[data-testid=sign-warnings] [data-hint=lifted]').count(), 1);
  const { verifier, ...rest3 } = accessToken.inputs;
  await fillSign({ ...rest3, form_body: `oauth_verifier=${verifier}` });
  assert.equal(await signature(), accessToken.published.signature);
});

test('#24.1 explain: a request-token call is explained, and matches its published signature', async () => {
  await fillSign(requestToken.inputs);
  await id('explain-their-base-string').fill('');
  await id('explain-their-header').fill('');
  await id('explain-their-signature').fill(requestToken.published.signature);
  assert.match(await id('explain-result').textContent(), /match/);
  await id('explain-their-signature').fill('');
});

test('#24.2 explain: each cause ends in what to change (space-as-plus: %20; lowercase-hex: upper-case)', async () => {
  await fillSign(spaceAsPlus.inputs);
  await id('explain-their-signature').fill('');
  await id('explain-their-header').fill('');
  await id('explain-their-base-string').fill(spaceAsPlus.theirs.base_string);
  const plus = page.locator('[data-testid=explain-result] [data-code="space-as-plus"]');
  assert.match(await plus.getAttribute('data-fix'), /%20/);
  assert.match(await plus.textContent(), /%20/);
  await id('explain-their-base-string').fill('');
  // Their header alone, as logs print it (with its field name).
  const lower = explainCase('explain-lowercase-hex');
  await fillSign(lower.inputs);
  await id('explain-their-header').fill(`Authorization: ${lower.theirs.authorization_header}`);
  const cause = page.locator('[data-testid=explain-result] [data-code="lowercase-hex"]');
  assert.equal(await cause.count(), 1, await id('explain-result').textContent());
  assert.match(await cause.getAttribute('data-fix'), /upper-case/i);
  for (const item of await page.locator('[data-testid=explain-result] [data-code]').all()) {
    assert.ok((await item.getAttribute('data-fix')).length > 10, 'every cause has its fix');
  }
  await id('explain-their-header').fill('');
});

test('#24.2 explain: with the Sign panel empty it asks for a request, never "invalid URL at byte 0"', async () => {
  await fillSign({ method: 'GET', url: '', consumer_key: '', consumer_secret: '', signature_method: 'HMAC-SHA1', nonce: '', timestamp: '' });
  await id('explain-their-signature').fill(xSignature.published.signature);
  const said = await id('explain-result').textContent();
  assert.doesNotMatch(said, /invalid URL|byte 0/, said);
  assert.match(said, /Sign panel/);
  assert.equal(await page.locator('[data-testid=explain-result] mark').count(), 0, 'no empty highlight');
  await id('explain-their-signature').fill('');
});

test('#24.3 percent: an error empties the text box rather than leave an old decoding', async () => {
  await id('pct-mode').selectOption('strict');
  await id('pct-encoded').fill('%E2%98%83');
  assert.equal(await id('pct-text').inputValue(), '☃');
  await id('pct-encoded').fill('%E2%98%83%2G');
  const stale = (await id('pct-text').inputValue()) !== '' && (await id('pct-text').getAttribute('aria-invalid')) !== 'true';
  assert.ok(!stale, 'the text box still shows ☃');
  await id('pct-encoded').fill('ok');
});

test('#24.3 base64: an error empties the other boxes', async () => {
  await id('b64-alphabet').selectOption('standard');
  await id('b64-encoded').fill('Zm9vYmFy');
  assert.equal(await id('b64-text').inputValue(), 'foobar');
  await id('b64-encoded').fill('Zm9v!mFy');
  for (const box of ['b64-text', 'b64-hex']) {
    const stale = (await id(box).inputValue()) !== '' && (await id(box).getAttribute('aria-invalid')) !== 'true';
    assert.ok(!stale, `${box} still shows the old value`);
  }
});

test('#24.4 percent: strict mode says why + stays +', async () => {
  await id('pct-mode').selectOption('strict');
  await id('pct-encoded').fill('Hello+Ladies+%2B+Gentlemen');
  assert.equal(await id('pct-text').inputValue(), 'Hello+Ladies+++Gentlemen');
  assert.equal(await id('pct-hint').isVisible(), true);
  assert.match(await id('pct-hint').textContent(), /form/);
  await id('pct-mode').selectOption('form');
  assert.equal(await id('pct-text').inputValue(), 'Hello Ladies + Gentlemen');
  assert.equal(await id('pct-hint').isVisible(), false);
  await id('pct-mode').selectOption('strict');
  await id('pct-encoded').fill('ok');
});

test('#24.4 360 pixels wide: each decoding mode is read whole, "+ stays +" included', async () => {
  await page.setViewportSize({ width: 360, height: 800 });
  const cut = await page.evaluate(() => {
    const select = document.querySelector('[data-testid=pct-mode]');
    const style = getComputedStyle(select);
    const probe = document.createElement('span');
    probe.style.font = style.font;
    probe.style.whiteSpace = 'pre';
    document.body.append(probe);
    // Room for the text: the box less its padding, borders and the arrow.
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    const out = [...select.options].filter((o) => { probe.textContent = o.textContent; return probe.offsetWidth > room; })
      .map((o) => o.textContent);
    probe.remove();
    return out;
  });
  await page.setViewportSize({ width: 900, height: 900 });
  assert.deepEqual(cut, []);
});

test('#24.5 sign: the example button fills the X docs "Creating a signature" request', async () => {
  await fillSign({ method: 'GET', url: '', consumer_key: '', consumer_secret: '', signature_method: 'HMAC-SHA1', nonce: '', timestamp: '' });
  await id('sign-example').click();
  assert.equal(await signature(), xSignature.published.signature);
  const base = (await id('sign-base-string').textContent()).replace(/[\r\n]/g, '');
  assert.equal(base, xSignature.published.base_string);
});

test('#24.5 sign: the signing key is a stage, masked until asked; the secrets too', async () => {
  await fillSign(xSignature.inputs);
  for (const secret of ['sign-consumer-secret', 'sign-token-secret']) {
    assert.equal(await id(secret).getAttribute('type'), 'password', secret);
  }
  const key = await id('sign-signing-key').textContent();
  assert.ok(key.length > 0 && key.includes('&'), key);
  // Nowhere in the page's text while masked.
  const everything = await page.evaluate(() => document.body.innerText);
  assert.ok(!everything.includes(xSignature.inputs.consumer_secret), 'the consumer secret is shown');
  await id('sign-show-secrets').check();
  assert.equal(await id('sign-signing-key').textContent(), xSignature.published.signing_key);
  assert.equal(await id('sign-consumer-secret').getAttribute('type'), 'text');
  await id('sign-show-secrets').uncheck();
  assert.notEqual(await id('sign-signing-key').textContent(), xSignature.published.signing_key);
  // PLAINTEXT's signature is the key (oauth.net TestCases: cs&ts): masked too.
  await fillSign({ ...xSignature.inputs, consumer_secret: 'cs', token_secret: 'ts', signature_method: 'PLAINTEXT' });
  assert.ok(!(await id('sign-signature').textContent()).includes('cs&ts'));
  assert.ok(!(await id('sign-header').textContent()).includes('cs%26ts'));
  await id('sign-show-secrets').check();
  assert.equal(await signature(), vector('oauth-net-testcases-plaintext').expected.signature);
  await id('sign-show-secrets').uncheck();
});

test('#24.5 sign: the secrets can be cleared', async () => {
  await fillSign(xSignature.inputs);
  await id('sign-clear').click();
  for (const f of ['sign-consumer-key', 'sign-consumer-secret', 'sign-token', 'sign-token-secret']) {
    assert.equal(await id(f).inputValue(), '', f);
  }
});

test('#24.5 sign: the curl command runs, and sends what was signed', async () => {
  echoed.length = 0;
  // A realm with a quote: the command must quote it for the shell.
  await fillSign({ ...xSignature.inputs, url: `${origin}/__echo?include_entities=true`, realm: "it's" });
  const command = await id('sign-curl').textContent();
  // Run while this process serves the request (not execFileSync, which would block the server).
  await promisify(execFile)('bash', ['-c', `${command} --silent --show-error --max-time 10`]);
  assert.equal(echoed.length, 1);
  const got = echoed[0];
  assert.equal(got.method, 'POST');
  assert.equal(got.url, '/__echo?include_entities=true');
  assert.equal(got.body, xSignature.inputs.form_body);
  assert.equal(got.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.equal(got.headers.authorization, await id('sign-header').textContent());
  assert.ok(got.headers.authorization.startsWith('OAuth realm="it\'s"'), got.headers.authorization);
});

test('#24 sign: the oauth_ parameters sent in the query or the form body (RFC 5849 §3.5.2-3), and curl sends them there', async () => {
  const i = xSignature.inputs;
  // The X docs request's protocol parameters and published signature,
  // form-encoded in name order.
  const protocol = [['oauth_consumer_key', i.consumer_key], ['oauth_nonce', i.nonce],
    ['oauth_signature', xSignature.published.signature], ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', i.timestamp], ['oauth_token', i.token], ['oauth_version', '1.0']]
    .map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('&');
  for (const [transmission, sent] of [['form-body', `${i.form_body}&${protocol}`], ['query', `${i.url}&${protocol}`]]) {
    await fillSign({ ...i, transmission });
    assert.equal(await signature(), xSignature.published.signature, transmission);
    assert.equal(await id('sign-sent').textContent(), sent, transmission);
    assert.ok(await id('sign-sent').isVisible(), transmission);
    assert.ok(!(await id('sign-header').isVisible()), `${transmission}: no header is sent`);
    // curl sends that, and no header, to a server (the same request at this
    // page's server, so its signature is its own).
    echoed.length = 0;
    await fillSign({ ...i, url: `${origin}/__echo?include_entities=true`, transmission });
    const shown = await id('sign-sent').textContent();
    const command = await id('sign-curl').textContent();
    assert.ok(!command.includes('Authorization'), command);
    await promisify(execFile)('bash', ['-c', `${command} --silent --show-error --max-time 10`]);
    assert.equal(echoed.length, 1);
    const got = echoed[0];
    if (transmission === 'form-body') {
      assert.equal(got.body, shown);
      assert.equal(got.url, '/__echo?include_entities=true');
    } else {
      assert.equal(`${origin}${got.url}`, shown);
      assert.equal(got.body, i.form_body);
    }
    assert.equal(got.headers.authorization, undefined, transmission);
  }
  await id('sign-transmission').selectOption('header');
  assert.ok(await id('sign-header').isVisible());
  assert.ok(!(await id('sign-sent').isVisible()));
});

test('#24.5 sign: an empty key or secret and a timestamp in milliseconds are warned of', async () => {
  await fillSign({ ...xSignature.inputs, consumer_key: '', consumer_secret: '', timestamp: `${xSignature.inputs.timestamp}000` });
  const hints = await page.locator('[data-testid=sign-warnings] [data-hint]').evaluateAll((els) => els.map((e) => e.dataset.hint));
  for (const h of ['empty-consumer-key', 'empty-consumer-secret', 'timestamp-ms']) assert.ok(hints.includes(h), hints.join(' '));
  assert.match(await id('sign-warnings').textContent(), new RegExp(`\\b${xSignature.inputs.timestamp}\\b`));
  await fillSign(xSignature.inputs);
  assert.equal(await page.locator('[data-testid=sign-warnings] [data-hint]').count(), 0);
});

test('#24.6 base64: a signature as a header carries it (percent-encoded) is read, with a hint', async () => {
  const sig = xSignature.published.signature;
  await id('b64-alphabet').selectOption('standard');
  await id('b64-encoded').fill(encodeURIComponent(sig));
  assert.equal(await id('b64-hex').inputValue(), Buffer.from(sig, 'base64').toString('hex').match(/../g).join(' '));
  assert.equal(await id('b64-hint').isVisible(), true);
  assert.ok((await id('b64-hint').textContent()).includes(sig));
});

test('#24.6 base64: wrapped Base64 is read; URL-safe text in standard mode names the other alphabet', async () => {
  // RFC 4648 §10 "foobar", wrapped over two lines.
  await id('b64-alphabet').selectOption('standard');
  await id('b64-encoded').fill('Zm9v\nYmFy');
  assert.equal(await id('b64-text').inputValue(), 'foobar');
  // "-_8=" is fb ff in the URL-safe alphabet (RFC 4648 §5).
  await id('b64-encoded').fill('-_8=');
  assert.equal(await id('b64-hint').isVisible(), true);
  assert.match(await id('b64-hint').textContent(), /URL-safe/);
  await id('b64-hint').locator('button').click();
  assert.equal(await id('b64-alphabet').inputValue(), 'url');
  assert.equal(await id('b64-hex').inputValue(), Buffer.from('-_8=', 'base64url').toString('hex').match(/../g).join(' '));
  await id('b64-alphabet').selectOption('standard');
});

test('#24.7 opened from disk, the page says to serve the folder', async () => {
  const disk = await context.newPage();
  try {
    await disk.goto(`file://${path.join(dist, 'index.html')}`);
    const status = disk.getByTestId('load-status');
    await status.waitFor({ state: 'visible', timeout: 5000 });
    await disk.waitForFunction(() => /http\.server/.test(document.querySelector('[data-testid=load-status]')?.textContent ?? ''), null, { timeout: 5000 });
  } finally {
    await disk.close();
  }
  // Served, it says nothing once loaded.
  assert.equal(await id('load-status').isVisible(), false);
});

test('#42.5 opened from disk by a Turkish reader, the box says it in English, as the page is, and in Turkish', async () => {
  const disk = await context.newPage();
  try {
    await disk.addInitScript(() => {
      Object.defineProperty(navigator, 'languages', { get: () => ['tr-TR', 'tr'] });
      Object.defineProperty(navigator, 'language', { get: () => 'tr-TR' });
    });
    await disk.goto(`file://${path.join(dist, 'index.html')}`);
    await disk.waitForFunction(() => /http\.server/.test(document.querySelector('[data-testid=load-status]')?.textContent ?? ''), null, { timeout: 5000 });
    const parts = await disk.getByTestId('load-status').locator('span[lang]').evaluateAll(
      (spans) => spans.map((s) => [s.lang, s.textContent]));
    assert.deepEqual(parts.map(([l]) => l), ['en', 'tr'], JSON.stringify(parts));
    assert.equal(await disk.evaluate(() => document.documentElement.lang), 'en', 'the page around it is English');
    assert.match(parts[0][1], /opened from a file/);
    assert.match(parts[1][1], /dosyadan açıldı/);
    // The box itself claims no language the page does not have.
    assert.equal(await disk.getByTestId('load-status').getAttribute('lang'), null);
  } finally {
    await disk.close();
  }
});

// 64 KiB of mixed text: ASCII, Hindi, Turkish, a snowman and an emoji.
function mixed(bytes) {
  const piece = 'Hello, world & friends! नमस्ते दुनिया — Günaydın, Işık ılık süt iç ☃ 😀\n';
  let out = '';
  while (Buffer.byteLength(out) + Buffer.byteLength(piece) <= bytes) out += piece;
  return out + 'x'.repeat(bytes - Buffer.byteLength(out));
}

// Keystrokes at the end of `box`, each timed from the key event to the first
// frame after it (requestAnimationFrame, then a task: the frame has painted),
// and, if `settled` is given (a page function of the key), to when it holds.
async function keystrokes(box, keys, settled) {
  await box.focus();
  await page.keyboard.press('Control+End');
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 20))));
  await page.evaluate(() => {
    window.__strokes = [];
    if (window.__timing) return;
    window.__timing = true;
    document.addEventListener('keydown', (e) => {
      const start = e.timeStamp;
      requestAnimationFrame(() => setTimeout(() => window.__strokes.push(performance.now() - start)));
      window.__start = start;
    }, { capture: true });
  });
  const settledAfter = [];
  for (const k of keys) {
    await page.keyboard.press(k);
    if (settled) {
      await page.waitForFunction(settled, k, { polling: 'raf' });
      settledAfter.push(await page.evaluate(() => performance.now() - window.__start));
    }
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 20))));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const times = await page.evaluate(() => window.__strokes);
  return {
    median: median(times), max: Math.max(...times), count: times.length,
    settled: settledAfter.length ? median(settledAfter) : null,
  };
}

test('#24.8 64 KiB: typing at the end keeps the views bounded; the keystroke median is measured', async () => {
  const big = mixed(64 * 1024);
  await id('pct-text').fill(big);
  // RFC 5849 §3.6 is encodeURIComponent with ! ' ( ) * encoded too.
  const strict = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  await page.waitForFunction((n) => document.querySelector('[data-testid=pct-encoded]').value.length === n, strict(big).length);
  assert.equal(await id('pct-encoded').inputValue(), strict(big));
  const keys = 'abcdefghijklmnopqrst'.split('');
  const t = await keystrokes(id('pct-text'), keys,
    (k) => document.querySelector('[data-testid=pct-encoded]').value.endsWith(k));
  console.log(`# 64 KiB, Percent panel: ${t.count} keystrokes shown after a median ${t.median.toFixed(1)} ms ` +
    `(max ${t.max.toFixed(1)} ms); the encoded box updated after a median ${t.settled.toFixed(1)} ms`);
  assert.equal(t.count, keys.length);
  assert.equal(await id('pct-encoded').inputValue(), strict(big + keys.join('')));
  // What is laid out stays bounded, whatever the length.
  const rows = await page.locator('[data-testid=pct-table] tbody tr').count();
  assert.ok(rows > 0 && rows <= 64, `${rows} table rows`);
  assert.ok((await id('pct-bytes').textContent()).length < 400);
  // The last character typed is in the table.
  const last = await page.locator('[data-testid=pct-table] tbody tr').last().locator('td').first().textContent();
  assert.equal(last, 't');
  // 64 KiB of binary: the hex dump lays out the lines in view, and scrolls to the end.
  await id('pct-encoded').fill('%FF'.repeat(64 * 1024));
  const lineCount = async () => (await id('pct-hex').textContent()).split('\n').filter(Boolean).length;
  assert.ok((await lineCount()) <= 20, `${await lineCount()} dump lines laid out`);
  await id('pct-hex').evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await page.waitForFunction(() => document.querySelector('[data-testid=pct-hex]').textContent.includes('0000fff0'));
  assert.ok((await lineCount()) <= 20);
  await id('b64-text').fill(big);
  const b = await keystrokes(id('b64-text'), keys,
    (k) => document.querySelector('[data-testid=b64-hex]').value.endsWith(k.charCodeAt(0).toString(16)));
  console.log(`# 64 KiB, Base64 panel: ${b.count} keystrokes shown after a median ${b.median.toFixed(1)} ms ` +
    `(max ${b.max.toFixed(1)} ms); the hex and Base64 boxes updated after a median ${b.settled.toFixed(1)} ms`);
  await id('pct-encoded').fill('ok');
  await id('b64-text').fill('foobar');
});

// Issue 33 item 9: typing at the end of 64 and 256 KiB in the Percent panel,
// and the page loaded under 4× CPU throttling. Printed as benchmark figures
// (targets: the encoded box updated ≤ 50 ms at 64 KiB, ≤ 150 ms at 256 KiB;
// ready ≤ 1 s at 4×), never asserted as times: the machine is shared.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

async function percentTyping(kib) {
  const big = mixed(kib * 1024);
  await id('pct-mode').selectOption('strict');
  // Pasted (Playwright's fill types 256 KiB for over 30 s).
  await id('pct-text').evaluate((box, v) => {
    box.value = v;
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }, big);
  const strict = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  await page.waitForFunction((n) => document.querySelector('[data-testid=pct-encoded]').value.length === n, strict(big).length);
  const keys = 'abcdefg'.split('');
  const parts = { 'pct:encode': [], 'pct:table': [], 'box:pct-encoded': [] };
  const t = await keystrokes(id('pct-text'), keys,
    (k) => document.querySelector('[data-testid=pct-encoded]').value.endsWith(k));
  // The split of the last keystrokes: what each step took (User Timing).
  for (const k of 'hijklmn') {
    await page.keyboard.press(k);
    await page.waitForFunction((c) => document.querySelector('[data-testid=pct-encoded]').value.endsWith(c), k, { polling: 'raf' });
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 20))));
    const m = await page.evaluate(() => ({ ...globalThis.pageTimings }));
    for (const name of Object.keys(parts)) if (m[name] !== undefined) parts[name].push(m[name]);
  }
  assert.equal(await id('pct-encoded').inputValue(), strict(big + 'abcdefghijklmn'));
  const split = Object.entries(parts).map(([n, xs]) => `${n} ${xs.length ? ms(median(xs)) : '-'}`).join(', ');
  console.log(`# bench #33.9 Percent panel at ${kib} KiB: keystroke shown after a median ${ms(t.median)}, ` +
    `the encoded box updated after a median ${ms(t.settled)} (of ${t.count}); split: ${split}`);
  return t;
}

test('#33.9 typing at 64 and 256 KiB in the Percent panel, and the page ready at 4× CPU throttling (benchmark output)', async () => {
  for (const kib of [64, 256]) {
    const t = await percentTyping(kib);
    assert.equal(t.count, 7);
  }
  await id('pct-text').fill('ok');
  // The page loaded afresh (no cache) with the CPU slowed 4×: from the
  // navigation's start to the page's ready (its own clock), median of 3. In
  // a browser of its own: this context's clock is pinned (page.clock).
  const readies = [];
  const walls = [];
  const splits = [];
  const fresh = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    for (let i = 0; i < 3; i += 1) {
      const slow = await (await fresh.newContext()).newPage();
      const cdp = await slow.context().newCDPSession(slow);
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const start = Date.now();
      await slow.goto(`${origin}/`);
      await slow.waitForSelector('body[data-ready=true]', { timeout: 30000 });
      walls.push(Date.now() - start);
      const t = await slow.evaluate(() => ({ ...globalThis.pageTimings }));
      readies.push(t.ready);
      splits.push(t);
      await slow.context().close();
    }
  } finally {
    await fresh.close();
  }
  console.log(`# bench #33.9 page ready at 4× CPU throttling, cache disabled: median ${ms(median(readies))} ` +
    `(${readies.map(ms).join(', ')}); seen by the test from goto: median ${ms(median(walls))}; ` +
    `split (median): app.js started ${ms(median(splits.map((t) => t.start)))}, WebAssembly ready ` +
    `${ms(median(splits.map((t) => t.wasm)))}, first render of the panels ${ms(median(splits.map((t) => t['load:render'])))}`);
  assert.equal(readies.length, 3);
});

async function axe(label) {
  if (!(await page.evaluate(() => typeof window.axe))) throw new Error('no axe');
  const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('#24.9 axe-core: no serious or critical violation, in light and in dark', async () => {
  await page.addScriptTag({ url: '/__axe.js' });
  const found = [];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await fillSign(xSignature.inputs);
    await id('pct-encoded').fill('%FF%FE');
    found.push(...await axe(`${scheme}, binary`));
    await id('pct-encoded').fill('abc%2Gdef');
    await id('explain-their-base-string').fill(spaceAsPlus.theirs.base_string);
    await id('b64-encoded').fill('-_8=');
    found.push(...await axe(`${scheme}, errors and hints`));
    await id('explain-their-base-string').fill('');
    await id('pct-encoded').fill('ok');
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(found, []);
});

test('#24.9 dark mode follows the system setting', async () => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await background();
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await background();
  const lum = (rgb) => rgb.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0);
  assert.ok(lum(dark) < 150 && lum(light) > 600, `${dark} / ${light}`);
});

test('#24.9 a copy button that says Copied is named Copied', async () => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await fillSign(xSignature.inputs);
  const button = page.locator('button[data-copy=sign-signature]');
  await button.click();
  // The clipboard answers asynchronously.
  await page.waitForFunction(() => /Copied/.test(document.querySelector('button[data-copy=sign-signature]').textContent));
  assert.equal(await page.getByRole('button', { name: /Copied/ }).count(), 1, 'its accessible name says Copied');
});

test('#24.9 an escape being typed is announced once the typing stops, not at each keystroke', async () => {
  await id('pct-encoded').fill('');
  await page.evaluate(() => {
    window.__said = [];
    const live = [...document.querySelectorAll('[role=alert], [role=status], [aria-live]')]
      .filter((el) => el.getAttribute('aria-live') !== 'off');
    for (const el of live) {
      new MutationObserver(() => {
        if (el.textContent.trim() && el.checkVisibility({ visibilityProperty: true }) !== false && !el.hidden) {
          window.__said.push(el.textContent.trim());
        }
      }).observe(el, { childList: true, subtree: true, characterData: true });
    }
  });
  await id('pct-encoded').focus();
  await page.keyboard.type('abc%2Gdef', { delay: 60 });
  await page.waitForTimeout(1500);
  const said = await page.evaluate(() => [...new Set(window.__said)]);
  assert.ok(said.length <= 1, `announced: ${said.join(' | ')}`);
  assert.ok(said.length === 1 && /\b3\b/.test(said[0]), `the error is said once: ${said.join(' | ')}`);
  await id('pct-encoded').fill('ok');
});

test('#42.5 an error fixed is not announced afterwards, nor left in the live region', async () => {
  const region = async () => (await page.locator('#announce').textContent()).trim();
  // Percent: an error said once the typing pauses, then fixed.
  await id('pct-encoded').fill('');
  await id('pct-encoded').focus();
  await page.keyboard.type('abc%2G', { delay: 20 });
  await page.waitForFunction(() => document.getElementById('announce').textContent.trim() !== '');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('F');
  assert.equal(await region(), '', 'the fixed error is gone from the live region');
  // Sign: an error fixed before the pause is never said.
  await fillSign(xSignature.inputs);
  await page.evaluate(() => {
    window.__said42 = [];
    const box = document.getElementById('announce');
    new MutationObserver(() => {
      if (box.textContent.trim()) window.__said42.push(box.textContent.trim());
    }).observe(box, { childList: true, subtree: true, characterData: true });
  });
  await id('sign-url').fill('https://api.x.com/1.1/x.json?a=%2G');
  await id('sign-url').fill(xSignature.inputs.url);
  await page.waitForTimeout(1500);
  assert.deepEqual(await page.evaluate(() => window.__said42), [], 'nothing said of an error already fixed');
  assert.equal(await region(), '');
  await id('pct-encoded').fill('ok');
});

test('#24.10 the interface reads in Hindi and in Turkish; the data is never translated', async () => {
  await fillSign(xSignature.inputs);
  await id('pct-text').fill('नमस्ते');
  const encoded = await id('pct-encoded').inputValue();
  const labelOf = (f) => page.locator(`label[for=${f}]`).textContent();
  for (const [code, text] of [['hi', 'टेक्स्ट'], ['tr', 'Metin']]) {
    await id('ui-lang').selectOption(code);
    assert.equal(await page.evaluate(() => document.documentElement.lang), code);
    assert.equal(await labelOf('pct-text'), text);
    assert.equal(await id('pct-encoded').inputValue(), encoded, 'the data stays as it is');
    assert.equal(await signature(), xSignature.published.signature);
    await shot('percent', `web-percent-${code}`);
  }
  // Every message of the interface has both translations, every cause's fix too.
  const codes = [...fs.readFileSync(path.join(root, 'src', 'explain', 'catalogue', 'mod.rs'), 'utf8')
    .matchAll(/^\s+[A-Z]\w+ = "([a-z-]+)"/gm)].map((m) => m[1]);
  assert.ok(codes.length > 30, codes.join(' '));
  // The meaning of each answer the library reads, by its key; each capture
  // warning the page words.
  const meanings = [...fs.readFileSync(path.join(root, 'src', 'capture', 'answer.rs'), 'utf8')
    .matchAll(/"((?:x|problem)-[a-z0-9_-]+)"/g)].map((m) => `answer.${m[1]}.meaning`);
  assert.ok(meanings.length >= 30, meanings.join(' '));
  const warnings = [...fs.readFileSync(path.join(root, 'web', 'src', 'say.rs'), 'utf8')
    .matchAll(/"(cwarn\.[a-z0-9-]+)"/g)].map((m) => m[1]);
  assert.ok(warnings.length >= 17, warnings.join(' '));
  const missing = await page.evaluate(async (keysOf) => {
    const { MESSAGES } = await import('./i18n.js');
    const keys = [...Object.keys(MESSAGES.en), ...keysOf];
    return ['hi', 'tr'].flatMap((l) => keys.filter((k) => !(k in MESSAGES[l])).map((k) => `${l}:${k}`));
  }, [...codes.map((c) => `fix.${c}`), ...meanings, ...warnings]);
  assert.deepEqual(missing, []);
  await id('ui-lang').selectOption('en');
});

test('#42.1 the Base64 panel\'s labels say what they are, in every language, whatever the value', async () => {
  const padLabel = () => page.locator('label[for=b64-padding]').textContent();
  const lengthLabel = () => page.locator('#b64-length').locator('xpath=preceding-sibling::span[1]').textContent();
  const labels = { en: ['pad with =', 'Length:'], hi: ['= से पैडिंग करें', 'लंबाई:'], tr: ['= ile doldur', 'Uzunluk:'] };
  for (const [code, [pad, length]] of Object.entries(labels)) {
    await id('ui-lang').selectOption(code);
    // A valid value (RFC 4648 §10: BASE64("foobar") = "Zm9vYmFy") and one cut
    // short: the labels read the same under both; only the error changes.
    for (const value of ['Zm9vYmFy', 'Zm9vY']) {
      await id('b64-encoded').fill(value);
      assert.equal((await padLabel()).trim(), pad, `${code}, ${value}: the padding checkbox's label`);
      assert.equal((await lengthLabel()).trim(), length, `${code}, ${value}: the length line's label`);
    }
  }
  await id('ui-lang').selectOption('en');
  await id('b64-encoded').fill('Zm9vYmFy');
  assert.equal(await id('b64-length').textContent(), '6 bytes');
  await id('b64-encoded').fill('');
});

// Issue 42.4: the first download within 300 KB gzipped; what only a
// capture or an RSA key needs comes when first used.
test('#42.4 the first download is within 300 KB gzipped, and the full module comes with the first capture or RSA key', async () => {
  const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  const first = gz('pkg/oauth1_web_bg.wasm');
  console.log(`# size #42.4 first download's .wasm: ${first} bytes gzipped; the full module's ${gz('pkg-full/oauth1_web_bg.wasm')}`);
  assert.ok(first <= 300 * 1000, `the first download's .wasm is ${first} bytes gzipped`);
  const fresh = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    for (const use of ['capture', 'rsa']) {
      const ctx = await fresh.newContext();
      const seen = [];
      ctx.on('request', (r) => seen.push(new URL(r.url()).pathname));
      const p = await ctx.newPage();
      const pageErrors = [];
      p.on('pageerror', (e) => pageErrors.push(String(e)));
      await p.goto(`${origin}/`);
      await p.waitForSelector('body[data-ready=true]', { timeout: 30000 });
      assert.ok(seen.includes('/pkg/oauth1_web_bg.wasm'), seen.join(' '));
      assert.ok(!seen.some((u) => u.startsWith('/pkg-full/')), `nothing of the full module before its first use: ${seen.join(' ')}`);
      const v = (name) => p.getByTestId(name);
      if (use === 'capture') {
        // A capture written by oauthlib with one known mistake (fixtures/captures/generators.json).
        const c = captureCase('chromium-cmd-space-as-plus');
        await v('sign-consumer-secret').fill(c.credentials.consumer_secret);
        await v('sign-token-secret').fill(c.credentials.token_secret);
        await v('explain-capture-kind').selectOption(c.format);
        await v('explain-capture').fill(c.text);
        await p.waitForSelector('[data-testid=explain-result] li[data-code]', { timeout: 30000 });
        const codes = await p.locator('[data-testid=explain-result] li[data-code]').evaluateAll((lis) => lis.map((li) => li.dataset.code));
        assert.ok(codes.includes(c.mistake), `${c.mistake} not in ${codes}`);
      } else {
        // oauthlib's client test of RSA-SHA1 (RFC 5849 §3.4.3), its key and signature as published.
        const rsa = vector('oauthlib-client-rsa-sha1');
        for (const [field, value] of [['sign-method', rsa.inputs.method], ['sign-url', rsa.inputs.url],
          ['sign-consumer-key', rsa.inputs.consumer_key], ['sign-nonce', rsa.inputs.nonce],
          ['sign-timestamp', rsa.inputs.timestamp], ['sign-private-key', rsa.inputs.rsa_private_key]]) await v(field).fill(value);
        await v('sign-signature-method').selectOption(rsa.inputs.signature_method);
        await p.waitForFunction((sig) => document.querySelector('[data-testid=sign-signature]')?.textContent.includes(sig),
          rsa.expected.signature, { timeout: 30000 });
      }
      assert.ok(seen.includes('/pkg-full/oauth1_web_bg.wasm'), `${use}: the full module, once used: ${seen.join(' ')}`);
      assert.deepEqual(pageErrors, []);
      await ctx.close();
    }
  } finally {
    await fresh.close();
  }
});

test('#24.10 the language is remembered only when asked', async () => {
  const kept = () => page.evaluate(() => ({ ...localStorage }));
  await id('ui-lang').selectOption('tr');
  assert.deepEqual(await kept(), {});
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await id('ui-lang').inputValue(), 'en');
  await id('ui-lang').selectOption('tr');
  await id('ui-lang-remember').check();
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await id('ui-lang').inputValue(), 'tr');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'tr');
  await id('ui-lang-remember').uncheck();
  assert.deepEqual(await kept(), {});
  await id('ui-lang').selectOption('en');
  await fullModule();
});

// Issue 42.3: what holds no secret is kept for the tab's life
// (sessionStorage) and carried by a link's fragment; a secret never is.
test('#42.3 a reload keeps what holds no secret, a link carries it to a fresh browser, and a secret is in neither', async () => {
  const x = xSignature.inputs;
  await fillSign(x);
  // The X docs' percent-encoding example ("Ladies + Gentlemen"), and RFC 4648 §10's BASE64("foobar").
  await id('pct-text').fill('Ladies + Gentlemen');
  await id('b64-text').fill('foobar');
  await id('explain-their-base-string').fill('GET&https%3A%2F%2Fapi.x.com%2F&a%3D1');
  // Kept once the typing pauses: wait for it, not for a time.
  await page.waitForFunction(() => (sessionStorage.getItem('oauth1-web.state') ?? '').includes('foobar'));
  await page.waitForFunction(() => document.getElementById('share-link').value.includes('#s='));
  const link = await id('share-link').inputValue();
  const carried = Buffer.from(new URL(link).hash.slice('#s='.length), 'base64url').toString('utf8');
  const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
  for (const secret of [x.consumer_secret, x.token_secret]) {
    assert.ok(!stored.includes(secret), 'no secret in storage');
    assert.ok(!carried.includes(secret) && !link.includes(secret), 'no secret in the link');
  }
  assert.ok(carried.includes(x.url) && stored.includes(x.url));
  const expectShown = async (p) => {
    const v = (name) => p.getByTestId(name).inputValue();
    assert.equal(await v('sign-url'), x.url);
    assert.equal(await v('sign-method'), x.method);
    assert.equal(await v('sign-consumer-key'), x.consumer_key);
    assert.equal(await v('sign-token'), x.token);
    assert.equal(await v('sign-body'), x.form_body);
    assert.equal(await v('sign-consumer-secret'), '', 'a secret is typed again');
    assert.equal(await v('sign-token-secret'), '');
    assert.equal(await v('pct-encoded'), 'Ladies%20%2B%20Gentlemen');
    assert.equal(await v('b64-encoded'), 'Zm9vYmFy');
    assert.equal(await v('explain-their-base-string'), 'GET&https%3A%2F%2Fapi.x.com%2F&a%3D1');
  };
  await page.reload();
  await page.waitForSelector('body[data-ready=true]');
  await expectShown(page);
  await fullModule();
  // The link, in a browser that has stored nothing.
  const fresh = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const other = await (await fresh.newContext()).newPage();
    await other.goto(link);
    await other.waitForSelector('body[data-ready=true]', { timeout: 30000 });
    await expectShown(other);
    assert.ok(!other.url().includes('#s='), 'the link\'s state is taken off the address once read');
    // A link is untrusted: it sets only the fields the page keeps.
    const crafted = { v: 1, fields: { 'sign-consumer-secret': 'planted', 'sign-url': 'https://api.x.com/2/users/me' } };
    await other.goto('about:blank');
    await other.goto(`${origin}/#s=${Buffer.from(JSON.stringify(crafted)).toString('base64url')}`);
    await other.waitForSelector('body[data-ready=true]', { timeout: 30000 });
    assert.equal(await other.getByTestId('sign-url').inputValue(), 'https://api.x.com/2/users/me');
    assert.equal(await other.getByTestId('sign-consumer-secret').inputValue(), '');
  } finally {
    await fresh.close();
  }
  await id('pct-text').fill('');
  await id('b64-text').fill('');
  await id('explain-their-base-string').fill('');
});

test('#24.10 percent: each character\'s UTF-8 bytes and escapes; a decomposed é is named', async () => {
  await id('pct-text').fill('नमस्ते');
  const rows = await page.locator('[data-testid=pct-table] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  const chars = [...'नमस्ते'];
  assert.equal(rows.length, chars.length);
  chars.forEach((c, i) => {
    assert.equal(rows[i][1], `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
    assert.equal(rows[i][2], Buffer.from(c).toString('hex').match(/../g).join(' '));
    assert.equal(rows[i][3], encodeURIComponent(c));
  });
  // é decomposed (NFD) against composed (NFC).
  await id('pct-text').fill('Cafe\u0301');
  assert.equal(await id('pct-encoded').inputValue(), encodeURIComponent('Cafe\u0301'));
  assert.equal(await id('pct-hint').isVisible(), true);
  const hint = await id('pct-hint').textContent();
  assert.ok(hint.includes(encodeURIComponent('e\u0301')) && hint.includes(encodeURIComponent('é')), hint);
  await id('pct-text').fill('ok');
});

test('#24 screenshots: the new panels, a phone, dark mode', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await id('sign-example').click();
  await id('sign-show-secrets').uncheck();
  await shot('sign', 'web-sign');
  await id('pct-text').fill('नमस्ते Café');
  await shot('percent', 'web-percent-table');
  await id('explain-their-base-string').fill(spaceAsPlus.theirs.base_string);
  await shot('explain', 'web-explain');
  await id('explain-their-base-string').fill('');
  await id('b64-alphabet').selectOption('standard');
  await id('b64-encoded').fill(encodeURIComponent(xSignature.published.signature));
  await shot('base64', 'web-base64');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot('sign', 'web-sign-dark');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(shots, 'web-360-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 900, height: 900 });
  await id('pct-text').fill('ok');
});

// Issue 33 -------------------------------------------------------------------

// A request to the loopback provider, signed with its credentials, a fresh
// nonce and the real clock (the page's is pinned to 2011).
const atProvider = (inputs) => ({
  method: 'GET', signature_method: 'HMAC-SHA1', nonce: '', timestamp: now(), version: '1.0',
  ...PROVIDER, ...inputs, url: `${provider.base}${inputs.path}`,
});

test('#33.1 sign: every curl command sends what was signed: dot segments, the three transmissions, HEAD', async () => {
  // curl resolves /a/../b/./c to /b/c unless told not to; the page signs the path as typed.
  await fillSign(atProvider({ path: '/2/a/../b/./c?x=1' }));
  const got = await assertVerified('dot segments');
  assert.equal(got.path, '/2/a/../b/./c');
  assert.deepEqual(got.query, [['x', '1']]);
  for (const transmission of ['header', 'query', 'form-body']) {
    await fillSign(atProvider({ method: 'POST', path: '/1.1/statuses/update.json?include_entities=true',
      form_body: xSignature.inputs.form_body, transmission }));
    const answer = await assertVerified(transmission);
    assert.deepEqual(answer.form.filter(([n]) => !n.startsWith('oauth_')),
      [['status', 'Hello Ladies + Gentlemen, a signed OAuth request!']], transmission);
  }
  await fillSign(atProvider({ method: 'HEAD', path: '/2/users/me' }));
  assert.match(await id('sign-curl').textContent(), /^curl -I /);
  await assertVerified('HEAD');
  await fillSign(atProvider({ method: 'DELETE', path: '/2/tweets/1' }));
  await assertVerified('DELETE');
});

// The collected parameters as the page lists them, [name, value] each.
const collected = () => page.locator('[data-testid=sign-params] tbody tr').evaluateAll((trs) =>
  trs.map((tr) => [tr.cells[1].textContent, tr.cells[2].textContent]));

test('#33.2 sign: X API v2\'s JSON body is sent as application/json and not signed; other bytes with their media type and body hash', async () => {
  // X API v2, "Create or Edit Post": POST /2/tweets with {"text": ...}.
  const tweet = JSON.stringify({ text: 'Hello Ladies + Gentlemen, a signed OAuth request!' });
  await fillSign(atProvider({ method: 'POST', path: '/2/tweets', body_type: 'json', body: tweet }));
  assert.equal((await id('sign-error').textContent()).trim(), '');
  assert.ok(!(await collected()).some(([n]) => n === 'text' || n.startsWith('{')), 'the JSON is not signed');
  assert.match(await id('sign-curl').textContent(), /-H 'Content-Type: application\/json' \\\n {2}--data-raw '\{"text"/);
  assert.equal(await page.locator('[data-testid=sign-warnings] li').count(), 0);
  const answer = await assertVerified('a JSON body');
  assert.deepEqual(answer.json, JSON.parse(tweet));
  // The body hash extension's example (draft-eaton-oauth-bodyhash-00,
  // Appendix A; fixtures/body_hash.json), and Node's own SHA-1 of it.
  const hello = fixture('body_hash.json').vectors.find((v) => v.id === 'bodyhash-draft-hello-world-sha1');
  assert.equal(crypto.createHash('sha1').update(hello.inputs.body).digest('base64'), hello.expected.hash);
  await fillSign(atProvider({ method: 'PUT', path: '/2/notes/1', body_type: 'bytes', content_type: 'text/plain',
    body: hello.inputs.body, body_hash: 'unless-form', body_hash_algorithm: 'sha1' }));
  assert.ok((await collected()).some(([n, v]) => n === 'oauth_body_hash' && v === hello.expected.hash), JSON.stringify(await collected()));
  assert.match(await id('sign-curl').textContent(), /-H 'Content-Type: text\/plain'/);
  await assertVerified('bytes with a body hash');
  // The hash follows the method: SHA-256 for HMAC-SHA256 (Node's, again).
  await fillSign(atProvider({ method: 'PUT', path: '/2/notes/1', body_type: 'bytes', content_type: 'text/plain',
    body: hello.inputs.body, body_hash: 'unless-form', signature_method: 'HMAC-SHA256' }));
  const sha256 = crypto.createHash('sha256').update(hello.inputs.body).digest('base64');
  assert.ok((await collected()).some(([n, v]) => n === 'oauth_body_hash' && v === sha256));
  await assertVerified('HMAC-SHA256 with a SHA-256 body hash');
  // Never on a form body: its parameters are signed.
  await fillSign(atProvider({ method: 'POST', path: '/2/notes', form_body: 'a=1', body_hash: 'unless-form' }));
  assert.ok(!(await collected()).some(([n]) => n === 'oauth_body_hash'));
});

test('#33.2 explain: knowing the body is JSON, a base string that signs it is body-signed, not param-extra', async () => {
  const c = explainCase('explain-body-signed');
  await fillSign({ ...c.inputs, body_type: 'json', body: c.unsigned_body });
  await id('explain-their-signature').fill('');
  await id('explain-their-header').fill('');
  await id('explain-their-base-string').fill(c.theirs.base_string);
  const codes = await page.locator('[data-testid=explain-result] [data-code]').evaluateAll((els) => els.map((e) => e.dataset.code));
  assert.deepEqual(codes, ['body-signed']);
  // Their signature alone: the search finds it too.
  await id('explain-their-base-string').fill('');
  await id('explain-their-signature').fill(c.theirs.signature);
  assert.equal(await page.locator('[data-testid=explain-result] [data-code="body-signed"]').count(), 1);
  await id('explain-their-signature').fill('');
});

// The providers' own clients (tests/peers/providers_peer.py): one JSON
// request per line in, one answer per line out.
async function providersPeer(requests) {
  const child = spawn('python3', [path.join(root, 'tests', 'peers', 'providers_peer.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  const done = new Promise((ok) => child.on('exit', ok));
  child.stdin.end(requests.map((r) => JSON.stringify(r)).join('\n'));
  assert.equal(await done, 0);
  return out.trim().split('\n').map((l) => JSON.parse(l));
}

const keyFile = (name) => fs.readFileSync(path.join(root, 'fixtures', 'keys', name), 'utf8');
// oauthlib's PKCS#1 test key: the loopback provider has its public key.
const RSA_KEY = keyFile('oauthlib_tests_rsa_pkcs1.pem');

test('#33.3 sign: RSA-SHA1 and RSA-SHA256 with a pasted PEM key, masked like the other secrets', async () => {
  // The oauth.net TestCases RSA-SHA1 vector (a PKCS#8 key) and oauthlib's client test (PKCS#1).
  for (const v of [vector('oauth-net-testcases-rsa-sha1'), vector('oauthlib-client-rsa-sha1')]) {
    await fillSign(v.inputs);
    assert.equal((await id('sign-error').textContent()).trim(), '', v.id);
    assert.equal(await signature(), v.published?.signature ?? v.expected.signature, v.id);
  }
  // No signing key is made of the secrets: the stage says so.
  assert.notEqual((await id('sign-signing-key').textContent()).trim(), '');
  // The key is drawn as discs until asked, and is in no text of the page.
  const security = () => id('sign-private-key').evaluate((el) => getComputedStyle(el).webkitTextSecurity);
  assert.equal(await security(), 'disc');
  assert.ok(!(await page.evaluate(() => document.body.innerText)).includes('MII'));
  await id('sign-show-secrets').check();
  assert.equal(await security(), 'none');
  await id('sign-show-secrets').uncheck();
  // Each method verified by oauthlib, with the public key of the key pasted.
  for (const method of ['RSA-SHA1', 'RSA-SHA256']) {
    await fillSign(atProvider({ path: '/2/users/me', signature_method: method, rsa_private_key: RSA_KEY }));
    await assertVerified(method);
  }
  // A key that is not one: said in its field, and no key text in the message.
  await fillSign(atProvider({ path: '/2/users/me', signature_method: 'RSA-SHA256',
    rsa_private_key: RSA_KEY.replace(/^M/m, '!') }));
  assert.equal(await id('sign-private-key').getAttribute('aria-invalid'), 'true');
  assert.ok(!(await id('sign-error').textContent()).includes('MII'));
  await id('sign-private-key').fill('');
  assert.equal(await id('sign-private-key').getAttribute('aria-invalid'), 'true', 'an RSA method without a key');
  await id('sign-clear').click();
  assert.equal(await id('sign-private-key').inputValue(), '');
});

// Each provider's settings as docs/providers.md tables them (each row from
// the provider's documentation or its users' client library): method,
// transmission, body hash, oauth_version.
const PROFILES = {
  rfc5849: ['HMAC-SHA1', 'header', 'never', true],
  x: ['HMAC-SHA1', 'header', 'never', true],
  netsuite: ['HMAC-SHA256', 'header', 'never', true],
  woocommerce: ['HMAC-SHA256', 'query', 'never', false],
  mastercard: ['RSA-SHA256', 'header', 'always', true],
  lti: ['HMAC-SHA1', 'form-body', 'unless-form', true],
  'jira-dc': ['RSA-SHA1', 'header', 'never', true],
  magento: ['HMAC-SHA256', 'header', 'never', true],
  etrade: ['HMAC-SHA1', 'header', 'never', true],
  trello: ['HMAC-SHA1', 'header', 'never', true],
  garmin: ['HMAC-SHA1', 'header', 'never', true],
  flickr: ['HMAC-SHA1', 'header', 'never', true],
  discogs: ['PLAINTEXT', 'header', 'never', true],
};

const settings = async () => [await id('sign-signature-method').inputValue(), await id('sign-transmission').inputValue(),
  await id('sign-body-hash').inputValue(), await id('sign-version').isChecked()];

test('#33.3 sign: the provider select holds the library\'s providers; each profile sets its settings and signs as oauthlib verifies', async () => {
  // The names as `oauth1 --provider` takes them: Provider::as_str.
  const names = [...fs.readFileSync(path.join(root, 'src', 'provider', 'profile.rs'), 'utf8')
    .matchAll(/^\s+Provider::\w+ => "([a-z0-9-]+)",$/gm)].map((m) => m[1]);
  assert.deepEqual(new Set(names), new Set(Object.keys(PROFILES)));
  const values = await id('sign-provider').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(values, ['none', ...names]);
  for (const [name, expected] of Object.entries(PROFILES)) {
    // Mastercard's parameter string is its own signers' (below), not oauthlib's.
    if (name === 'mastercard') continue;
    const lti = name === 'lti';
    await fillSign(atProvider({ method: lti ? 'POST' : 'GET', path: lti ? '/2/lti/launch' : '/2/users/me?q=1',
      form_body: lti ? 'lti_message_type=basic-lti-launch-request&lti_version=LTI-1p0&resource_link_id=course-42' : '',
      rsa_private_key: RSA_KEY }));
    await id('sign-provider').selectOption(name);
    assert.deepEqual(await settings(), expected, name);
    assert.ok(await id('sign-provider-note').isVisible(), name);
    // #42.5: the note says the profile's body-hash rule, not the select's
    // label for it ("never (X's way)" for every provider that never hashes).
    const note = await id('sign-provider-note').textContent();
    if (name !== 'x') assert.ok(!/X[’']s way/.test(note), `${name}: ${note}`);
    // A PLAINTEXT signature is the key: the command carries it only when asked.
    if (expected[0] === 'PLAINTEXT') await id('sign-show-secrets').check();
    await assertVerified(name);
    await id('sign-show-secrets').uncheck();
  }
  // NetSuite's realm, the account id from the host: `1234567_SB1` for a sandbox (NetSuite's TBA docs).
  await fillSign({ ...atProvider({ path: '/' }), url: 'https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/record/v1/customer' });
  await id('sign-provider').selectOption('netsuite');
  assert.match(await id('sign-header').textContent(), /^OAuth realm="1234567_SB1", /);
  assert.match(await id('sign-provider-note').textContent(), /1234567_SB1/);
  await id('sign-provider').selectOption('none');
});

test('#33.3 sign: Mastercard, WooCommerce and LTI sign as their official clients do', async () => {
  const T = '1700000000';
  // mastercard-oauth1-signer 1.9.2's header, byte for byte (its nonce and clock pinned).
  const payload = '{"cardNumber":"5555555555554444","amount":"10.00"}';
  const mcUrl = 'https://sandbox.api.mastercard.com/loyalty/v1/points?Format=JSON&PageOffset=0';
  const [mc, woo] = await providersPeer([
    { client: 'mastercard', url: mcUrl, method: 'POST', payload, consumer_key: 'ck-0001!abc', key_pem: RSA_KEY,
      nonce: 'n0nce1234abcdefg', timestamp: T },
    { client: 'woocommerce', url: 'http://shop.example.com/wp-json/wc/v3/products?per_page=5&search=mug', method: 'GET',
      consumer_key: 'ck_1234', consumer_secret: 'cs_5678', nonce: 'c0ffee1234', timestamp: T },
  ]);
  await fillSign({ method: 'POST', url: mcUrl, body_type: 'json', body: payload, consumer_key: 'ck-0001!abc',
    consumer_secret: '', signature_method: 'HMAC-SHA1', nonce: 'n0nce1234abcdefg', timestamp: T, version: '1.0',
    rsa_private_key: RSA_KEY });
  await id('sign-provider').selectOption('mastercard');
  assert.equal(await id('sign-header').textContent(), mc.authorization_header);
  // WooCommerce's REST client (woocommerce 3.0.0): the URL it sends, its
  // parameters the same (the order of a query is free), the same signature.
  await fillSign({ method: 'GET', url: 'http://shop.example.com/wp-json/wc/v3/products?per_page=5&search=mug',
    consumer_key: 'ck_1234', consumer_secret: 'cs_5678', signature_method: 'HMAC-SHA1', nonce: 'c0ffee1234', timestamp: T, version: '1.0' });
  await id('sign-provider').selectOption('woocommerce');
  const query = (u) => [...new URL(u).searchParams].sort();
  assert.deepEqual(query(await id('sign-sent').textContent()), query(woo.url));
  // lti 0.9.5's tool provider (oauthlib's SignatureOnlyEndpoint) accepts the launch the page sends.
  const launch = 'https://tool.example.com/lti/launch';
  await fillSign({ method: 'POST', url: launch, form_body: 'lti_message_type=basic-lti-launch-request&lti_version=LTI-1p0&resource_link_id=course-42-link&user_id=u%2029&roles=Instructor&lis_person_name_full=Ay%C5%9Fe%20Y%C4%B1lmaz',
    consumer_key: 'lms-key', consumer_secret: 'lms-secret', signature_method: 'HMAC-SHA1', nonce: 'lti0nonce0001', timestamp: T, version: '1.0' });
  await id('sign-provider').selectOption('lti');
  const body = await id('sign-sent').textContent();
  const [ok, tampered] = await providersPeer([
    { client: 'lti-verify', launch_url: launch, consumer_key: 'lms-key', consumer_secret: 'lms-secret', body, now: T },
    { client: 'lti-verify', launch_url: launch, consumer_key: 'lms-key', consumer_secret: 'lms-secret', body: body.replace('Instructor', 'Administrator'), now: T },
  ]);
  assert.equal(ok.valid, true, body);
  assert.equal(tampered.valid, false);
  await id('sign-provider').selectOption('none');
});

test('#33.4 axe-core: nothing serious once the boxes scroll, in every language and theme, 360 pixels wide too', async () => {
  if (!(await page.evaluate(() => typeof window.axe === 'function' || typeof window.axe === 'object'))) {
    await page.addScriptTag({ url: '/__axe.js' });
  }
  // Long enough that the per-character table, the parameters and the hex dump scroll.
  const long = 'Hello, world & friends! नमस्ते दुनिया — Günaydın, Işık ılık süt iç ☃ 😀 '.repeat(4);
  const found = [];
  for (const width of [900, 360]) {
    await page.setViewportSize({ width, height: 800 });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const lang of ['en', 'hi', 'tr']) {
        await id('ui-lang').selectOption(lang);
        await fillSign({ ...xSignature.inputs, url: `${xSignature.inputs.url}&q=${encodeURIComponent(long)}` });
        await id('pct-text').fill(long);
        const scrolls = await page.locator('#pct-table').evaluate((t) => t.parentElement.scrollHeight > t.parentElement.clientHeight);
        assert.ok(scrolls, 'the per-character table scrolls');
        found.push(...await axe(`${width} px, ${scheme}, ${lang}, long text`));
        await id('pct-encoded').fill('%FF%FE'.repeat(200));
        await id('explain-their-base-string').fill(spaceAsPlus.theirs.base_string);
        found.push(...await axe(`${width} px, ${scheme}, ${lang}, binary and a cause`));
        await id('explain-their-base-string').fill('');
      }
    }
  }
  await id('ui-lang').selectOption('en');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 900, height: 900 });
  await id('pct-encoded').fill('ok');
  assert.deepEqual(found, []);
});

// Issue 33, items 5 to 8. Offsets are counted by hand in the strings
// typed (Node's Buffer.byteLength where a host's port varies); escapes are
// Python's urllib.parse.quote of each character, written out here.

test('#33.7 percent: a pasted 100% or ab%4 is malformed at its byte, and the text before it stays', async () => {
  await id('pct-mode').selectOption('strict');
  // The % is byte 3 of "100%", byte 2 of "ab%4".
  for (const [pasted, at, before] of [['100%', 3, '100'], ['ab%4', 2, 'ab']]) {
    await id('pct-encoded').fill('');
    await id('pct-encoded').fill(pasted);
    const error = await page.locator('[data-testid=pct-error] .message').textContent();
    assert.match(error, /^Malformed escape at byte (\d+)\b/, error);
    assert.equal(Number(/byte (\d+)/.exec(error)[1]), at, error);
    assert.doesNotMatch(error, /being typed/, error);
    assert.equal(await page.locator('[data-testid=pct-error] mark').textContent(), pasted.slice(at));
    assert.equal(await id('pct-encoded').getAttribute('aria-invalid'), 'true');
    assert.equal(await id('pct-text').inputValue(), before, 'the text box keeps what precedes the error');
    assert.equal(await id('pct-text').getAttribute('aria-invalid'), 'true');
  }
  // Typed one key at a time at the end, the same % is an escape being typed.
  await id('pct-encoded').fill('100');
  await id('pct-encoded').press('End');
  await page.keyboard.type('%');
  assert.match(await id('pct-error').textContent(), /being typed/);
  await id('pct-encoded').fill('ok');
  assert.equal(await id('pct-text').getAttribute('aria-invalid'), null);
});

test('#33.7 percent: %E0%A4 is a character one byte short; caf%E9 reads café as ISO-8859-1', async () => {
  await id('pct-mode').selectOption('strict');
  // न is U+0928, UTF-8 e0 a4 a8: %E0%A4 lacks its last byte, whose escape
  // would start at byte 6 of the input.
  await id('pct-encoded').fill('%E0%A4');
  assert.equal(await id('pct-binary').isVisible(), true);
  assert.match(await id('pct-hint').textContent(), /one byte short at byte 6\b/);
  assert.doesNotMatch(await id('pct-hint').textContent(), /ISO-8859-1/, 'a4 is ¤ in Latin-1, not a letter');
  // In ISO-8859-1, e9 is é.
  await id('pct-encoded').fill('caf%E9');
  assert.match(await id('pct-hint').textContent(), /As ISO-8859-1 \(Latin-1\) this reads “café”/);
  await id('pct-encoded').fill('ok');
});

test('#33.6 sign: a URL with bytes to encode says which and where, and "Encode the URL" gives one oauthlib verifies', async () => {
  const base = `${provider.base}/2/search?`;
  for (const [query, shown, at, escape, fixed] of [
    ['q=a b', 'a space', 'q=a', '%20', 'q=a%20b'],
    ['e=ş', 'ş', 'e=', '%C5%9F', 'e=%C5%9F'],
    ['ids[]=1', '[', 'ids', '%5B', 'ids%5B%5D=1'],
    ['filter={"a":1}', '{', 'filter=', '%7B', 'filter=%7B%22a%22:1%7D'],
  ]) {
    await fillSign(atProvider({ path: `/2/search?${query}` }));
    const error = await page.locator('[data-testid=sign-error] .message').textContent();
    assert.equal(error, `The URL holds ${shown} at byte ${Buffer.byteLength(base + at)}, which a URL cannot carry ` +
      `as it is: it must be percent-encoded, as ${escape}. “Encode the URL” does it.`);
    assert.equal(await id('sign-url').getAttribute('aria-invalid'), 'true');
    assert.equal(await id('sign-url-fix').isVisible(), true);
    await id('sign-url-fix').click();
    assert.equal(await id('sign-url').inputValue(), base + fixed, query);
    assert.equal(await id('sign-url-fix').isVisible(), false);
    assert.equal(await id('sign-error').textContent(), '');
  }
  // All four at once (urllib.parse.quote(query, safe='/?=&:')), sent and verified.
  await fillSign(atProvider({ path: '/2/search?q=a b&e=ş&ids[]=1&filter={"a":1}' }));
  await id('sign-url-fix').click();
  assert.equal(await id('sign-url').inputValue(), `${base}q=a%20b&e=%C5%9F&ids%5B%5D=1&filter=%7B%22a%22:1%7D`);
  const got = await assertVerified('the encoded URL');
  assert.deepEqual(got.query, [['q', 'a b'], ['e', 'ş'], ['ids[]', '1'], ['filter', '{"a":1}']]);
  // A URL with nothing to encode has no such button.
  assert.equal(await id('sign-url-fix').isVisible(), false);
});

test('#33.6 sign: a form body typed as text is warned of; encoded, it is sent and verified', async () => {
  await fillSign(atProvider({ method: 'POST', path: '/1.1/statuses/update.json', form_body: 'status=ağaç ığdır' }));
  const warned = page.locator('[data-testid=sign-warnings] li[data-hint=form-raw]');
  // "status=a" is 8 bytes: ğ (UTF-8 c4 9f) is byte 8.
  assert.match(await warned.textContent(), /^The body holds ğ at byte 8, .*\(%C4%9F\)/);
  // urllib.parse.quote('ağaç ığdır').
  await id('sign-body').fill('status=a%C4%9Fa%C3%A7%20%C4%B1%C4%9Fd%C4%B1r');
  assert.equal(await warned.count(), 0);
  const got = await assertVerified('the encoded form body');
  assert.deepEqual(got.form.filter(([n]) => !n.startsWith('oauth_')), [['status', 'ağaç ığdır']]);
});

test('#33.8 sign: after an error the heading follows the transmission chosen', async () => {
  for (const transmission of ['header', 'query']) {
    await fillSign({ ...xSignature.inputs, transmission });
    await id('sign-url').fill('https://api.x.com/1.1/x.json?a=%2G');
    assert.notEqual(await id('sign-error').textContent(), '');
    assert.equal(await page.locator('#sign-header-block').isVisible(), transmission === 'header', transmission);
    assert.equal(await page.locator('#sign-sent-block').isVisible(), transmission === 'query', transmission);
  }
  await id('sign-transmission').selectOption('header');
});

test('#33.8 sign: a PLAINTEXT curl command masked until the secrets are shown says it cannot be sent as shown', async () => {
  await id('sign-show-secrets').setChecked(false);
  await fillSign(atProvider({ path: '/2/users/me', signature_method: 'PLAINTEXT' }));
  assert.match(await id('sign-curl').textContent(), /oauth_signature="••••••"/);
  assert.equal(await id('sign-curl-masked').isVisible(), true);
  assert.match(await id('sign-curl-masked').textContent(), /cannot be sent as shown/);
  await id('sign-show-secrets').check();
  assert.equal(await id('sign-curl-masked').isVisible(), false);
  await assertVerified('PLAINTEXT, the secrets shown');
  await id('sign-show-secrets').uncheck();
  // HMAC's signature is no secret: its command is sent as shown.
  await fillSign(atProvider({ path: '/2/users/me', signature_method: 'HMAC-SHA1' }));
  assert.equal(await id('sign-curl-masked').isVisible(), false);
});

test('#33.8 the page opened from disk does not name the repository\'s layout', async () => {
  const disk = await context.newPage();
  try {
    await disk.goto(`file://${path.join(dist, 'index.html')}`);
    await disk.waitForFunction(() => /http\.server/.test(document.querySelector('[data-testid=load-status]')?.textContent ?? ''), null, { timeout: 5000 });
    const said = await disk.getByTestId('load-status').textContent();
    assert.doesNotMatch(said, /web\/dist|build\.sh/, said);
  } finally {
    await disk.close();
  }
  const source = fs.readFileSync(path.join(dist, 'i18n.js'), 'utf8') + fs.readFileSync(path.join(dist, 'boot.js'), 'utf8');
  assert.doesNotMatch(source, /-d web\/dist/);
});

test('#33.8 360 pixels wide: a parameter name is never broken mid-word', async () => {
  await page.setViewportSize({ width: 360, height: 800 });
  await fillSign(xSignature.inputs);
  const names = await page.locator('[data-testid=sign-params] tbody tr').evaluateAll((trs) => trs.map((tr) => {
    const range = document.createRange();
    range.selectNodeContents(tr.cells[1]);
    return [tr.cells[1].textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
  }));
  assert.ok(names.some(([n]) => n === 'oauth_signature_method'), names.join(' '));
  assert.deepEqual(names.filter(([, lines]) => lines > 1), []);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `page is ${wide}px wide`);
  await page.setViewportSize({ width: 900, height: 900 });
});

// The text of the page's messages in a panel, without the data they quote
// in code (the input with its span marked, a diff, a cause's code) or in
// quotes (what a provider's answer said, in its words).
const messages = () => page.evaluate(() => {
  const out = [document.title];
  for (const sel of ['pct-error', 'pct-hint', 'sign-error', 'sign-warnings', 'sign-url-fix', 'sign-curl-masked',
    'explain-result', 'explain-capture-read', 'explain-answer', 'b64-error', 'b64-hint']) {
    const el = document.querySelector(`[data-testid=${sel}]`);
    if (!el || el.hidden || el.closest('[hidden]')) continue;
    const copy = el.cloneNode(true);
    for (const c of copy.querySelectorAll('code, mark, q')) c.remove();
    for (const d of copy.querySelectorAll('details')) d.open = true;
    out.push(...[...copy.querySelectorAll('li, p, div.message, summary, .detail, .what')].map((e) => e.textContent),
      copy.childElementCount ? '' : copy.textContent);
  }
  return out.map((t) => t.trim()).filter(Boolean);
});

// English words no Hindi or Turkish message holds (the data quoted is
// names, values, escapes and offsets).
const ENGLISH = /\b(the|is|are|of|and|to|at|be|this|that|with|not|must|cannot|which|byte|bytes|was|reads|holds|invalid|malformed|expected|escape)\b/i;

test('#33.5 the hi and tr interfaces hold no English sentence in the states the tests reach', async () => {
  const sign = [
    { url: 'https://api.x.com/1.1/x.json?q=a b' },
    { url: 'ftp://api.x.com/' },
    { url: 'https://api.x.com/1.1/x.json?a=%2G' },
    { method: 'G T' },
    { url: 'https://api.x.com/1.1/x.json?q=a+b&d=1&d=2&e=%2520&n=%E9', method: 'POST', body: 'status=ağaç ığdır' },
    { method: 'POST', body: '{"text":"hi"}' },
    { consumer_secret: 'cs', token_secret: 'ts', signature_method: 'PLAINTEXT' },
    { timestamp: '1318622958000' },
    { realm: 'a"b' },
  ];
  const percent = ['100%', 'ab%4', '%E0%A4', 'caf%E9', 'a+b'];
  const b64 = [['encoded', 'Zm9v!mFy'], ['encoded', 'Zm9vY'], ['encoded', '-_8='], ['hex', 'zz'], ['hex', 'abc']];
  const theirs = [['explain-their-header', 'OAuth oauth_signature="abc'], ['explain-their-header', 'Basic abc'],
    ['explain-their-base-string', spaceAsPlus.theirs.base_string]];
  const found = [];
  const seen = new Set();
  const check = async (lang, state) => {
    for (const m of await messages()) {
      seen.add(m);
      const english = ENGLISH.exec(m);
      if (english) found.push(`${lang}, ${state}: “${english[0]}” in ${m}`);
    }
  };
  await id('pct-mode').selectOption('strict');
  for (const lang of ['hi', 'tr']) {
    await id('ui-lang').selectOption(lang);
    for (const s of sign) {
      await fillSign({ ...xSignature.inputs, ...s, transmission: 'header' });
      await check(lang, `sign ${JSON.stringify(s)}`);
    }
    for (const p of percent) {
      await id('pct-encoded').fill(p);
      await check(lang, `percent ${p}`);
    }
    for (const [box, value] of b64) {
      await id('b64-alphabet').selectOption('standard');
      await id(`b64-${box}`).fill(value);
      await check(lang, `base64 ${box} ${value}`);
    }
    await fillSign(spaceAsPlus.inputs);
    for (const [box, value] of theirs) {
      await id(box).fill(value);
      await check(lang, `explain ${box} ${value}`);
      await id(box).fill('');
    }
  }
  // The probe reads what it should: many messages, and English in English.
  assert.ok(seen.size > 60, `${seen.size} messages read`);
  await id('ui-lang').selectOption('en');
  assert.match(await page.title(), /OAuth 1\.0a codec/);
  await id('pct-encoded').fill('100%');
  assert.ok((await messages()).some((m) => ENGLISH.test(m)), 'the English page reads as English');
  await id('pct-encoded').fill('ok');
  await id('b64-text').fill('');
  console.log(`# ${seen.size} messages read in hi and tr`);
  assert.deepEqual(found, []);
});

// Issue 31 item 3: what the client sent, pasted or dropped in the Explain
// panel. Each capture is a fixture written in its generator's format and
// signed by oauthlib with one known mistake or none
// (fixtures/captures/generators.json): the page names that mistake's
// cause, or says they match.
const captures = fixture('captures/generators.json').cases;
const captureCase = (cid) => captures.find((c) => c.id === cid);

// The Sign panel as someone debugging a capture has it: the secrets typed,
// nothing else (the request, the keys, the nonce and the timestamp are the
// capture's).
async function secretsOnly(c) {
  await fillSign({ method: '', url: '', consumer_key: '', consumer_secret: c.credentials.consumer_secret,
    token_secret: c.credentials.token_secret, signature_method: 'HMAC-SHA1', nonce: '', timestamp: '', version: '1.0' });
}

async function pasteCapture(c) {
  await id('explain-capture-kind').selectOption(c.format);
  if (c.format === 'http') await id('explain-capture-scheme').selectOption(c.scheme ?? 'https');
  await id('explain-capture').fill(c.text);
}

// The result: the causes named, or 'match'.
const explained = async () => {
  await page.waitForFunction(() => document.querySelector('[data-testid=explain-result]').childElementCount > 0);
  if (await page.locator('[data-testid=explain-result] .match').count()) return ['match'];
  return page.locator('[data-testid=explain-result] li[data-code]').evaluateAll((lis) => lis.map((li) => li.dataset.code));
};

// A HAR file dropped on the capture box, as a browser drops one.
async function dropFile(name, content) {
  const dt = await page.evaluateHandle(([n, text]) => {
    const d = new DataTransfer();
    d.items.add(new File([text], n, { type: 'application/json' }));
    return d;
  }, [name, content]);
  await id('explain-capture').dispatchEvent('drop', { dataTransfer: dt });
}

async function clearCapture() {
  await id('explain-capture').fill('');
  await id('explain-capture-kind').selectOption('curl');
  await id('explain-capture-entry').evaluate((el) => { el.value = ''; });
}

test('#31.3 a pasted curl command is explained: the mistake oauthlib made is named, a valid one matches', async () => {
  for (const cid of ['chromium-cmd-space-as-plus', 'postman-query-param-missing', 'chromium-bash-form-post', 'firefox-posix-get-query']) {
    const c = captureCase(cid);
    await secretsOnly(c);
    await pasteCapture(c);
    const codes = await explained();
    if (c.valid) assert.deepEqual(codes, ['match'], cid);
    else assert.ok(codes.includes(c.mistake), `${cid}: ${c.mistake} not in ${codes}`);
    // The request read is the one the fixture says was sent.
    const read = await id('explain-capture-read').textContent();
    assert.ok(read.includes(`${c.sent.method} ${c.sent.url}`), `${cid}: ${read}`);
    // The consumer key, token, signature method, nonce and timestamp came
    // from their header (the method select pins nothing for a capture).
    assert.match(read, /oauth_consumer_key, (oauth_token, )?oauth_signature_method, oauth_nonce, oauth_timestamp/, read);
    // The secrets are not shown anywhere in the panel.
    const panel = await page.locator('#explain').textContent();
    assert.ok(!panel.includes(c.credentials.consumer_secret) && !panel.includes(c.credentials.token_secret), cid);
  }
  await clearCapture();
});

test('#31.3 a raw HTTP request is explained, with the scheme chosen beside it', async () => {
  for (const cid of ['http-chunked-space-as-plus', 'http-content-length', 'http-absolute-form-query']) {
    const c = captureCase(cid);
    await secretsOnly(c);
    await pasteCapture(c);
    assert.equal(await id('explain-capture-scheme').isVisible(), true);
    const codes = await explained();
    if (c.valid) assert.deepEqual(codes, ['match'], cid);
    else assert.ok(codes.includes(c.mistake), `${cid}: ${c.mistake} not in ${codes}`);
  }
  // The scheme of an origin-form request is the select's: the bytes do not hold it.
  await pasteCapture(captureCase('http-content-length'));
  await id('explain-capture-scheme').selectOption('http');
  assert.match(await id('explain-capture-read').textContent(), /POST http:\/\/api\.x\.com\//);
  await id('explain-capture-scheme').selectOption('https');
  assert.deepEqual(await explained(), ['match']);
  await clearCapture();
});

test('#31.3 a HAR file dropped or picked: the entry chosen, its mistake named, X\'s answer read beside it', async () => {
  // Two entries carry OAuth: the page lists them and asks for one.
  const late = captureCase('firefox-har-timestamp-out-of-bounds');
  await secretsOnly(late);
  await dropFile('x.har', late.text);
  await page.waitForFunction(() => document.querySelector('[data-testid=explain-capture-kind]').value === 'har');
  await page.waitForFunction(() => !document.querySelector('[data-testid=explain-capture-entry]').closest('[hidden]'));
  const options = await id('explain-capture-entry').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(options.includes(String(late.entry)) && options.length >= 3, options.join(','));
  assert.match(await id('explain-result').textContent(), /choose one/);
  assert.equal(await id('explain-capture').getAttribute('aria-invalid'), 'true');
  await id('explain-capture-entry').selectOption(String(late.entry));
  // The signature is right (oauthlib's): the answer is about the clock.
  assert.deepEqual(await explained(), ['match']);
  const answer = id('explain-answer');
  assert.equal(await answer.isVisible(), true);
  const x135 = answer.locator(`[data-code="${late.answer.code}"]`);
  assert.equal(await x135.count(), 1);
  assert.equal(await x135.getAttribute('data-kind'), 'x-code');
  // X's error-code reference: 135 "Timestamp out of bounds".
  assert.match(await x135.textContent(), /X error 135/);
  assert.match(await x135.textContent(), /Timestamp out of bounds/);
  assert.match(await x135.locator('.answer-meaning').textContent(), /oauth_timestamp/);
  // How far the client's clock is off, against the answer's Date.
  assert.equal(await answer.locator('.clock').getAttribute('data-offset'), String(late.answer.clock_offset_seconds));
  assert.match(await answer.locator('.clock').textContent(), new RegExp(`${Math.abs(late.answer.clock_offset_seconds)} seconds behind`));
  await shot('explain', 'explain-har-135');

  // Picked with the file input: one entry carries OAuth, it is read.
  const port = captureCase('chrome-har-default-port-kept');
  await secretsOnly(port);
  await id('explain-capture-file').setInputFiles({ name: 'chrome.har', mimeType: 'application/json', buffer: Buffer.from(port.text) });
  await page.waitForFunction(() => document.querySelector('[data-testid=explain-result] li[data-code]'));
  assert.ok((await explained()).includes(port.mistake));
  assert.equal(await id('explain-capture-entry').isVisible(), false);
  assert.equal(await id('explain-answer').locator(`[data-code="${port.answer.code}"]`).count(), 1);
  await clearCapture();
  assert.equal(await id('explain-answer').isVisible(), false);
});

// Issue 37 item 4: the page explains a capture by the library's one call
// (CaptureExplainer), as `oauth1 explain --http` does. oauthlib's
// HMAC-SHA256 request (fixtures/signatures.json: its test_client.py's
// header, signed with an empty consumer secret, the key "&"), as a proxy
// saves it.
const hmacSha256 = vector('oauthlib-client-hmac-sha256');
const hmacSha256Http = `GET / HTTP/1.1\r\nHost: example.com\r\nAuthorization: ${hmacSha256.published.header}\r\n\r\n`;

async function pasteHmacSha256(consumerKey) {
  // Only the secret typed (oauthlib's is empty), the method select left at
  // HMAC-SHA1: the capture says its own method.
  await fillSign({ method: '', url: '', consumer_key: consumerKey, consumer_secret: '', token_secret: '',
    signature_method: 'HMAC-SHA1', nonce: '', timestamp: '', version: '1.0' });
  await id('explain-capture-kind').selectOption('http');
  await id('explain-capture-scheme').selectOption('http');
  await id('explain-capture').fill(hmacSha256Http);
}

test('#37.4 oauthlib\'s HMAC-SHA256 request pasted as raw HTTP, with only its secret typed, matches', async () => {
  await pasteHmacSha256('');
  assert.deepEqual(await explained(), ['match']);
  assert.equal(await id('explain-contradictions').count(), 0);
  const read = await id('explain-capture-read').textContent();
  assert.ok(read.includes('GET http://example.com/'), read);
  assert.match(read, /oauth_consumer_key, oauth_signature_method, oauth_nonce, oauth_timestamp, oauth_version/, read);
  await clearCapture();
});

test('#37.4 a consumer key the capture contradicts is said first, as what it is, in en, hi and tr', async () => {
  await pasteHmacSha256('another_key');
  for (const lang of ['en', 'hi', 'tr']) {
    await id('ui-lang').selectOption(lang);
    // First in the result, before anything else.
    const first = id('explain-result').locator(':scope > *').first();
    assert.equal(await first.getAttribute('data-testid'), 'explain-contradictions', lang);
    const c = id('explain-contradiction');
    assert.equal(await c.count(), 1, lang);
    assert.equal(await c.getAttribute('data-name'), 'oauth_consumer_key');
    assert.equal(await c.getAttribute('data-field'), 'consumer_key');
    // The parameter and both values, as data, in every language.
    assert.deepEqual(await c.locator('code').allTextContents(), ['oauth_consumer_key', 'another_key', 'client_key'], lang);
    // No cause: the capture's key is the one signed, and its signature matches.
    assert.deepEqual(await explained(), ['match'], lang);
    if (lang === 'en') {
      const said = await c.textContent();
      assert.ok(said.startsWith('The Sign panel pins oauth_consumer_key to another_key, but the capture was signed with client_key.'), said);
    } else {
      // Its words, without the data it quotes, hold no English.
      const said = await c.evaluate((li) => [...li.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(''));
      assert.doesNotMatch(said, ENGLISH, `${lang}: ${said}`);
    }
    assert.equal(await c.locator('[lang=en]').count(), 0);
  }
  await id('ui-lang').selectOption('en');
  // Pinned, the key is not said to be taken from the capture.
  const read = await id('explain-capture-read').textContent();
  assert.ok(!read.includes('oauth_consumer_key'), read);
  await id('sign-consumer-key').fill('');
  assert.equal(await id('explain-contradictions').count(), 0);
  await clearCapture();
});

// The refusals, each in the capture field, said in the reader's language.
const REFUSALS = [
  // Two Authorization headers: ambiguous.
  ['http', 'POST /1.1/x.json HTTP/1.1\r\nHost: api.x.com\r\nAuthorization: OAuth oauth_nonce="a"\r\nAuthorization: OAuth oauth_nonce="b"\r\n\r\n', 'capture-ambiguous'],
  // A body read from a file the command names.
  ['curl', "curl -H 'Authorization: OAuth oauth_nonce=\"a\"' -d @body.txt https://api.x.com/1.1/x.json", 'not-in-capture'],
  // A HAR file cut off.
  ['har', '{"log": {"entries": [', 'capture-unreadable'],
  // An unclosed quote.
  ['curl', "curl 'https://api.x.com/1.1/x.json", 'capture-unreadable'],
];
const REFUSED_EN = {
  'capture-ambiguous': /The HTTP request can be read two ways at byte \d+: two Authorization headers/,
  'not-in-capture': /-d at byte \d+ sends the file body\.txt/,
  'capture-unreadable': /The (HAR file|curl command) cannot be read/,
};

test('#31.3 a capture refused is said in the capture field, at its spot, in each language', async () => {
  await secretsOnly(captureCase('http-content-length'));
  for (const lang of ['en', 'hi', 'tr']) {
    await id('ui-lang').selectOption(lang);
    for (const [kind, text, code] of REFUSALS) {
      await id('explain-capture-kind').selectOption(kind);
      await id('explain-capture').fill(text);
      assert.equal(await id('explain-capture').getAttribute('aria-invalid'), 'true', `${kind} ${text}`);
      const said = await id('explain-result').locator('.message').textContent();
      // The page's words for the kind, not the library's English.
      if (lang === 'en') assert.match(said, REFUSED_EN[code], said);
      else assert.doesNotMatch(said, /\b(the|cannot|read|two|ways|file|sends)\b/i, `${lang}: ${said}`);
    }
  }
  // No OAuth at all.
  await id('ui-lang').selectOption('en');
  await id('explain-capture-kind').selectOption('curl');
  await id('explain-capture').fill('curl https://api.x.com/1.1/x.json');
  assert.match(await id('explain-result').textContent(), /carries no OAuth 1\.0a/);
  await clearCapture();
});

// Issue 33 item 5, in the Explain panel: a provider's answer (each of
// fixtures/captures/answers.json: X's error codes as X's "Response codes and
// errors" lists them, https://developer.x.com/en/support/x-api/error-troubleshooting,
// its callback guide's 415, a v2 problem, OAuth Problem Reporting's), the
// warnings of a capture, a cause found in a capture.
const answers = fixture('captures/answers.json').cases;
const ANSWER_KIND = { XCode: 'x-code', XProblem: 'x-problem', OAuthProblem: 'oauth-problem' };

test('#33.5 a provider\'s answer, a capture\'s warnings and a cause found hold no English in hi and tr', async () => {
  // The answers, each in the one entry of a HAR file as Firefox writes one
  // (its request oauthlib's, its response the fixture's).
  const late = captureCase('firefox-har-timestamp-out-of-bounds');
  await secretsOnly(late);
  const har = JSON.parse(late.text);
  const entry = har.log.entries[late.entry];
  const withAnswer = (a) => JSON.stringify({ log: { ...har.log, entries: [{ ...entry,
    response: { ...entry.response, status: a.status, content: { size: a.body.length, mimeType: 'text/plain', text: a.body } } }] } });
  const found = [];
  const check = async (lang, state) => {
    for (const m of await messages()) {
      const english = ENGLISH.exec(m);
      if (english) found.push(`${lang}, ${state}: “${english[0]}” in ${m}`);
    }
  };
  const meanings = { hi: new Set(), tr: new Set() };
  await id('explain-capture-kind').selectOption('har');
  for (const lang of ['en', 'hi', 'tr']) {
    await id('ui-lang').selectOption(lang);
    for (const a of answers) {
      await id('explain-capture').fill(withAnswer(a));
      const error = id('explain-answer').locator(`[data-code="${a.expected.code}"]`);
      await error.waitFor();
      assert.equal(await error.getAttribute('data-kind'), ANSWER_KIND[a.expected.kind], a.id);
      // #42.5: about:blank is no problem type (RFC 9457 §4.2.1): not shown as one.
      const heading = await error.locator('p code').first().textContent();
      if (a.expected.code === 'about:blank') assert.ok(!heading.includes('about:blank'), `${lang} ${a.id}: ${heading}`);
      else assert.ok(heading.includes(a.expected.code), `${lang} ${a.id}: ${heading}`);
      const meaning = await error.locator('.answer-meaning').textContent();
      // A protocol parameter the meaning names is named in every language.
      if (/^oauth_/.test(a.expected.meaning_mentions) || lang === 'en') assert.ok(meaning.includes(a.expected.meaning_mentions), `${lang} ${a.id}: ${meaning}`);
      // What X said is quoted as X said it (the fixture's body).
      const said = JSON.parse(a.body.startsWith('{') ? a.body : '{}').errors?.[0]?.message;
      if (said) assert.equal(await error.locator('q').textContent(), said);
      if (lang === 'en') continue;
      meanings[lang].add(meaning);
      assert.equal(await error.locator('[lang=en]').count(), 0, `${lang} ${a.id}: said in English`);
      await check(lang, `answer ${a.id}`);
    }
    // Each answer means something else: none is said by a fallback.
    if (lang !== 'en') assert.equal(meanings[lang].size, answers.length, [...meanings[lang]].join('\n'));
  }

  // A capture's warnings: an option curl has that is not read, a URL
  // without its scheme and with a fragment (curl sends http://, and no
  // fragment), a second signing option; a HAR entry's fragment; an
  // HTTP/2 message with blank lines after it.
  const header = 'Authorization: OAuth oauth_consumer_key="k", oauth_nonce="n", oauth_signature="s", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1318622958"';
  const warned = [
    ['curl', `curl -H '${header}' 'api.x.com/1.1/x.json?q=1#top' --aws-sigv4 aws:amz`,
      ['scheme-assumed', 'fragment-dropped', 'not-oauth'], ['#top']],
    ['har', withAnswer(answers[0]).replace(`"url":"${entry.request.url}"`, `"url":"${entry.request.url}#top"`),
      ['fragment-dropped'], []],
    ['http', `POST /1.1/x.json HTTP/2\r\nHost: api.x.com\r\n${header}\r\n\r\n\r\n\r\n`,
      ['http2-message', 'trailing-bytes'], []],
  ];
  for (const lang of ['en', 'hi', 'tr']) {
    await id('ui-lang').selectOption(lang);
    for (const [kind, text, codes, quoted] of warned) {
      await id('explain-capture-kind').selectOption(kind);
      await id('explain-capture').fill(text);
      await page.waitForFunction(() => document.querySelector('[data-testid=explain-capture-read] [data-warning]'));
      const read = id('explain-capture-read');
      const shown = await read.locator('[data-warning]').evaluateAll((ps) => ps.map((p) => p.dataset.warning));
      for (const c of codes) assert.ok(shown.includes(c), `${lang} ${kind}: ${shown} lacks ${c}`);
      // The values quoted are the capture's, in every language.
      const said = await read.textContent();
      for (const q of quoted) assert.ok(said.includes(q), `${lang} ${kind}: ${q} in ${said}`);
      if (lang === 'en') continue;
      assert.equal(await read.locator('[lang=en]').count(), 0, `${lang} ${kind}: said in English`);
      await check(lang, `warnings ${kind}`);
    }
  }

  // A cause found in a capture, with how it was found.
  const plus = captureCase('chromium-cmd-space-as-plus');
  await secretsOnly(plus);
  for (const lang of ['hi', 'tr']) {
    await id('ui-lang').selectOption(lang);
    await pasteCapture(plus);
    assert.ok((await explained()).includes(plus.mistake));
    assert.ok(await id('explain-result').locator('details').count() > 0);
    await check(lang, 'a cause found in a capture');
  }
  await clearCapture();
  // Their signature alone (the X docs request signed with spaces as +):
  // found by recomputing ours with the mistake.
  await fillSign(spaceAsPlus.inputs);
  for (const lang of ['en', 'hi', 'tr']) {
    await id('ui-lang').selectOption(lang);
    await id('explain-their-signature').fill(spaceAsPlus.theirs.signature);
    assert.ok((await explained()).includes('space-as-plus'));
    const how = await id('explain-result').locator('details[data-found-by]')
      .evaluateAll((ds) => ds.map((d) => d.dataset.foundBy));
    assert.ok(how.includes('reproduced'), how.join(' '));
    if (lang !== 'en') await check(lang, 'a cause found from their signature');
    await id('explain-their-signature').fill('');
  }
  await id('ui-lang').selectOption('en');
  assert.deepEqual(found, []);
});

// Issue 42.2: a large paste never freezes the page. Each panel's call on a
// long value runs in its worker (work.js): while it runs, a keystroke in
// another panel is answered; the panel says it works, and on what size; an
// output past the display limit is shown cut, with the whole for Copy; the
// newest input's answer is the one shown. Nothing here is timed: what is
// asserted is counted (answers shown, long tasks over a generous bound).
const MB5 = 5 * 1024 * 1024;
async function pasteLong(id, head, unit, chars) {
  return page.evaluate(([id, head, unit, chars]) => {
    const box = document.getElementById(id);
    box.value = head + unit.repeat(Math.ceil((chars - head.length) / unit.length));
    box.dispatchEvent(new Event('input', { bubbles: true }));
    const panel = id.split('-')[0];
    const note = document.getElementById(`${panel === 'pct' ? 'pct' : panel}-work`);
    return { note: note.hidden ? null : note.textContent, worked: Number(document.body.dataset.worked ?? 0) };
  }, [id, head, unit, chars]);
}
const worked = () => page.evaluate(() => Number(document.body.dataset.worked ?? 0));

test('#42.2 a 5 MB paste into Percent, Base64 or Explain: the page answers a keystroke, says it works, and shows the newest answer', async () => {
  await page.evaluate(() => {
    globalThis.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.longTasks.push(e.duration); })
      .observe({ type: 'longtask' });
  });
  const cases = [
    { id: 'pct-text', out: 'pct-encoded', unit: 'a b/ü&', other: 'b64-text', otherOut: 'b64-encoded', key: 'x', want: 'eA==',
      check: (v) => v.startsWith(encodeURIComponent('a b/ü&').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)) },
    { id: 'b64-text', out: 'b64-encoded', unit: 'abc', other: 'pct-text', otherOut: 'pct-encoded', key: ' ', want: '%20',
      check: (v) => v.startsWith(Buffer.from('abcabcabc').toString('base64')) },
  ];
  for (const c of cases) {
    await page.getByTestId(c.other).fill('');
    const before = await worked();
    const r = await pasteLong(c.id, '', c.unit, MB5);
    assert.match(r.note ?? '', /5\.0 Mi/, `${c.id}: the size note while it works`);
    // A keystroke elsewhere is answered while (or after) the long work runs.
    await page.getByTestId(c.other).focus();
    await page.keyboard.type(c.key);
    await page.waitForFunction(([o, w]) => document.getElementById(o).value === w, [c.otherOut, c.want]);
    await page.waitForFunction((n) => Number(document.body.dataset.worked ?? 0) > n, before, { timeout: 120000 });
    const out = await page.evaluate((o) => {
      const box = document.getElementById(o);
      return { length: box.value.length, readOnly: box.readOnly, cut: box.nextElementSibling?.textContent ?? '' };
    }, c.out);
    assert.equal(out.length, 1024 * 1024, `${c.out}: shown up to the display limit`);
    assert.ok(out.readOnly);
    assert.match(out.cut, /1\.0 Mi/);
    assert.ok(c.check(await page.getByTestId(c.out).inputValue()));
    assert.equal(await page.getByTestId(`${c.id.split('-')[0]}-work`).isHidden(), true);
    await page.getByTestId(c.id).fill('');
    await page.getByTestId(c.other).fill('');
  }

  // The newest input supersedes older work: two pastes, one answer shown, the newer's.
  const before = await worked();
  await pasteLong('b64-text', '', 'abc', MB5);
  await pasteLong('b64-text', '', 'xyz', MB5);
  await page.waitForFunction((n) => Number(document.body.dataset.worked ?? 0) > n, before, { timeout: 120000 });
  assert.equal(await worked(), before + 1, 'the older paste\'s answer is never shown');
  assert.ok((await page.getByTestId('b64-encoded').inputValue()).startsWith(Buffer.from('xyzxyz').toString('base64')));
  // Copy copies the whole value, not the part shown.
  const copiedLength = await page.evaluate(async () => {
    document.querySelector('[data-copy=b64-encoded]').click();
    await new Promise((ok) => setTimeout(ok, 200));
    return (await navigator.clipboard.readText().catch(() => '')).length;
  });
  if (copiedLength) assert.equal(copiedLength, Math.ceil(MB5 / 3) * 4);
  // The cut note in the reader's language too.
  const cutNote = () => page.evaluate(() => document.getElementById('b64-encoded').nextElementSibling.textContent);
  const english = await cutNote();
  await id('ui-lang').selectOption('tr');
  await page.waitForFunction((n) => Number(document.body.dataset.worked ?? 0) > n, before + 1, { timeout: 120000 });
  assert.notEqual(await cutNote(), english);
  assert.match(await cutNote(), /1\.0 Mi/);
  await id('ui-lang').selectOption('en');
  await page.waitForFunction((n) => Number(document.body.dataset.worked ?? 0) > n, before + 2, { timeout: 120000 });
  await page.getByTestId('b64-text').fill('');

  // Explain: a 5 MB curl command.
  const beforeExplain = await worked();
  const e = await pasteLong('explain-capture', "curl -X POST 'https://api.x.com/1.1/statuses/update.json' -H 'Authorization: OAuth oauth_consumer_key=\"k\", oauth_signature_method=\"HMAC-SHA1\", oauth_signature=\"x\"' --data 'status=", 'a', MB5);
  assert.match(e.note ?? '', /5\.0 Mi/);
  await page.getByTestId('b64-text').focus();
  await page.keyboard.type('x');
  await page.waitForFunction(() => document.getElementById('b64-encoded').value === 'eA==');
  await page.waitForFunction((n) => Number(document.body.dataset.worked ?? 0) > n, beforeExplain, { timeout: 120000 });
  assert.notEqual(await page.getByTestId('explain-result').textContent(), '');
  await page.getByTestId('explain-capture').fill('');
  await page.getByTestId('b64-text').fill('');

  // Past the limit: nothing computed, the limit stated.
  const over = await pasteLong('pct-encoded', '', 'a', 33 * 1024 * 1024);
  assert.match(over.note ?? '', /32\.0 Mi/);
  await page.getByTestId('pct-encoded').fill('');

  // The main thread's long tasks: setting a 5 MB value into a box is the
  // browser's own work (its layout), but no task may hold the page for
  // long; counted, not timed against a clock.
  const long = await page.evaluate(() => globalThis.longTasks);
  console.log(`#42.2 long tasks (ms): ${long.map((d) => Math.round(d)).join(', ')}`);
  assert.ok(long.filter((d) => d > 2000).length === 0, `no task over 2 s: ${long}`);
  assert.deepEqual(errors, []);
});

test('#39.1 sign: the page\'s curl command is the library\'s writer: control bytes in the body written as $\'...\' escapes, read back by bash as the bytes signed', async () => {
  const body = 'line one\u0001two\u001b[2J';
  await fillSign(atProvider({ method: 'PUT', path: '/2/notes/1', body_type: 'bytes', content_type: 'text/plain', body }));
  const command = await id('sign-curl').textContent();
  // As `oauth1 sign --format curl` writes it (capture::CurlCommand).
  assert.match(command, /--data-raw \$'line one\\x01two\\x1b\[2J'/, command);
  assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f]/.test(command), 'no control byte is shown raw');
  // bash gives curl the body's bytes exactly.
  const { stdout } = await promisify(execFile)('bash', ['-c', `curl() { printf '%s\\0' "$@"; }; ${command}`]);
  const words = stdout.split('\0');
  assert.equal(words[words.indexOf('--data-raw') + 1], body);
  await assertVerified('a text body with control bytes');
});

test('no request leaves the page: everything comes from the local server', async () => {
  assert.ok(requests.some((u) => u.endsWith('.wasm')), requests.join('\n'));
  // (The page opened from disk, #24.7, reads files: no network.)
  const elsewhere = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('file:'));
  assert.deepEqual(elsewhere, []);
});

test('nothing failed in the page: no uncaught error, no panic', () => {
  assert.deepEqual(errors, []);
});
