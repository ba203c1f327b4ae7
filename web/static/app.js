// The page's JavaScript only reads fields, calls the WebAssembly (the
// oauth1-signer library), and shows the JSON it returns. Every rule lives in
// Rust; nothing here encodes, decodes, signs or compares.
import init, * as wasm from './pkg/oauth1_web.js';

const $ = (id) => document.getElementById(id);
const call = (f, ...args) => JSON.parse(f(...args));

function clear(el) { el.replaceChildren(); }

function text(tag, content, cls) {
  const el = document.createElement(tag);
  el.textContent = content;
  if (cls) el.className = cls;
  return el;
}

// An error and its spot: the message, then the input with the span marked.
function showSpot(el, spot) {
  clear(el);
  if (!spot) return;
  el.append(text('div', spot.message, 'message'));
  if (spot.offset !== null && spot.offset !== undefined) {
    const shown = document.createElement('code');
    shown.className = 'spot';
    shown.append(spot.before, text('mark', spot.at || ' '), spot.after);
    el.append(shown);
  }
}

// Percent ------------------------------------------------------------------

function percentFromText() {
  const r = call(wasm.percent_encode_text, $('pct-text').value);
  $('pct-encoded').value = r.encoded;
  $('pct-bytes').textContent = `${r.byte_len} bytes: ${r.bytes}`;
  showSpot($('pct-error'), null);
  $('pct-encoded').removeAttribute('aria-invalid');
  setBinary(false, '');
}

function percentFromEncoded() {
  const r = call(wasm.percent_decode_text, $('pct-encoded').value, $('pct-mode').value);
  showSpot($('pct-error'), r.error);
  if (r.error) {
    $('pct-encoded').setAttribute('aria-invalid', 'true');
    $('pct-bytes').textContent = '';
    setBinary(false, '');
    return;
  }
  $('pct-encoded').removeAttribute('aria-invalid');
  $('pct-text').value = r.text ?? '';
  $('pct-bytes').textContent = `${r.byte_len} bytes: ${r.bytes}`;
  setBinary(r.binary, r.binary ? r.hex_dump : '');
}

function setBinary(binary, dump) {
  $('pct-binary').classList.toggle('shown', binary);
  $('pct-binary').setAttribute('aria-hidden', String(!binary));
  $('pct-hex').textContent = dump;
}

// Sign and Explain -----------------------------------------------------------

const FIELDS = {
  method: 'sign-method', url: 'sign-url', body: 'sign-body',
  consumer_key: 'sign-consumer-key', consumer_secret: 'sign-consumer-secret',
  token: 'sign-token', token_secret: 'sign-token-secret',
  signature_method: 'sign-signature-method', nonce: 'sign-nonce',
  timestamp: 'sign-timestamp', realm: 'sign-realm',
};

function requestFields() {
  const f = {};
  for (const [name, id] of Object.entries(FIELDS)) f[name] = $(id).value;
  // WebAssembly has no clock: the browser's, for a timestamp not pinned.
  f.now = String(Math.floor(Date.now() / 1000));
  return f;
}

function markField(map, field) {
  for (const id of Object.values(map)) $(id).removeAttribute('aria-invalid');
  if (field && map[field]) $(map[field]).setAttribute('aria-invalid', 'true');
}

// Nothing signed yet: no URL typed.
const UNSIGNED = { params: [], normalized: '', base_string_lines: [], signature: '', header: '', warnings: [], error: null };

function sign() {
  const fields = requestFields();
  const r = fields.url === '' ? UNSIGNED : call(wasm.sign_request, JSON.stringify(fields));
  showSpot($('sign-error'), r.error && r.error.spot);
  markField(FIELDS, r.error && r.error.field);
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
  $('sign-signature').textContent = r.signature;
  $('sign-header').textContent = r.header;
  const warnings = $('sign-warnings');
  clear(warnings);
  for (const w of r.warnings) warnings.append(text('li', w));
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

function explain() {
  const ev = requestFields();
  for (const [name, id] of Object.entries(THEIRS)) ev[name] = $(id).value;
  const r = call(wasm.explain_request, JSON.stringify(ev));
  const out = $('explain-result');
  clear(out);
  markField(THEIRS, r.error && r.error.field);
  if (r.error) {
    const e = document.createElement('div');
    e.className = 'error';
    showSpot(e, r.error.spot);
    out.append(e);
    return;
  }
  if (!r.compared) {
    out.append(text('p', 'Paste their base string, signature or header to compare.', 'note'));
    return;
  }
  if (r.matches) {
    out.append(text('p', 'They match: the other side computed what we compute.', 'match'));
    return;
  }
  const list = document.createElement('ol');
  for (const c of r.causes) {
    const li = document.createElement('li');
    li.dataset.code = c.code;
    li.append(text('code', c.code, 'code'));
    for (const f of c.findings) {
      const place = document.createElement('div');
      place.className = 'place';
      place.append(text('div', `in ${f.component}${f.level ? ` (encoder used for: ${f.level})` : ''}: ${f.detail}`, 'detail'),
        diffed('ours', f.ours), diffed('theirs', f.theirs));
      li.append(place);
    }
    list.append(li);
  }
  out.append(list);
}

// Base64 ---------------------------------------------------------------------

function showCoded(r, from) {
  showSpot($('b64-error'), r.error);
  const input = { text: 'b64-text', hex: 'b64-hex', encoded: 'b64-encoded' }[from];
  for (const id of ['b64-text', 'b64-hex', 'b64-encoded']) $(id).removeAttribute('aria-invalid');
  if (r.error) {
    $(input).setAttribute('aria-invalid', 'true');
    $('b64-length').textContent = '';
    return;
  }
  if (from !== 'text') $('b64-text').value = r.text ?? '';
  if (from !== 'hex') $('b64-hex').value = r.hex;
  if (from !== 'encoded') $('b64-encoded').value = r.encoded;
  let length = `${r.length} bytes`;
  if (r.text === null) length += ' (not UTF-8 text)';
  if (r.digest_of.length) length += ` — the length of an ${r.digest_of.join(' or ')} signature`;
  $('b64-length').textContent = length;
}

let b64From = 'text';
function base64(from = b64From) {
  b64From = from;
  const alphabet = $('b64-alphabet').value;
  const padding = $('b64-padding').checked;
  if (from === 'text') showCoded(call(wasm.base64_from_text, $('b64-text').value, alphabet, padding), from);
  else if (from === 'hex') showCoded(call(wasm.base64_from_hex, $('b64-hex').value, alphabet, padding), from);
  else showCoded(call(wasm.base64_decode, $('b64-encoded').value, alphabet), from);
}

// Wiring -----------------------------------------------------------------------

// What a copy button copies: a stage's text, or a table's rows as
// tab-separated name and value lines (as a spreadsheet pastes them).
function copied(source) {
  if (source.tagName !== 'TABLE') return source.textContent;
  return [...source.tBodies[0].rows]
    .map((row) => `${row.cells[1].textContent}\t${row.cells[2].textContent}`)
    .join('\n');
}

function copyButtons() {
  for (const button of document.querySelectorAll('button.copy')) {
    button.addEventListener('click', async () => {
      const source = $(button.dataset.copy);
      try {
        await navigator.clipboard.writeText(copied(source));
        button.textContent = 'Copied';
      } catch {
        // No clipboard (an insecure origin): select it for the user to copy.
        getSelection().selectAllChildren(source);
        button.textContent = 'Selected';
      }
      setTimeout(() => { button.textContent = 'Copy'; }, 1500);
    });
  }
}

async function main() {
  await init();
  for (const name of call(wasm.signature_methods)) {
    $('sign-signature-method').append(new Option(name, name));
  }
  $('pct-text').addEventListener('input', percentFromText);
  $('pct-encoded').addEventListener('input', percentFromEncoded);
  $('pct-mode').addEventListener('input', percentFromEncoded);
  const both = () => { sign(); explain(); };
  for (const id of Object.values(FIELDS)) $(id).addEventListener('input', both);
  for (const id of Object.values(THEIRS)) $(id).addEventListener('input', explain);
  $('b64-text').addEventListener('input', () => base64('text'));
  $('b64-hex').addEventListener('input', () => base64('hex'));
  $('b64-encoded').addEventListener('input', () => base64('encoded'));
  $('b64-alphabet').addEventListener('input', () => base64());
  $('b64-padding').addEventListener('input', () => base64());
  copyButtons();
  percentFromText();
  both();
  base64('text');
  $('loading').textContent = 'Ready: everything runs in this page.';
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  $('loading').textContent = `The WebAssembly did not load: ${e}`;
});
