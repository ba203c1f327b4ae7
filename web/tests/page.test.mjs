// The page in a real browser: Debian's headless Chromium driven by
// playwright-core (never `npx playwright install`). A static server of the
// built folder (web/dist) on 127.0.0.1 only; every expected value is a
// public vector read from fixtures/ (X developer docs), or an independent
// decoder's (Node's Buffer for Base64), never the page's own output.
// Screenshots of each panel go to web/tests/artifacts/ (WEB_SCREENSHOTS=dir
// to put them elsewhere, as docs/img/ is refreshed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const dist = path.join(root, 'web', 'dist');
const shots = path.resolve(process.env.WEB_SCREENSHOTS || path.join(here, 'artifacts'));
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(root, 'fixtures', name), 'utf8'));

const X_DOCS = "X developer docs, 'Percent encoding parameters'";
const percentVectors = fixture('percent_encoding.json').vectors.filter((v) => v.source.startsWith(X_DOCS));
const xSignature = fixture('signatures.json').vectors.find((v) => v.id === 'x-docs-creating-a-signature');
const spaceAsPlus = fixture('explain.json').cases.find((c) => c.id === 'explain-space-as-plus');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

let server, origin, context, page, userDataDir;
const requests = [];
// Uncaught errors in the page (a Rust panic is one): none, at any time.
const errors = [];

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'build the page first: bash web/build.sh');
  server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(dist, name === '/' ? 'index.html' : name);
    if (!file.startsWith(dist + path.sep) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
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
  page.on('pageerror', (e) => errors.push(String(e)));
  // The clock the page reads when no timestamp is pinned: the X docs
  // example's moment, so a blank timestamp must sign exactly as pinned.
  await page.clock.setFixedTime(Number(xSignature.inputs.timestamp) * 1000);
  await page.goto(`${origin}/`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 30000 });
  assert.deepEqual(errors, []);
});

after(async () => {
  await context?.close();
  await new Promise((ok) => server?.close(ok) ?? ok());
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
});

const id = (t) => page.getByTestId(t);
const shot = (panel, name) => page.locator(`#${panel}`).screenshot({ path: path.join(shots, `${name}.png`) });

async function fillSign(inputs) {
  await id('sign-method').fill(inputs.method);
  await id('sign-url').fill(inputs.url);
  await id('sign-body').fill(inputs.form_body ?? '');
  await id('sign-consumer-key').fill(inputs.consumer_key);
  await id('sign-consumer-secret').fill(inputs.consumer_secret);
  await id('sign-token').fill(inputs.token ?? '');
  await id('sign-token-secret').fill(inputs.token_secret ?? '');
  await id('sign-signature-method').selectOption(inputs.signature_method);
  await id('sign-nonce').fill(inputs.nonce);
  await id('sign-timestamp').fill(inputs.timestamp);
  await id('sign-realm').fill('');
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
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'pct-encoded');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('a+b');
  assert.equal(await id('pct-text').inputValue(), 'a b');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
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

test('no request leaves the page: everything comes from the local server', async () => {
  assert.ok(requests.some((u) => u.endsWith('.wasm')), requests.join('\n'));
  const elsewhere = requests.filter((u) => !u.startsWith(`${origin}/`));
  assert.deepEqual(elsewhere, []);
});

test('nothing failed in the page: no uncaught error, no panic', () => {
  assert.deepEqual(errors, []);
});
