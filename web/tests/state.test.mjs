// What the page keeps and a link carries (web/static/state.js), read
// without a browser: every control of index.html is named once, as kept,
// typed, never kept or not state, and no secret field is kept. The browser
// test (#42.3 in page.test.mjs) checks the same end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const staticDir = path.resolve(here, '..', 'static');
const html = fs.readFileSync(path.join(staticDir, 'index.html'), 'utf8');
const state = await import(path.join(staticDir, 'state.js'));

test('#42.3 every control of the page is named once: kept, typed, never kept, or not state', () => {
  const controls = new Set([...html.matchAll(/<(?:input|textarea|select)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]));
  const typed = Object.values(state.TYPED).flatMap((boxes) => Object.values(boxes));
  const named = [...state.KEPT, ...typed, ...state.NEVER, ...state.NOT_STATE];
  const twice = named.filter((id, i) => named.indexOf(id) !== i);
  assert.deepEqual(twice, [], 'named in two lists');
  assert.deepEqual([...controls].filter((id) => !named.includes(id)), [], 'controls nobody decided about');
  assert.deepEqual(named.filter((id) => !controls.has(id)), [], 'names of no control');
});

test('#42.3 no field that holds a secret, or may, is kept', () => {
  const kept = [...state.KEPT, ...Object.values(state.TYPED).flatMap((boxes) => Object.values(boxes))];
  for (const id of kept) assert.doesNotMatch(id, /secret|private|verifier|signature$|header$|capture$/, id);
  for (const id of ['sign-consumer-secret', 'sign-token-secret', 'sign-private-key', 'sign-verifier']) {
    assert.ok(state.NEVER.includes(id), id);
  }
});
