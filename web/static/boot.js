// A classic script, run even where the page's module cannot be: opened from
// disk (a file: URL), browsers refuse module scripts, so the page would wait
// for its WebAssembly forever. This says so, and how to serve the folder.
// The page's own script (app.js) takes over once it runs. Served, it also
// starts compiling the WebAssembly, below.
(function () {
  'use strict';
  // The WebAssembly, compiled while the page is parsed and laid out (by
  // the browser's compiler threads), not once app.js runs: app.js
  // instantiates this module, the very file wasm-bindgen's init would fetch
  // (issue 33 item 9: ready sooner). If it fails, app.js fetches it as
  // before.
  if (window.location.protocol !== 'file:' && window.WebAssembly && WebAssembly.compileStreaming) {
    window.oauth1WebModule = WebAssembly.compileStreaming(fetch('pkg/oauth1_web_bg.wasm'))
      .catch(function () { return undefined; });
  }
  var MESSAGES = {
    en: 'This page was opened from a file, and browsers do not run its WebAssembly from a file. ' +
      'Serve its folder instead: in a terminal in that folder, run python3 -m http.server, ' +
      'then open http://127.0.0.1:8000/',
    hi: 'यह पेज एक फ़ाइल से खोला गया है, और ब्राउज़र फ़ाइल से इसका WebAssembly नहीं चलाते। ' +
      'इसके बजाय उसका फ़ोल्डर सर्व करें: उस फ़ोल्डर में टर्मिनल खोलकर python3 -m http.server चलाएँ, ' +
      'फिर http://127.0.0.1:8000/ खोलें',
    tr: 'Bu sayfa bir dosyadan açıldı ve tarayıcılar WebAssembly’sini dosyadan çalıştırmaz. ' +
      'Bunun yerine klasörünü sunun: o klasörde bir terminalde python3 -m http.server komutunu çalıştırın, ' +
      'sonra http://127.0.0.1:8000/ adresini açın',
  };
  function language() {
    var stored = null;
    try { stored = window.localStorage.getItem('oauth1-web.lang'); } catch (e) { /* none */ }
    var wanted = [stored].concat(navigator.languages || [navigator.language]);
    for (var i = 0; i < wanted.length; i++) {
      var code = String(wanted[i] || '').slice(0, 2).toLowerCase();
      if (MESSAGES[code]) return code;
    }
    return 'en';
  }
  // Said in the page's language, English (its script, which would
  // translate the rest, is what cannot run), and after it in the reader's,
  // when the reader prefers Hindi or Turkish: each part marked with its
  // language, so the box and the page around it never disagree.
  function cannotLoad() {
    if (document.body && document.body.dataset.ready === 'true') return;
    var status = document.getElementById('load-status');
    if (!status) return;
    status.textContent = '';
    status.removeAttribute('lang');
    var codes = ['en'];
    if (language() !== 'en') codes.push(language());
    for (var i = 0; i < codes.length; i++) {
      if (i > 0) status.appendChild(document.createElement('br'));
      var part = document.createElement('span');
      part.lang = codes[i];
      part.textContent = MESSAGES[codes[i]];
      status.appendChild(part);
    }
    status.className = 'load failed';
    status.hidden = false;
  }
  // The module's script element is the one before this one. This script
  // is async, so the module may have failed before it runs: a module that
  // ran has set pageTimings by the page's load event, which waits for this
  // script.
  var module = document.querySelector('script[type=module]');
  if (module) module.addEventListener('error', function () {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', cannotLoad);
    else cannotLoad();
  });
  window.addEventListener('load', function () {
    if (!window.pageTimings) cannotLoad();
  });
  if (window.location.protocol === 'file:') {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', cannotLoad);
    else cannotLoad();
  }
}());
