// The page's words, read as source (no browser): each language's messages
// in web/static/i18n.js and the fixed text's keys in web/static/index.html.
//
// Issue 42.1: `b64.padding` and `b64.length` named both a label of the
// Base64 panel and the library's error about a value, so the label read as
// the error ("The Base64 padding (its = signs) does not fit its length."
// beside the padding checkbox). In Hindi and Turkish the object literal
// defined each key twice and the later, the error, won; in English the
// script's message won over the label read from the page (`readEnglish`
// keeps a message the script already has). These tests keep both from
// happening again, for every key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const staticDir = path.resolve(here, '..', 'static');
const i18nSource = fs.readFileSync(path.join(staticDir, 'i18n.js'), 'utf8');
const html = fs.readFileSync(path.join(staticDir, 'index.html'), 'utf8');
const { MESSAGES, LANGS } = await import(path.join(staticDir, 'i18n.js'));

// The keys of `const NAME = { ... };` in the order written, repeats kept
// (an object literal keeps only the last of a repeated key, so the keys
// must be read from the text). Each entry is one line, `  'key': ...` or
// `  "key": ...`.
function writtenKeys(name) {
  const start = i18nSource.indexOf(`\nconst ${name} = {\n`);
  assert.notEqual(start, -1, `no \`const ${name} = {\` in i18n.js`);
  const end = i18nSource.indexOf('\n};\n', start);
  assert.notEqual(end, -1, `\`const ${name}\` is not closed by \`};\``);
  const keys = [];
  for (const line of i18nSource.slice(start, end).split('\n').slice(2)) {
    const m = /^ {2}(['"])(.+?)\1:/.exec(line);
    if (m) keys.push(m[2]);
  }
  return keys;
}

// The keys of the page's fixed text: what `readEnglish` reads from the page.
function pageKeys() {
  const keys = new Set();
  for (const m of html.matchAll(/data-i18n="([^"]+)"/g)) keys.add(m[1]);
  for (const m of html.matchAll(/data-i18n-attr="([^"]+)"/g)) {
    for (const pair of m[1].split(';')) keys.add(pair.split(':')[1]);
  }
  for (const m of html.matchAll(/data-label="([^"]+)"/g)) keys.add(m[1]);
  return keys;
}

test('#42.1 no key is written twice in one language', () => {
  for (const lang of LANGS) {
    const keys = writtenKeys(lang);
    // Every key of the evaluated object was read from the text: the reading
    // above misses none (a key on a line of another shape would escape it).
    assert.deepEqual(new Set(keys), new Set(Object.keys(MESSAGES[lang])), `${lang}: keys read from the text`);
    const seen = new Set();
    const twice = keys.filter((k) => seen.has(k) || !seen.add(k));
    assert.deepEqual(twice, [], `${lang}: keys written more than once`);
  }
});

test("#42.1 the page's fixed text has keys of its own, never a message the script writes", () => {
  // English for the fixed text is the page's own; a script message under the
  // same key would replace it (readEnglish keeps what `en` already has).
  const fixed = pageKeys();
  assert.ok(fixed.has('b64.padLabel') && fixed.has('b64.lengthLabel'), 'the Base64 labels are read from the page');
  const shared = writtenKeys('en').filter((k) => fixed.has(k));
  assert.deepEqual(shared, [], 'keys that are both fixed text in index.html and a script message in en');
});

test('#42.1 the Base64 labels say what they are, in every language', () => {
  const labelOf = (id) => {
    const m = new RegExp(`<label for="${id}" data-i18n="([^"]+)">([^<]*)</label>`).exec(html);
    assert.ok(m, `the label of #${id}`);
    return { key: m[1], english: m[2] };
  };
  const padding = labelOf('b64-padding');
  assert.equal(padding.english, 'pad with =');
  // The label's translations (before this fix each was shadowed by the
  // error's, written later under the same key).
  assert.equal(MESSAGES.hi[padding.key], '= से पैडिंग करें');
  assert.equal(MESSAGES.tr[padding.key], '= ile doldur');
  assert.equal(MESSAGES.hi['b64.lengthLabel'], 'लंबाई:');
  assert.equal(MESSAGES.tr['b64.lengthLabel'], 'Uzunluk:');
  // The errors keep their own keys (the library's hints, web/src/b64.rs).
  assert.match(MESSAGES.en['b64.padding'], /padding/);
  assert.match(MESSAGES.en['b64.length'], /cut short/);
});
