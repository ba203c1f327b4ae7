// What the page keeps, and what a link to it carries (issue 42.3): the
// fields that hold no secret. Kept for the tab's life in sessionStorage
// (gone when the tab closes; never localStorage), and on demand in a link's
// fragment, which a browser never sends to a server, so that a person can
// send a colleague what they are looking at. Never a secret: the consumer
// secret, the token secret, the verifier and the RSA key are not among the
// fields, nor is anything that may hold one (a captured request may carry
// cookies or other credentials; their signature and header, a PLAINTEXT
// signature, which is the signing key). A link is read as untrusted input:
// only these fields, each a string (or a checkbox's true or false), at most
// MAX_FIELD characters.

// Fields kept as they are: selects, inputs, text boxes and checkboxes.
export const KEPT = [
  'pct-mode',
  'sign-leg', 'sign-provider', 'sign-method', 'sign-url', 'sign-body-type', 'sign-body',
  'sign-content-type', 'sign-body-hash', 'sign-body-hash-algorithm', 'sign-consumer-key', 'sign-token',
  'sign-callback', 'sign-signature-method', 'sign-nonce', 'sign-timestamp', 'sign-realm',
  'sign-transmission', 'sign-version',
  'explain-their-base-string', 'explain-capture-kind', 'explain-capture-scheme',
  'b64-alphabet', 'b64-padding',
];

// Panels whose boxes compute each other: only the one typed in last is kept
// (the others are computed from it again).
export const TYPED = {
  pct: { text: 'pct-text', encoded: 'pct-encoded' },
  b64: { text: 'b64-text', hex: 'b64-hex', encoded: 'b64-encoded' },
};

// The fields never kept, said here so a test can check the two lists apart.
export const NEVER = ['sign-consumer-secret', 'sign-token-secret', 'sign-verifier', 'sign-private-key',
  'explain-their-signature', 'explain-their-header', 'explain-capture'];

// The other controls, none of them state: the language (stored only when
// the reader asks, by its own checkbox), the link itself, "show secrets"
// (never on by itself), a file picker and the HAR entry chosen (the capture
// it chooses from is not kept).
export const NOT_STATE = ['ui-lang', 'ui-lang-remember', 'share-link', 'sign-show-secrets', 'explain-capture-file',
  'explain-capture-entry'];

// A field longer than this (64 KiB of text) is not kept, in storage or a
// link: a large paste is the user's to paste again, not a copy written at
// every pause (sessionStorage holds about 5 MB an origin).
export const MAX_FIELD = 64 * 1024;

const STORE = 'oauth1-web.state';
const LINK = '#s=';

// The state of the page: each kept field's value, and the box typed in last
// of each computing panel.
export function snapshot(doc, from) {
  const fields = {};
  for (const id of KEPT) {
    const el = doc.getElementById(id);
    if (!el) continue;
    const value = el.type === 'checkbox' ? el.checked : el.value;
    if (typeof value === 'boolean' || value.length <= MAX_FIELD) fields[id] = value;
  }
  const typed = {};
  for (const [panel, boxes] of Object.entries(TYPED)) {
    const which = boxes[from[panel]] ? from[panel] : Object.keys(boxes)[0];
    const value = doc.getElementById(boxes[which]).value;
    if (value.length <= MAX_FIELD) typed[panel] = [which, value];
  }
  return { v: 1, fields, typed };
}

// Sets the fields a state holds, only those named above, and returns which
// box of each computing panel to compute from (or null where none was kept).
export function restore(doc, state) {
  const from = { pct: null, b64: null };
  if (!state || state.v !== 1 || typeof state.fields !== 'object' || state.fields === null) return from;
  for (const id of KEPT) {
    const value = state.fields[id];
    const el = doc.getElementById(id);
    if (!el || value === undefined) continue;
    if (el.type === 'checkbox') {
      if (typeof value === 'boolean') el.checked = value;
    } else if (typeof value === 'string' && value.length <= MAX_FIELD) {
      el.value = value;
    }
  }
  for (const [panel, boxes] of Object.entries(TYPED)) {
    const kept = state.typed && state.typed[panel];
    if (!Array.isArray(kept) || !Object.hasOwn(boxes, kept[0]) || typeof kept[1] !== 'string') continue;
    if (kept[1].length > MAX_FIELD) continue;
    doc.getElementById(boxes[kept[0]]).value = kept[1];
    from[panel] = kept[0];
  }
  return from;
}

// sessionStorage, where the browser allows it (a refusal keeps nothing).
export function save(state) {
  try {
    sessionStorage.setItem(STORE, JSON.stringify(state));
  } catch { /* storage refused or full: nothing kept */ }
}

export function load() {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) ?? 'null');
  } catch {
    return null;
  }
}

// The fragment of a link to this state: `#s=` and the state's JSON as
// Base64url of its UTF-8 bytes.
export function toFragment(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return LINK + btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

// The state a link's fragment carries, or null (no state, or not one this
// page wrote: refused whole rather than read in part).
export function fromFragment(hash) {
  if (!hash.startsWith(LINK)) return null;
  try {
    const b64 = hash.slice(LINK.length).replaceAll('-', '+').replaceAll('_', '/');
    const binary = atob(b64);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}
