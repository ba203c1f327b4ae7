// The page's worker (issue 42.2): the same WebAssembly calls app.js makes,
// run off the main thread for a value too long to answer between two
// keystrokes. It decides nothing: app.js names the call and its arguments,
// and shows the JSON it returns as it shows its own calls' answers. One
// worker per panel; app.js ends a panel's worker when newer input
// supersedes the call it runs, so that an old value's work never delays
// the newest. It loads the full module (pkg-full/), which answers every call.
let ready = null;
onmessage = async ({ data: { id, fn, args } }) => {
  try {
    ready ??= import('./pkg-full/oauth1_web.js').then(async (m) => { await m.default(); return m; });
    const wasm = await ready;
    // The Percent encoder answers as an edit of its last encoding: this
    // worker's last is not the page's, so each answer is the whole one.
    if (fn === 'percent_encode_text') wasm.percent_encode_text('');
    postMessage({ id, json: wasm[fn](...args) });
  } catch (e) {
    postMessage({ id, error: String(e) });
  }
};
