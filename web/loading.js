// The page's first script, a classic one on purpose: browsers run a classic <script src> where they
// refuse module scripts (a page opened from file://; a sandboxed frame, origin "null", whose server
// sends no CORS headers), so this one can always say why the explorer does not start, instead of
// "Loading…" for good. It also starts the WebAssembly download early (see preload()).
//
// The explorer's module removes the "Loading…" placeholder (#app > [data-placeholder]) as soon as
// it runs; while the placeholder is there the module has not run. Then this script replaces the
// placeholder's text with the reason and what the host must do, and sets
// #app[data-load-problem] to file | sandbox | script | old-browser | slow:
// - at once when the module script fails to load (its error event) or the page is a file:// one;
// - after SLOW_MS when nothing happened at all (the message says it may still come).
(function () {
  'use strict';
  const SLOW_MS = 2500;

  function placeholder() {
    const root = document.getElementById('app');
    return root && root.querySelector(':scope > [data-placeholder]');
  }

  function show(kind, text) {
    const line = placeholder();
    if (!line) return;
    const root = line.parentNode;
    if (root.getAttribute('data-load-problem') && kind === 'slow') return;
    line.textContent = text;
    line.className = 'status error';
    line.setAttribute('role', 'alert');
    root.setAttribute('data-load-problem', kind);
    root.setAttribute('aria-busy', 'false');
  }

  const opaque = String(self.origin) === 'null' && location.protocol !== 'file:';
  // This script runs before the catalogues (web/ui/i18n/) can load, so it carries its own few
  // messages in the page's languages, chosen as the page chooses (?lang=, then the browser's).
  function language() {
    const asked = [new URLSearchParams(location.search).get('lang')].concat(
      Array.prototype.slice.call(navigator.languages || []),
    );
    for (let k = 0; k < asked.length; k++) {
      const code = String(asked[k] || '')
        .toLowerCase()
        .split(/[-_]/)[0];
      if (code === 'de' || code === 'es' || code === 'en') return code;
    }
    return 'en';
  }
  const where = location.protocol + '//';
  function englishTexts(where) {
    return {
      loading: 'Loading the attention core…',
      file:
        'The explorer cannot start from a file opened on this computer (' +
        where +
        '): browsers refuse its module scripts and its WebAssembly there. Serve this folder over http(s) instead ' +
        '(for example "npx http-server" in the folder, or "npm start" in the attention-explorer checkout), or open the ' +
        'single-file version, attention-explorer.html (made by "npm run build:single"), which works from a file, offline.',
      sandbox:
        'The explorer could not load its scripts: it runs in a sandboxed frame (sandbox="allow-scripts" ' +
        'without allow-same-origin, so its origin is "null"), and the server of its files sends no CORS headers, so ' +
        'the browser refuses its module scripts. The host of the explorer’s files must send ' +
        '"Access-Control-Allow-Origin: *" with them, or the lesson page must add allow-same-origin to the ' +
        'iframe’s sandbox attribute.',
      script:
        'The explorer could not load its scripts. Check that all the files of the explorer’s folder are on ' +
        'the server and served as text/javascript, and that the page’s Content-Security-Policy allows ' +
        'script-src ’self’ ’wasm-unsafe-eval’ (the browser’s console names the file).',
      'old-browser':
        'This browser is too old for the explorer: it does not run JavaScript modules. Open the page in a ' +
        'current Firefox, Chrome, Edge or Safari.',
      slow:
        'The explorer’s scripts have not started yet. If this stays, the browser did not run them: its console ' +
        'names the file and the reason (a file missing on the server, a Content-Security-Policy that refuses ' +
        'script-src ’self’, a sandboxed frame whose server sends no CORS headers).',
    };
  }
  function germanTexts(where) {
    return {
      loading: 'Der Attention-Kern wird geladen…',
      file:
        'Der Explorer kann nicht aus einer Datei auf diesem Computer starten (' +
        where +
        '): Browser verweigern dort seine Modul-Skripte und sein WebAssembly. Stellen Sie diesen Ordner stattdessen über ' +
        'http(s) bereit (zum Beispiel mit "npx http-server" im Ordner oder "npm start" im attention-explorer-Checkout), ' +
        'oder öffnen Sie die Einzeldatei-Version attention-explorer.html (erstellt mit "npm run build:single"), die aus ' +
        'einer Datei und offline funktioniert.',
      sandbox:
        'Der Explorer konnte seine Skripte nicht laden: Er läuft in einem Sandbox-Frame (sandbox="allow-scripts" ohne ' +
        'allow-same-origin, sein Ursprung ist also "null"), und der Server seiner Dateien sendet keine CORS-Header, ' +
        'daher verweigert der Browser seine Modul-Skripte. Der Server der Explorer-Dateien muss ' +
        '"Access-Control-Allow-Origin: *" mitsenden, oder die Lektionsseite muss dem sandbox-Attribut des iframes ' +
        'allow-same-origin hinzufügen.',
      script:
        'Der Explorer konnte seine Skripte nicht laden. Prüfen Sie, ob alle Dateien des Explorer-Ordners auf dem ' +
        'Server liegen und als text/javascript ausgeliefert werden und ob die Content-Security-Policy der Seite ' +
        'script-src ’self’ ’wasm-unsafe-eval’ erlaubt (die Konsole des Browsers nennt die Datei).',
      'old-browser':
        'Dieser Browser ist zu alt für den Explorer: Er führt keine JavaScript-Module aus. Öffnen Sie die Seite in ' +
        'einem aktuellen Firefox, Chrome, Edge oder Safari.',
      slow:
        'Die Skripte des Explorers sind noch nicht gestartet. Bleibt es dabei, hat der Browser sie nicht ausgeführt: ' +
        'Seine Konsole nennt die Datei und den Grund (eine fehlende Datei auf dem Server, eine Content-Security-Policy, ' +
        'die script-src ’self’ verweigert, ein Sandbox-Frame, dessen Server keine CORS-Header sendet).',
    };
  }
  function spanishTexts(where) {
    return {
      loading: 'Cargando el núcleo de atención…',
      file:
        'El explorador no puede arrancar desde un archivo abierto en este ordenador (' +
        where +
        '): los navegadores rechazan ahí sus scripts de módulo y su WebAssembly. Sirva esta carpeta por http(s) ' +
        '(por ejemplo con "npx http-server" en la carpeta, o "npm start" en la copia de attention-explorer), o abra la ' +
        'versión de un solo archivo, attention-explorer.html (creada con "npm run build:single"), que funciona desde un ' +
        'archivo y sin conexión.',
      sandbox:
        'El explorador no pudo cargar sus scripts: se ejecuta en un marco aislado (sandbox="allow-scripts" sin ' +
        'allow-same-origin, así que su origen es "null"), y el servidor de sus archivos no envía cabeceras CORS, por lo ' +
        'que el navegador rechaza sus scripts de módulo. El servidor de los archivos del explorador debe enviar ' +
        '"Access-Control-Allow-Origin: *", o la página de la lección debe añadir allow-same-origin al atributo sandbox ' +
        'del iframe.',
      script:
        'El explorador no pudo cargar sus scripts. Compruebe que todos los archivos de la carpeta del explorador están ' +
        'en el servidor y se sirven como text/javascript, y que la Content-Security-Policy de la página permite ' +
        'script-src ’self’ ’wasm-unsafe-eval’ (la consola del navegador nombra el archivo).',
      'old-browser':
        'Este navegador es demasiado antiguo para el explorador: no ejecuta módulos de JavaScript. Abra la página en un ' +
        'Firefox, Chrome, Edge o Safari actual.',
      slow:
        'Los scripts del explorador aún no han arrancado. Si sigue así, el navegador no los ejecutó: su consola nombra ' +
        'el archivo y el motivo (un archivo que falta en el servidor, una Content-Security-Policy que rechaza ' +
        'script-src ’self’, un marco aislado cuyo servidor no envía cabeceras CORS).',
    };
  }
  const TEXTS = { en: englishTexts(where), de: germanTexts(where), es: spanishTexts(where) };
  const MESSAGES = TEXTS[language()];
  // The placeholder in the page's language while the modules load.
  function sayLoading() {
    const line = placeholder();
    if (line && MESSAGES !== TEXTS.en) line.textContent = MESSAGES.loading;
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', sayLoading);
  else sayLoading();

  function fail(kind) {
    if (document.readyState === 'loading')
      document.addEventListener('DOMContentLoaded', function () {
        show(kind, MESSAGES[kind]);
      });
    else show(kind, MESSAGES[kind]);
  }

  // The page's module script (or a module it imports) could not be fetched: error events of
  // resources do not bubble, but a capturing listener on window sees them.
  window.addEventListener(
    'error',
    function (event) {
      const target = event.target;
      if (!target || target.tagName !== 'SCRIPT' || target.type !== 'module') return;
      fail(location.protocol === 'file:' ? 'file' : opaque ? 'sandbox' : 'script');
    },
    true,
  );

  if (location.protocol === 'file:') fail('file');
  else if (!('noModule' in HTMLScriptElement.prototype)) fail('old-browser');
  else
    setTimeout(function () {
      show('slow', MESSAGES.slow);
    }, SLOW_MS);
})();

(function () {
  'use strict';
  const here = document.currentScript;
  // The WebAssembly build the explorer loads first, fetched now, in parallel with the modules (the
  // loader's own fetch then finds it). Only where the explorer is shown: the training view (also
  // opened by a #checkpoint= link) loads the core in its Worker, the embed builder's preview in its
  // own frame, and a preload this page leaves unused is a console warning.
  function preload(rel, href, fetchMode) {
    const link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    if (fetchMode) {
      link.as = 'fetch';
      link.crossOrigin = 'anonymous'; // what fetch(url, { credentials: 'same-origin' }) asks for
    }
    document.head.appendChild(link);
  }
  const view = /(^|[?#&])(view=(train|embed)(&|$)|checkpoint=)/.test(location.search + location.hash);
  let simd;
  try {
    // (module (func (result v128) i32.const 0 i8x16.splat)), as web/lib/load-module.js probes.
    simd = WebAssembly.validate(
      new Uint8Array([
        0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
      ]),
    );
  } catch (err) {
    simd = false;
  }
  const base = here && here.getAttribute('data-wasm');
  if (base && !view && location.protocol !== 'file:') {
    // The bundled page (dist/) loads the smaller base build first; web/ run unbundled, the whole one.
    const name =
      'attention-' + (simd ? 'simd' : 'scalar') + (here.getAttribute('data-wasm-build') === 'base' ? '-base' : '');
    preload('modulepreload', base + name + '.mjs');
    preload('preload', base + name + '.wasm', true);
  }
})();
