// The page's JavaScript only reads fields, calls the WebAssembly (the
// oauth1-signer library), and shows the JSON it returns. Every rule lives in
// Rust; nothing here encodes, decodes, signs or compares. What it does own is
// the showing: only what changed is laid out again, long results are shown
// by the window in view (a hex dump, the per-character table), and text from
// outside is set as text, never as HTML.
import init, * as first from './pkg/oauth1_web.js';
import { readEnglish, setLang, t, has, lang, LANGS } from './i18n.js';
import * as state from './state.js';

const $ = (id) => document.getElementById(id);
const call = (f, ...args) => JSON.parse(f(...args));

// The WebAssembly: the page's first download (pkg/) explains nothing and
// signs with no RSA key; the full module (pkg-full/, the same crate with
// the `explain`, `capture` and `rsa` features) is loaded when the Explain
// panel is first given something to explain or an RSA method is first
// chosen, and then answers every call (issue 42.4: the first download
// within 300 KB gzipped). `needsFull` says when; `loadFull` loads it once,
// and shows the panels again with it.
let wasm = first;
let fullLoading = null;
const isRsa = (method) => /^RSA-/i.test(method.trim());
function needsFull(fields, explaining = false) {
  return wasm === first && (isRsa(fields.signature_method) || explaining);
}
function loadFull() {
  fullLoading ??= import('./pkg-full/oauth1_web.js').then(async (full) => {
    await full.default();
    wasm = full;
    document.body.dataset.full = 'loaded';
    sign();
    explain();
  }).catch((e) => {
    fullLoading = null;
    const status = $('load-status');
    status.hidden = false;
    status.className = 'load failed';
    status.textContent = t('load.failed', String(e));
  });
  return fullLoading;
}

function clear(el) { el.replaceChildren(); }

function text(tag, content, cls) {
  const el = document.createElement(tag);
  el.textContent = content;
  if (cls) el.className = cls;
  return el;
}

// A sentence whose code is marked with backticks (the library's fixes), as
// text with <code> spans.
function marked(tag, sentence, cls) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  sentence.split('`').forEach((part, i) => el.append(i % 2 ? text('code', part) : part));
  return el;
}

// Where a keystroke's time goes: the latest duration of each step
// (`pct:encode`, `pct:table`, `box:pct-encoded`...), and when the page was
// ready, in ms, for the browser tests to print (and anyone profiling the
// page to read in the console: `pageTimings`).
const timings = {};
globalThis.pageTimings = timings;
function timed(name, f) {
  const start = performance.now();
  const r = f();
  timings[name] = performance.now() - start;
  return r;
}

// Long values off the main thread (issue 42.2). A panel's call whose
// arguments reach WORK characters runs in the panel's worker (work.js),
// the same WebAssembly call with the same arguments, and its answer is
// shown by the same code, `then`, when it comes; a shorter one runs here,
// and `then` is called at once, as before. The newest input supersedes
// older work: a panel's worker still busy with an older value is ended (its
// answer would be shown no more), so that no old value's work delays the
// newest. While a worker works, the panel says so, with the size (`.work`).
// Past LIMIT characters nothing is computed: the panel states the limit.
const WORK = 512 * 1024;
const LIMIT = 32 * 1024 * 1024;
const jobs = {};
const size = (n) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} Mi` : `${Math.ceil(n / 1024)} Ki`);
function working(panel, message) {
  const note = $(`${panel}-work`);
  if (!note) return;
  note.hidden = !message;
  note.textContent = message ?? '';
}
function stopWork(job) {
  job.worker?.terminate();
  job.worker = null;
  job.busy = false;
}
function run(panel, fn, args, then) {
  const job = (jobs[panel] ??= { seq: 0, worker: null, busy: false });
  const seq = ++job.seq;
  const chars = args.reduce((n, a) => n + (typeof a === 'string' ? a.length : 0), 0);
  const note = panel.split(':')[0];
  if (job.busy) stopWork(job);
  if (chars > LIMIT) {
    working(note, t('work.limit', size(chars), size(LIMIT)));
    return false;
  }
  if (chars < WORK) {
    if (panel === note) working(note, null);
    then(fn ? call(wasm[fn], ...args) : null);
    return true;
  }
  if (!job.worker) {
    job.worker = new Worker(new URL('./work.js', import.meta.url), { type: 'module' });
  }
  job.busy = true;
  if (panel === note) working(note, t('work.busy', size(chars)));
  job.worker.onmessage = ({ data }) => {
    if (data.id !== seq || job.seq !== seq) return;
    job.busy = false;
    if (panel === note) working(note, null);
    if (data.error) {
      working(note, t('work.failed', data.error));
      return;
    }
    then(JSON.parse(data.json));
    document.body.dataset.worked = String(Number(document.body.dataset.worked ?? 0) + 1);
  };
  job.worker.postMessage({ id: seq, fn, args });
  return true;
}

// A value longer than SHOW characters is shown cut, in a box made
// read-only (an edit of a cut value would be an edit of another value),
// with a note saying so and offering the whole value: its Copy button (which
// copies the whole, `copied`) and a download.
const SHOW = 1024 * 1024;
const whole = new WeakMap();
function showCut(box, value) {
  let note = box.nextElementSibling?.classList.contains('cut') ? box.nextElementSibling : null;
  if (value === null) {
    whole.delete(box);
    box.readOnly = false;
    note?.remove();
    return;
  }
  whole.set(box, value);
  box.readOnly = true;
  if (!note) {
    note = document.createElement('p');
    note.className = 'note cut';
    note.dataset.testid = `${box.id}-cut`;
    box.after(note);
  }
  clear(note);
  const download = text('button', t('cut.download'));
  download.type = 'button';
  download.addEventListener('click', () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([whole.get(box) ?? box.value], { type: 'text/plain' }));
    a.download = `${box.id}.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  note.append(t('cut.shown', size(SHOW), size(value.length)), ' ', download);
}

// Sets a box's value only when it changed. The value last set is kept here,
// so that a box's own (long) value is never read back to compare. A long
// value (the 144 K characters 64 KiB of text encode to) costs Chromium some
// 30 ms to lay out, so it is set after the frame that shows the keystroke
// and what it changed (the table row, the byte count), not before it
// (docs/web.md, "Long inputs": setting it in the same frame was measured,
// and gave the result no sooner at 64 KiB and the keystroke 25 ms later).
const LONG = 16 * 1024;
const shown = new WeakMap();
const pending = new Map();
// For a box whose new value is an edit of the one it holds: how many
// characters at its start are known to stand (the least of each pending
// edit's), so that the change is found without comparing them.
const standing = new Map();
let flushing = false;
function setValue(box, value, same) {
  const known = same === undefined ? undefined
    : pending.has(box) ? Math.min(standing.get(box) ?? 0, same) : same;
  pending.delete(box);
  standing.delete(box);
  if (shown.get(box) === value) return;
  if (value.length > SHOW) {
    box.value = value.slice(0, SHOW);
    shown.set(box, value);
    showCut(box, value);
    return;
  }
  if (whole.has(box)) {
    showCut(box, null);
    box.value = value;
    shown.set(box, value);
    return;
  }
  if (value.length < LONG) {
    box.value = value;
    shown.set(box, value);
    return;
  }
  pending.set(box, value);
  if (known !== undefined) standing.set(box, known);
  if (!flushing) {
    flushing = true;
    requestAnimationFrame(() => setTimeout(flushValues));
  }
}
function flushValues() {
  flushing = false;
  for (const [box, value] of pending) {
    timed(`box:${box.id}`, () => replaceChanged(box, shown.get(box), value, standing.get(box)));
    shown.set(box, value);
  }
  pending.clear();
  standing.clear();
}

// Replaces only the part of a box's text that changed (typing at the end of
// the source changes the end of its encoding): the rest is not edited. The
// first `same` characters, when known, stand.
function replaceChanged(box, old, value, same = 0) {
  if (typeof old !== 'string') {
    box.value = value;
    return;
  }
  const most = Math.min(old.length, value.length);
  let start = Math.min(same, most);
  while (start < most && old.charCodeAt(start) === value.charCodeAt(start)) start += 1;
  let end = 0;
  while (end < most - start && old.charCodeAt(old.length - 1 - end) === value.charCodeAt(value.length - 1 - end)) end += 1;
  box.setRangeText(value.slice(start, value.length - end), start, old.length - end, 'preserve');
}
// The user typed in `box`: its value is theirs, nothing pending replaces it.
function typedIn(box) {
  if (whole.has(box)) showCut(box, null);
  pending.delete(box);
  standing.delete(box);
  shown.set(box, undefined);
}

// Screen readers hear a message once the user pauses, not at every
// keystroke: each new message waits `delay` ms, and a newer one replaces it.
// No message (the error is fixed): nothing pending is said, and the live
// region is emptied, so it no longer holds a message that is past.
let announceTimer;
function announce(message, delay = 0) {
  clearTimeout(announceTimer);
  const box = $('announce');
  if (!message) {
    box.textContent = '';
    return;
  }
  announceTimer = setTimeout(() => {
    box.textContent = '';
    requestAnimationFrame(() => { box.textContent = message; });
  }, delay);
}
const PAUSE = 1000;

// An error and its spot: the message, then the input with the span marked
// (no mark when the error points at no byte).
function showSpot(el, spot) {
  clear(el);
  if (!spot) return;
  el.append(text('div', spot.said ? hintText(spot.said) : spot.message, 'message'));
  if (spot.offset !== null && spot.offset !== undefined && (spot.before || spot.at || spot.after)) {
    const where = document.createElement('code');
    where.className = 'spot';
    where.append(spot.before, text('mark', spot.at || ' '), spot.after);
    el.append(where);
  }
}

// A field error, as the page says it (its code, in the reader's language).
function showFieldError(el, error) {
  showSpot(el, error && error.spot);
}

// A message's sentence from its code: its quoted data shown as they are,
// its words (the name of a part, an alphabet, a space) in the reader's
// language. The page's own advice is `hint.<code>`; the library's errors
// and warnings, and the panels' own errors, are keyed by their code
// (`err.url-byte`, `warn.plus-in-query`, `b64.length`).
function hintText(h) {
  const args = h.args.map((a) => (typeof a === 'string' ? a : t(a.word)));
  return t(h.code.includes('.') ? h.code : `hint.${h.code}`, ...args);
}

function showHints(box, hints, extra) {
  clear(box);
  for (const h of hints) {
    const p = text('p', hintText(h));
    p.dataset.hint = h.code;
    if (extra) extra(h, p);
    box.append(p);
  }
  box.hidden = hints.length === 0;
}

// Percent ------------------------------------------------------------------

// Rows of the per-character table in the DOM at once, whatever the text's
// length: the window around the cursor.
const TABLE_ROWS = 32;
// Lines of the hex dump laid out at once (those in view, and one more at
// each end); each line is LINE_PX high.
const DUMP_VIEW = 12;
const LINE_PX = 20;

function showBytes(preview, len) {
  const shownBytes = preview ? preview.split(' ').length : 0;
  $('pct-bytes').textContent = len > shownBytes
    ? t('percent.bytesMore', len, preview, len - shownBytes)
    : t('percent.bytesLine', len, preview);
}

let pctFrom = 'text';
// The encoding the WebAssembly answered last: each answer is an edit of it
// (its first `kept` characters, then `tail`), so that typing at the end of
// 256 KiB moves a few characters, not the 576 K of the whole encoding.
let pctEncoding = '';

function percentFromText() {
  pctFrom = 'text';
  const box = $('pct-text');
  typedIn(box);
  const value = box.value;
  run('pct', 'percent_encode_text', [value], (r) => {
    if (value.length >= WORK || pctWorked) {
      // The worker's answer is the whole encoding; after one, this thread's
      // encoder starts again from nothing too.
      if (value.length < WORK) {
        wasm.percent_encode_text('');
        r = call(wasm.percent_encode_text, value);
      }
      pctWorked = value.length >= WORK;
      pctEncoding = '';
    }
    percentEncoded(r, box);
  });
}
let pctWorked = false;
function percentEncoded(r, box) {
  pctEncoding = pctEncoding.slice(0, r.kept) + r.tail;
  setValue($('pct-encoded'), pctEncoding, r.kept);
  showBytes(r.bytes, r.byte_len);
  showSpot($('pct-error'), null);
  $('pct-error').classList.remove('typing');
  $('pct-encoded').removeAttribute('aria-invalid');
  $('pct-text').removeAttribute('aria-invalid');
  announce(null);
  setBinary(null);
  showHints($('pct-hint'), r.hints);
  timed('pct:table', () => charTable(box.value, box.selectionStart ?? box.value.length));
}

// The encoded box's value when last decoded: an escape is "being typed"
// only when one character was just typed at the end, never when a whole
// text was pasted or set (the same value decoded again, in another mode or
// language, keeps what it was).
let lastEncoded = '';
let lastTypedOne = false;

function percentFromEncoded() {
  pctFrom = 'encoded';
  const encoded = $('pct-encoded').value;
  const typedOne = encoded === lastEncoded
    ? lastTypedOne
    : encoded.length === lastEncoded.length + 1 && encoded.startsWith(lastEncoded);
  lastEncoded = encoded;
  lastTypedOne = typedOne;
  typedIn($('pct-encoded'));
  const mode = $('pct-mode').value;
  run('pct', 'percent_decode_text', [encoded, mode], (r) => percentDecoded(r, encoded, mode, typedOne));
}
function percentDecoded(r, encoded, mode, typedOne) {
  showHints($('pct-hint'), r.hints);
  if (r.error) {
    // The text box shows what the input reads as up to the error (never
    // what an older input decoded to), marked as cut short.
    setValue($('pct-text'), r.partial ?? '');
    $('pct-text').setAttribute('aria-invalid', 'true');
    $('pct-bytes').textContent = '';
    setBinary(null);
    charTable('', 0);
    if (r.incomplete && typedOne) {
      // An escape still being typed: said quietly, not flagged.
      showSpot($('pct-error'), { message: t('percent.incomplete') });
      $('pct-error').classList.add('typing');
      $('pct-encoded').removeAttribute('aria-invalid');
      announce(null);
    } else {
      showSpot($('pct-error'), r.error);
      $('pct-error').classList.remove('typing');
      $('pct-encoded').setAttribute('aria-invalid', 'true');
      announce($('pct-error').textContent, PAUSE);
    }
    return;
  }
  $('pct-text').removeAttribute('aria-invalid');
  showSpot($('pct-error'), null);
  $('pct-error').classList.remove('typing');
  $('pct-encoded').removeAttribute('aria-invalid');
  announce(null);
  setValue($('pct-text'), r.text ?? '');
  showBytes(r.bytes, r.byte_len);
  setBinary(r.binary ? { ...r, encoded, mode } : null);
  if (r.binary) charTable('', 0);
  else charTable(r.text ?? '', (r.text ?? '').length);
}

// The per-character table: the rows around the caret, each row laid out
// again only when its character changed.
let tableKeys = [];
function charTable(value, caret) {
  if (value === '') {
    run('pct:table', null, [], () => {});
    charRows({ first: 0, total: 0, caret: 0, rows: [] });
  } else {
    run('pct:table', 'percent_char_table', [value, caret, TABLE_ROWS], charRows);
  }
}
function charRows(r) {
  const body = $('pct-table').tBodies[0];
  while (body.rows.length > r.rows.length) body.lastElementChild.remove();
  while (body.rows.length < r.rows.length) {
    const tr = document.createElement('tr');
    tr.append(text('td', ''), text('td', ''), text('td', ''), text('td', ''));
    body.append(tr);
  }
  const keys = r.rows.map((row, i) => `${r.first + i}:${row.code_point}`);
  r.rows.forEach((row, i) => {
    if (tableKeys[i] === keys[i]) return;
    const cells = body.rows[i].cells;
    // A combining mark is drawn on a dotted circle, as the Unicode charts draw it.
    cells[0].textContent = row.combining ? `\u25CC${row.shown}` : row.shown;
    cells[0].className = 'ch';
    cells[1].textContent = row.code_point;
    cells[2].textContent = row.bytes;
    cells[3].textContent = row.escape;
  });
  tableKeys = keys;
  $('pct-table-range').textContent = r.total === 0 ? ''
    : r.rows.length === r.total ? t('percent.tableAll', r.total)
      : t('percent.tableRange', r.first + 1, r.first + r.rows.length, r.total);
  // The caret's row in view, once the frame is laid out (not forcing a
  // layout of its own here).
  const at = Math.min(r.caret - r.first, r.rows.length - 1);
  if (at >= 0) {
    requestAnimationFrame(() => {
      const scroller = $('pct-table').parentElement;
      const row = body.rows[at];
      if (!row) return;
      const top = row.offsetTop - scroller.clientHeight / 2;
      scroller.scrollTop = Math.max(0, top);
    });
  }
}

// The hex dump of a binary result, laid out by the lines in view.
let dump = null;
function setBinary(r) {
  if (!r && !dump) return;
  dump = r;
  const binary = Boolean(r);
  $('pct-binary').classList.toggle('shown', binary);
  $('pct-binary').setAttribute('aria-hidden', String(!binary));
  const box = $('pct-hex');
  box.classList.toggle('shown', binary);
  box.querySelector('.spacer').style.height = binary ? `${r.dump_lines * LINE_PX}px` : '0px';
  box.style.height = binary ? `${Math.min(r.dump_lines, DUMP_VIEW) * LINE_PX + 8}px` : '';
  box.scrollTop = 0;
  renderDump();
}

function renderDump() {
  const lines = $('pct-hex').querySelector('.lines');
  if (!dump) {
    lines.textContent = '';
    return;
  }
  const from = Math.max(0, Math.floor($('pct-hex').scrollTop / LINE_PX) - 1);
  const count = DUMP_VIEW + 2;
  const shownLines = from + count <= dump.dump.length
    ? dump.dump.slice(from, from + count)
    : call(wasm.percent_dump, dump.encoded, dump.mode, from, count);
  lines.style.top = `${from * LINE_PX}px`;
  lines.textContent = shownLines.join('\n');
}

// Sign and Explain -----------------------------------------------------------

const FIELDS = {
  method: 'sign-method', url: 'sign-url', body: 'sign-body', body_type: 'sign-body-type',
  content_type: 'sign-content-type', body_hash: 'sign-body-hash',
  body_hash_algorithm: 'sign-body-hash-algorithm',
  consumer_key: 'sign-consumer-key', consumer_secret: 'sign-consumer-secret',
  token: 'sign-token', token_secret: 'sign-token-secret',
  callback: 'sign-callback', verifier: 'sign-verifier',
  signature_method: 'sign-signature-method', private_key: 'sign-private-key',
  provider: 'sign-provider', nonce: 'sign-nonce',
  timestamp: 'sign-timestamp', realm: 'sign-realm', transmission: 'sign-transmission',
};
const CREDENTIALS = ['sign-consumer-key', 'sign-consumer-secret', 'sign-token', 'sign-token-secret', 'sign-verifier',
  'sign-private-key'];
const SECRETS = ['sign-consumer-secret', 'sign-token-secret'];

function requestFields() {
  const f = {};
  for (const [name, id] of Object.entries(FIELDS)) f[name] = $(id).value;
  // WebAssembly has no clock: the browser's, for a timestamp not pinned.
  f.now = String(Math.floor(Date.now() / 1000));
  f.omit_version = !$('sign-version').checked;
  f.show_secrets = $('sign-show-secrets').checked;
  return f;
}

function markField(map, field) {
  for (const id of Object.values(map)) $(id).removeAttribute('aria-invalid');
  if (field && map[field]) $(map[field]).setAttribute('aria-invalid', 'true');
}

// Nothing signed yet: no URL typed.
const UNSIGNED = {
  params: [], normalized: '', base_string_lines: [], signing_key: '', signature: '', header: '',
  curl: '', warnings: [], hints: [], error: null,
};

let endpoints = null;

// The media type is asked for only for other bytes (JSON's is JSON's).
function bodyTypeShown() {
  const bytes = $('sign-body-type').value === 'bytes';
  $('sign-content-type').hidden = !bytes;
  document.querySelector('label[for=sign-content-type]').hidden = !bytes;
}

function sign() {
  bodyTypeShown();
  providerNote();
  const leg = $('sign-leg').value;
  const fields = requestFields();
  const authorize = leg === 'authorize';
  $('sign-authorize').hidden = !authorize;
  $('sign-stages').hidden = authorize;
  let r = UNSIGNED;
  if (authorize) {
    const url = fields.url || endpoints.authorize;
    $('sign-authorize-url').textContent = fields.token ? wasm.authorize_url(url, fields.token) : '';
    r = { ...UNSIGNED, hints: [] };
  } else if (needsFull(fields)) {
    loadFull();
    return;
  } else if (fields.url !== '') {
    r = call(wasm.sign_request, JSON.stringify(fields));
  }
  showFieldError($('sign-error'), r.error);
  markField(FIELDS, r.error && r.error.field);
  announce(r.error && $('sign-error').textContent, PAUSE);
  // A URL with bytes that must be encoded: its encoded form, in one action.
  const fix = $('sign-url-fix');
  fix.hidden = !r.url_fix;
  fix.dataset.url = r.url_fix ?? '';
  const rows = $('sign-params').tBodies[0];
  clear(rows);
  r.params.forEach(([name, value], i) => {
    const tr = document.createElement('tr');
    tr.append(text('td', String(i + 1)), text('td', name), text('td', value));
    rows.append(tr);
  });
  $('sign-normalized').textContent = r.normalized;
  const base = $('sign-base-string');
  clear(base);
  for (const line of r.base_string_lines) base.append(text('span', line, 'line'));
  $('sign-signing-key').textContent = r.rsa ? t('sign.rsaKey') : r.signing_key;
  $('sign-signature').textContent = r.signature;
  $('sign-header').textContent = r.header;
  // In the query or the body, no header is sent: what is sent is shown.
  // Nothing signed (an error): the transmission chosen.
  const sent = r.sent?.transmission || $('sign-transmission').value || 'header';
  $('sign-header-block').hidden = sent !== 'header';
  $('sign-sent-block').hidden = sent === 'header';
  const sentH = $('sign-sent-h');
  sentH.dataset.i18n = sent === 'form-body' ? 'sign.sentBody' : 'sign.sentQuery';
  sentH.textContent = t(sentH.dataset.i18n);
  $('sign-sent').textContent = { query: r.sent?.url, 'form-body': r.sent?.body }[sent] ?? '';
  $('sign-curl').textContent = r.curl;
  $('sign-curl-masked').hidden = !r.curl_masked;
  const warnings = $('sign-warnings');
  clear(warnings);
  if (authorize) {
    warnings.append(text('li', fields.token ? t('sign.notSigned') : t('sign.noToken'), 'page'));
  }
  for (const h of r.hints) {
    const li = text('li', hintText(h), 'page');
    li.dataset.hint = h.code;
    warnings.append(li);
  }
  // The library's warnings, from their kind and fields.
  for (const w of r.warnings) {
    const li = text('li', hintText(w.said));
    li.dataset.warning = w.said.code;
    warnings.append(li);
  }
}

function showSecrets() {
  const show = $('sign-show-secrets').checked;
  for (const id of SECRETS) $(id).type = show ? 'text' : 'password';
  $('sign-private-key').classList.toggle('shown', show);
}

// The providers' names as people write them (the library's are the ids).
const PROVIDER_NAMES = {
  rfc5849: 'RFC 5849', x: 'X (Twitter)', netsuite: 'NetSuite', woocommerce: 'WooCommerce',
  mastercard: 'Mastercard', lti: 'LTI 1.1', 'jira-dc': 'Jira / Confluence Data Center',
  magento: 'Magento', etrade: 'E*TRADE', trello: 'Trello', garmin: 'Garmin Connect',
  flickr: 'Flickr', discogs: 'Discogs',
};

// A provider chosen: its profile's method, transmission, body hash and
// version set in their fields, as the library's profile has them.
function chooseProvider() {
  const p = call(wasm.provider_profile, $('sign-provider').value, $('sign-url').value);
  if (p) {
    $('sign-signature-method').value = p.method;
    $('sign-transmission').value = p.transmission;
    $('sign-body-hash').value = p.body_hash;
    $('sign-body-hash-algorithm').value = p.body_hash_algorithm;
    $('sign-version').checked = p.version;
  }
  sign();
  explain();
}

// What the chosen provider's profile does, in a sentence (its realm read
// from the URL as typed).
function providerNote() {
  const note = $('sign-provider-note');
  const name = $('sign-provider').value;
  const p = call(wasm.provider_profile, name, $('sign-url').value);
  note.hidden = !p;
  if (!p) return;
  const option = (select, value) => [...$(select).options].find((o) => o.value === value)?.textContent ?? value;
  let said = t('provider.set', PROVIDER_NAMES[name] ?? name, p.method, option('sign-transmission', p.transmission),
    p.body_hash === 'never' ? t('bodyHash.neverPlain') : option('sign-body-hash', p.body_hash),
    t(p.version ? 'provider.version' : 'provider.noVersion'));
  if (p.realm_rule === 'netsuite-account') said += ` ${p.realm ? t('provider.realm', p.realm) : t('provider.realmNone')}`;
  if (p.style === 'mastercard') said += ` ${t('provider.mastercard')}`;
  if (p.method.startsWith('RSA-')) said += ` ${t('provider.rsaKey')}`;
  note.textContent = said;
}

function fillExample() {
  const example = call(wasm.sign_example);
  for (const [name, id] of Object.entries(FIELDS)) $(id).value = example[name] ?? '';
  $('sign-version').checked = !example.omit_version;
  $('sign-leg').value = 'resource';
  legNote();
  sign();
  explain();
}

function clearCredentials() {
  for (const id of CREDENTIALS) $(id).value = '';
  sign();
  explain();
}

// A step of the flow: X's endpoint for it (the library's), POST.
function chooseLeg() {
  const leg = $('sign-leg').value;
  const url = { 'request-token': endpoints.request_token, authorize: endpoints.authorize,
    'access-token': endpoints.access_token }[leg];
  if (url) {
    $('sign-url').value = url;
    if (leg !== 'authorize') {
      $('sign-method').value = 'POST';
      $('sign-body').value = '';
      $('sign-body-type').value = 'form';
    }
  }
  legNote();
  sign();
  explain();
}

function legNote() {
  const note = $('sign-leg-note');
  note.dataset.i18n = `legNote.${$('sign-leg').value}`;
  note.textContent = t(note.dataset.i18n);
}

const THEIRS = {
  their_base_string: 'explain-their-base-string',
  their_signature: 'explain-their-signature',
  their_header: 'explain-their-header',
};

function diffed(label, d) {
  const row = document.createElement('div');
  row.className = 'diff';
  const code = document.createElement('code');
  code.append(d.same_start, text('mark', d.differs), d.same_end);
  row.append(text('span', label, 'what'), code);
  return row;
}

function placeText(f) {
  const where = t(`place.${f.place}`, f.name ?? f.component);
  return f.level ? where + t('explain.level', t(`level.${f.level}`)) : where;
}

// What the client sent, captured: read by the library (its capture wing),
// in place of the Sign panel's request.
const CAPTURE = {
  capture: 'explain-capture', capture_kind: 'explain-capture-kind',
  capture_scheme: 'explain-capture-scheme', capture_entry: 'explain-capture-entry',
};
const EXPLAIN_FIELDS = { ...THEIRS, capture: 'explain-capture' };

// The entry select: the HAR entries that carry OAuth, shown when there are
// several to choose from; laid out again only when the list changed.
let entriesShown = '';
function showEntries(read) {
  const entries = read && read.kind === 'har' ? read.entries : [];
  const key = JSON.stringify([lang(), entries]);
  const select = $('explain-capture-entry');
  $('explain-capture-entry-box').hidden = entries.length < 2;
  if (key === entriesShown) return;
  entriesShown = key;
  const chosen = select.value;
  clear(select);
  select.append(new Option(t('capture.entryChoose'), ''));
  for (const e of entries) select.append(new Option(t('capture.entry', e.n, e.method, e.url), String(e.n)));
  select.value = entries.some((e) => String(e.n) === chosen) ? chosen : '';
}

// How the capture was read: the request, its warnings (the library's
// sentences in English; in another language said from their codes and the
// values they quote), which values were taken from it.
function showCaptureRead(read) {
  const box = $('explain-capture-read');
  clear(box);
  showEntries(read);
  if (!read || !read.method) return;
  const from = read.kind === 'har'
    ? t('capture.read.har', read.entry, read.entry_count, read.method, read.url)
    : read.kind === 'http'
      ? t('capture.read.http', read.method, read.url)
      : t('capture.read.curl', read.shell, read.method, read.url);
  box.append(text('p', from));
  if (read.taken.length) box.append(text('p', t('capture.taken', read.taken.join(', '))));
  for (const w of read.warnings) {
    const p = document.createElement('p');
    p.dataset.warning = w.code;
    const said = lang() === 'en' ? text('span', w.message) : text('span', hintText(w.said));
    if (lang() !== 'en' && (w.said.code === 'warn.other' || !has(w.said.code))) said.lang = 'en';
    p.append(text('code', w.code), ' ', said);
    box.append(p);
  }
}

// The provider's answer a HAR entry holds, as the library reads it: each
// error with what it means for OAuth 1.0a and what to check, and how far
// the client's clock is off when the answer is about the timestamp.
function showAnswer(a) {
  const box = $('explain-answer');
  clear(box);
  box.hidden = !a;
  if (!a) return;
  box.append(text('h3', a.status ? t('answer.hStatus', a.status) : t('answer.h')));
  for (const e of a.errors) {
    const d = document.createElement('div');
    d.className = 'provider-error';
    d.dataset.code = e.code;
    d.dataset.kind = e.kind;
    const head = document.createElement('p');
    // A v2 problem without a type (about:blank) is said by its title alone.
    const untyped = e.kind === 'x-problem' && !e.problem_type;
    head.append(text('code', untyped ? t('answer.x-problem-untyped') : t(`answer.${e.kind}`, e.code)));
    if (e.message) head.append(' ', text('q', e.message));
    d.append(head);
    // The library's sentences are English; in another language they are
    // said by the library's key for them (English, marked so, where the
    // page has no words for a key the library added since).
    for (const [key, sentence] of [['answer.meaning', e.meaning], ['answer.check', e.check]]) {
      if (!sentence) continue;
      const p = document.createElement('p');
      p.className = key.replace('.', '-');
      const own = `answer.${e.key}.${key.slice('answer.'.length)}`;
      const said = text('span', lang() !== 'en' && has(own) ? t(own) : sentence);
      if (lang() !== 'en' && !has(own)) said.lang = 'en';
      p.append(text('strong', `${t(key)} `), said);
      d.append(p);
    }
    box.append(d);
  }
  if (a.about_time) {
    const off = a.clock_offset;
    const p = off === null || off === undefined
      ? text('p', t('answer.noDate'))
      : text('p', off === 0
        ? t('answer.clockSame', a.timestamp)
        : t(off > 0 ? 'answer.clockAhead' : 'answer.clockBehind', Math.abs(off), a.timestamp));
    p.className = 'clock';
    if (off !== null && off !== undefined) p.dataset.offset = String(off);
    box.append(p);
  }
}

// The contradictions, each a sentence in the reader's language with the
// parameter's name and both values as code (data, never translated); the
// library's sentence kept in data-message for scripts.
function contradictions(list) {
  const ul = document.createElement('ul');
  ul.className = 'contradictions';
  ul.dataset.testid = 'explain-contradictions';
  for (const c of list) {
    const li = document.createElement('li');
    li.dataset.testid = 'explain-contradiction';
    li.dataset.name = c.name;
    if (c.field) li.dataset.field = c.field;
    li.dataset.message = c.message;
    const values = [c.name, c.pinned ?? '', c.captured ?? ''];
    const key = c.captured === null ? 'explain.contradictionNone' : 'explain.contradiction';
    // Placeholders no translation holds, then split: the values are set as text.
    const said = t(key, ...values.map((_, i) => `\u0001${i}\u0001`));
    said.split(/\u0001(\d)\u0001/).forEach((part, i) => li.append(i % 2 ? text('code', values[Number(part)]) : part));
    ul.append(li);
  }
  return ul;
}

function captureKind() {
  $('explain-capture-scheme-box').hidden = $('explain-capture-kind').value !== 'http';
}

// A HAR file picked or dropped: read here, as text, into the capture box.
async function readCaptureFile(file) {
  if (!file) return;
  const box = $('explain-capture');
  try {
    box.value = await file.text();
  } catch (e) {
    showCaptureRead(null);
    $('explain-capture-read').append(text('p', t('capture.fileFailed', file.name), 'error'));
    return;
  }
  const har = /\.har$/i.test(file.name) || box.value.trimStart().startsWith('{');
  if (har) $('explain-capture-kind').value = 'har';
  else if (/^\s*curl\b/.test(box.value)) $('explain-capture-kind').value = 'curl';
  $('explain-capture-entry').value = '';
  captureKind();
  explain();
}

function explain() {
  const ev = requestFields();
  for (const [name, id] of Object.entries(THEIRS)) ev[name] = $(id).value;
  for (const [name, id] of Object.entries(CAPTURE)) ev[name] = $(id).value;
  // Nothing of theirs yet: nothing to compare (the library's answer too,
  // without loading the module that explains).
  const given = [...Object.keys(THEIRS), 'capture'].some((name) => ev[name].trim() !== '');
  if (needsFull(ev, given)) {
    loadFull();
    return;
  }
  if (given) run('explain', 'explain_request', [JSON.stringify(ev)], explained);
  else run('explain', null, [], () => explained({ compared: false }));
}
function explained(r) {
  const out = $('explain-result');
  clear(out);
  markField(EXPLAIN_FIELDS, r.error && r.error.field);
  showCaptureRead(r.capture);
  showAnswer(r.capture && r.capture.answer);
  if (r.error) {
    const e = document.createElement('div');
    e.className = r.error.spot.said?.code === 'no-request' ? 'note' : 'error';
    showFieldError(e, r.error);
    out.append(e);
    return;
  }
  if (!r.compared) {
    out.append(text('p', t('explain.paste'), 'note'));
    return;
  }
  // A value the Sign panel pins that the capture contradicts: said first,
  // never as a cause (the capture's value is the one signed).
  const contradicted = r.contradictions ?? [];
  if (contradicted.length) out.append(contradictions(contradicted));
  if (r.matches) {
    out.append(text('p', t(contradicted.length ? 'explain.matchCaptured' : 'explain.match'), 'match'));
    return;
  }
  const list = document.createElement('ol');
  for (const c of r.causes) {
    const li = document.createElement('li');
    li.dataset.code = c.code;
    // The fix, as the library says it (for scripts), and in the reader's language.
    li.dataset.fix = c.fix.replaceAll('`', '');
    li.append(text('code', c.code, 'code'));
    const fix = has(`fix.${c.code}`) ? text('p', t(`fix.${c.code}`)) : marked('p', c.fix);
    fix.className = 'fix';
    fix.prepend(text('strong', `${t('explain.fixLabel')} `));
    li.append(fix);
    for (const f of c.findings) {
      const place = document.createElement('div');
      place.className = 'place';
      const found = document.createElement('details');
      // The library's sentence is English: in another language the
      // finding is said from how it was found, its place and its cause
      // (the sentence kept for scripts).
      found.dataset.detail = f.detail;
      found.dataset.foundBy = f.found_by;
      const how = f.found_by === 'compared' ? 'explain.foundBy' : `explain.found.${f.found_by}`;
      found.append(text('summary', t('explain.found')), lang() === 'en'
        ? marked('p', f.detail)
        : text('p', [t(how, placeText(f), c.code), f.ambiguous ? t('explain.found.ambiguous') : '']
          .filter(Boolean).join(' ')));
      place.append(text('div', t('explain.where', placeText(f)), 'detail'),
        diffed(t('explain.ours'), f.ours), diffed(t('explain.theirs'), f.theirs), found);
      li.append(place);
    }
    list.append(li);
  }
  out.append(list);
}

// Base64 ---------------------------------------------------------------------

const B64_BOXES = { text: 'b64-text', hex: 'b64-hex', encoded: 'b64-encoded' };

function showCoded(r, from) {
  showSpot($('b64-error'), r.error);
  showHints($('b64-hint'), r.hints, (h, p) => {
    if (h.code !== 'other-alphabet') return;
    const b = text('button', t('b64.useOther', t(h.args[0].word)));
    b.type = 'button';
    b.addEventListener('click', () => {
      $('b64-alphabet').value = h.args[0].word.replace('alpha.', '');
      base64('encoded');
    });
    p.append(' ', b);
  });
  for (const id of Object.values(B64_BOXES)) $(id).removeAttribute('aria-invalid');
  if (r.error) {
    $(B64_BOXES[from]).setAttribute('aria-invalid', 'true');
    // The other boxes would show what an older input was: emptied.
    for (const [name, id] of Object.entries(B64_BOXES)) if (name !== from) setValue($(id), '');
    $('b64-length').textContent = '';
    announce($('b64-error').textContent, PAUSE);
    return;
  }
  announce(null);
  if (from !== 'text') setValue($('b64-text'), r.text ?? '');
  if (from !== 'hex') setValue($('b64-hex'), r.hex);
  if (from !== 'encoded') setValue($('b64-encoded'), r.encoded);
  let length = t('b64.lengthLine', r.length);
  if (!r.utf8) length += t('b64.notText');
  if (r.digest_of.length) length += t('b64.digest', r.digest_of.join(t('b64.or')));
  $('b64-length').textContent = length;
}

let b64From = 'text';
function base64(from = b64From) {
  b64From = from;
  const alphabet = $('b64-alphabet').value;
  const padding = $('b64-padding').checked;
  const box = $(B64_BOXES[from]);
  typedIn(box);
  const shownFor = (r) => showCoded(r, from);
  if (from === 'text') run('b64', 'base64_from_text', [box.value, alphabet, padding], shownFor);
  else if (from === 'hex') run('b64', 'base64_from_hex', [box.value, alphabet, padding], shownFor);
  else run('b64', 'base64_decode', [box.value, alphabet], shownFor);
}

// Wiring -----------------------------------------------------------------------

// What a copy button copies: a box's value, a stage's text, or a table's rows
// as tab-separated name and value lines (as a spreadsheet pastes them).
function copied(source) {
  if (source.tagName === 'TEXTAREA' || source.tagName === 'INPUT') return whole.get(source) ?? source.value;
  if (source.tagName !== 'TABLE') return source.textContent;
  return [...source.tBodies[0].rows]
    .map((row) => `${row.cells[1].textContent}\t${row.cells[2].textContent}`)
    .join('\n');
}

// A copy button says what it did, to the eye and to a screen reader alike:
// its name changes with its text, and the change is announced.
function setButton(button, state) {
  if (state) button.dataset.state = state;
  else delete button.dataset.state;
  button.querySelector('.v').textContent = t(state || 'copy');
  button.querySelector('.sr').textContent = state ? t(state) : t(button.dataset.label);
}

function copyButtons() {
  for (const button of document.querySelectorAll('button.copy')) {
    button.addEventListener('click', async () => {
      const source = $(button.dataset.copy);
      try {
        await navigator.clipboard.writeText(copied(source));
        setButton(button, 'copied');
      } catch {
        // No clipboard (an insecure origin): select it for the user to copy.
        if (source.select) source.select();
        else getSelection().selectAllChildren(source);
        setButton(button, 'selected');
      }
      announce(t(button.dataset.state));
      clearTimeout(button.timer);
      button.timer = setTimeout(() => setButton(button, null), 1500);
    });
  }
}

// The language: the stored choice if the user asked to keep one, else the
// browser's first language the page speaks. Stored only when asked.
const STORE = 'oauth1-web.lang';
function stored() {
  try { return localStorage.getItem(STORE); } catch { return null; }
}
function store(code) {
  try {
    if (code) localStorage.setItem(STORE, code);
    else localStorage.removeItem(STORE);
  } catch { /* storage refused: nothing kept */ }
}
function firstLanguage() {
  const kept = stored();
  if (LANGS.includes(kept)) return kept;
  for (const l of navigator.languages ?? [navigator.language]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(code)) return code;
  }
  return 'en';
}

function showLanguage(code) {
  setLang(code, document);
  $('ui-lang').value = lang();
  legNote();
  // What the script wrote, again in this language.
  if (pctFrom === 'text') percentFromText(); else percentFromEncoded();
  sign();
  explain();
  base64();
  // A cut box's note, whose value is the same and so not set again.
  for (const note of document.querySelectorAll('p.cut')) {
    const box = note.previousElementSibling;
    if (whole.has(box)) showCut(box, whole.get(box));
  }
}

// What holds no secret is kept for the tab's life and can be sent as a
// link (state.js says which fields): a link's state first, else the tab's.
// The link's fragment is then taken off the address, so that a reload
// shows what was typed since, not the link again.
function keepState() {
  const linked = state.fromFragment(location.hash);
  const from = state.restore(document, linked ?? state.load());
  if (linked) history.replaceState(null, '', location.pathname + location.search);
  if (from.pct) pctFrom = from.pct;
  if (from.b64) b64From = from.b64;
  captureKind();
  let timer;
  const keep = () => {
    clearTimeout(timer);
    const now = state.snapshot(document, { pct: pctFrom, b64: b64From });
    state.save(now);
    $('share-link').value = location.origin + location.pathname + location.search + state.toFragment(now);
  };
  document.addEventListener('input', (e) => {
    if (e.target.id === 'share-link') return;
    clearTimeout(timer);
    timer = setTimeout(keep, 300);
  });
  addEventListener('pagehide', keep);
  keep();
}

async function main() {
  timings.start = performance.now();
  readEnglish(document);
  // The module boot.js began compiling while the page loaded, if it could.
  const compiled = await globalThis.oauth1WebModule;
  await init(compiled ? { module_or_path: compiled } : undefined);
  timings.wasm = performance.now();
  endpoints = call(wasm.x_endpoints);
  for (const name of call(wasm.signature_methods)) {
    $('sign-signature-method').append(new Option(name, name));
  }
  for (const name of call(wasm.providers)) {
    $('sign-provider').append(new Option(PROVIDER_NAMES[name] ?? name, name));
  }
  $('ui-lang-remember').checked = LANGS.includes(stored());
  $('ui-lang').addEventListener('input', () => {
    if ($('ui-lang-remember').checked) store($('ui-lang').value);
    showLanguage($('ui-lang').value);
  });
  $('ui-lang-remember').addEventListener('input', () => {
    store($('ui-lang-remember').checked ? lang() : null);
  });
  $('pct-text').addEventListener('input', percentFromText);
  const caretMoved = () => {
    if (pctFrom === 'text') charTable($('pct-text').value, $('pct-text').selectionStart);
  };
  $('pct-text').addEventListener('keyup', (e) => { if (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End') caretMoved(); });
  $('pct-text').addEventListener('click', caretMoved);
  $('pct-encoded').addEventListener('input', percentFromEncoded);
  $('pct-mode').addEventListener('input', percentFromEncoded);
  $('pct-hex').addEventListener('scroll', () => requestAnimationFrame(renderDump), { passive: true });
  const both = () => { sign(); explain(); };
  for (const id of Object.values(FIELDS)) if (id !== 'sign-provider') $(id).addEventListener('input', both);
  $('sign-provider').addEventListener('input', chooseProvider);
  $('sign-version').addEventListener('input', both);
  $('sign-show-secrets').addEventListener('input', () => { showSecrets(); sign(); });
  $('sign-example').addEventListener('click', fillExample);
  $('sign-url-fix').addEventListener('click', () => {
    const fixed = $('sign-url-fix').dataset.url;
    if (!fixed) return;
    $('sign-url').value = fixed;
    $('sign-url').focus();
    announce(t('sign.urlFixed'));
    both();
  });
  $('sign-clear').addEventListener('click', clearCredentials);
  $('sign-leg').addEventListener('input', chooseLeg);
  for (const id of Object.values(THEIRS)) $(id).addEventListener('input', explain);
  for (const id of Object.values(CAPTURE)) $(id).addEventListener('input', explain);
  $('explain-capture-kind').addEventListener('input', captureKind);
  $('explain-capture-file').addEventListener('change', (e) => readCaptureFile(e.target.files[0]));
  const capture = $('explain-capture-box');
  capture.addEventListener('dragover', (e) => { e.preventDefault(); capture.classList.add('drop'); });
  capture.addEventListener('dragleave', () => capture.classList.remove('drop'));
  capture.addEventListener('drop', (e) => {
    e.preventDefault();
    capture.classList.remove('drop');
    readCaptureFile(e.dataTransfer.files[0]);
  });
  $('b64-text').addEventListener('input', () => base64('text'));
  $('b64-hex').addEventListener('input', () => base64('hex'));
  $('b64-encoded').addEventListener('input', () => base64('encoded'));
  $('b64-alphabet').addEventListener('input', () => base64());
  $('b64-padding').addEventListener('input', () => base64());
  copyButtons();
  keepState();
  showSecrets();
  timed('load:render', () => showLanguage(firstLanguage()));
  $('load-status').hidden = true;
  document.body.dataset.ready = 'true';
  timings.ready = performance.now();
}

main().catch((e) => {
  const status = $('load-status');
  status.hidden = false;
  status.className = 'load failed';
  status.textContent = t('load.failed', String(e));
});
