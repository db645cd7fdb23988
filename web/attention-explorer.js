// <attention-explorer>: the whole explorer as one HTML element, for lesson pages.
//
//   <script type="module" src="/explorer/attention-explorer.js"></script>
//   <attention-explorer preset="causal" panels="controls inputs pipeline explain" theme="light"
//                       readonly></attention-explorer>
//
// Attributes (all optional; changes after the element is on the page are applied):
//   preset    id of a ready-made example: lesson, hand, causal, padding, saturation, heads, mixing,
//             fully-masked
//   state     an example as link text ("v1.…", what "Copy link" puts after #s=), or a whole link
//   panels    which panels to show, separated by spaces or commas: display share export controls
//             inputs pipeline heads lessons explain (default: all)
//   theme     auto | light | dark
//   readonly  present: no matrix cell can be edited; or a list of matrix names (X WQ …)
//   label     a name for this explorer (screen readers list its regions as "Inputs, <label>"):
//             give one to each explorer when a page has several
//   link-base the page "Copy link" links open (default: the index.html next to this module)
//   view      "train": the "Train a tiny transformer" view instead of the explorer ("Open in the
//             explorer" on a head removes the attribute and shows that head in the explorer)
//   example   with view="train": a trained example to open at once (induction, text)
//   lesson    one lesson alone: a lesson tab (sqrt-dk, pitfalls, …), a step of the pipeline
//             (scores, scaled, mask, softmax-row, weights, output, heads) or a training lesson
//             (induction, text); see ui/model/lesson-registry.js and docs/embedding.md
//   controls  none | minimal | full: how many controls (default full; minimal for a lesson)
//   reveal    "predict": the lesson's question hides its answer until the learner guesses
//   lang      the language of the explorer's words: en, de or es (default: ?lang= of the page's
//             address, else the reader's browser languages, else English); numbers follow it
//             (a decimal comma in German and Spanish)
//   q k v x sentence mask
//             starting numbers as text (JSON rows "[[1, 0], [0, 1]]" or "1 0; 0 1"; sentence: words;
//             mask: none, causal, padding, custom or JSON 0/1), applied over the example
// Events: "ready" and "statechange" (event.detail.state), both composed and bubbling;
// "attention-explorer:answer" (event.detail: { lesson, correct, guess, answer, … }) when a learner
// answers a predict-then-reveal question.
// Properties: ready (a Promise of the element), state (get or set a state object), link().
//
// Everything lives in an open shadow root with its own copy of styles.css (a <link>, which a
// `default-src 'self'` policy allows), so the host page's styles and ids never collide with it.
import { mountView } from './ui/mount.js';
import { STARTING_FIELDS, startingFields, stateFromHash } from './ui/model/model.js';

const STYLES = new URL('./styles.css', import.meta.url).href;
const ATTRIBUTES = [
  'preset',
  'state',
  'panels',
  'theme',
  'readonly',
  'label',
  'link-base',
  'view',
  'example',
  'lesson',
  'controls',
  'reveal',
  'lang',
  ...STARTING_FIELDS,
];
// Attributes that name another example: a change loads it afresh.
const NEW_EXAMPLE = ['preset', 'state', 'view', 'example', 'lesson', ...STARTING_FIELDS];
const list = (text) =>
  String(text)
    .split(/[\s,]+/)
    .filter(Boolean);

// "v1.…" as it is, or the state out of a whole link's #s=.
function linkText(value) {
  if (value.startsWith('v')) return value;
  try {
    return stateFromHash(new URL(value, 'https://x.invalid/').hash) ?? value;
  } catch {
    return value;
  }
}

// Importing must do nothing but define the element: in Node without a DOM (server-side rendering,
// test runners) there is no HTMLElement, so the class extends a stand-in and nothing is defined.
const ElementBase = typeof HTMLElement === 'function' ? HTMLElement : class {};

export class AttentionExplorerElement extends ElementBase {
  static get observedAttributes() {
    return ATTRIBUTES;
  }

  constructor() {
    super();
    this._handle = null;
    this._mounting = null;
    this._openState = null;
    this._pending = new Set();
    this._queued = false;
    let resolveReady;
    this.ready = new Promise((resolve) => {
      resolveReady = resolve;
    });
    this._resolveReady = resolveReady;
    const shadow = this.attachShadow({ mode: 'open' });
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = STYLES;
    this._styled = new Promise((resolve) => {
      link.addEventListener('load', resolve, { once: true });
      link.addEventListener('error', resolve, { once: true });
    });
    this._root = document.createElement('div');
    this._root.className = 'ae-host-root';
    shadow.append(link, this._root);
  }

  connectedCallback() {
    if (!this._handle && !this._mounting) this._mount();
  }

  disconnectedCallback() {
    // Moving the element (remove, then insert) keeps it; only a removal that lasts tears it down.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this._handle?.destroy();
      this._handle = null;
    });
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue || (!this._handle && !this._mounting)) return;
    this._pending.add(name);
    if (this._queued) return;
    this._queued = true;
    queueMicrotask(() => this._apply());
  }

  _options() {
    const options = { panels: undefined };
    const preset = this.getAttribute('preset');
    if (preset) options.preset = preset;
    const state = this.getAttribute('state');
    if (state) options.link = linkText(state.trim());
    if (this.hasAttribute('panels')) options.panels = list(this.getAttribute('panels'));
    const theme = this.getAttribute('theme');
    if (theme) options.theme = ['auto', 'light', 'dark'].includes(theme) ? theme : 'auto';
    const base = this.getAttribute('link-base');
    if (base) {
      try {
        const url = new URL(base, document.baseURI);
        if (url.protocol === 'https:' || url.protocol === 'http:') options.linkBase = url.href;
      } catch {
        // not a URL: links keep the default page
      }
    }
    const label = this.getAttribute('label');
    if (label) options.label = label.slice(0, 100);
    if (this.hasAttribute('readonly')) {
      const names = list(this.getAttribute('readonly'));
      options.readOnly = names.length ? names : true;
    }
    for (const name of ['lesson', 'controls', 'reveal', 'lang']) {
      const value = this.getAttribute(name);
      if (value) options[name] = value.trim();
    }
    options.start = startingFields((name) => this.getAttribute(name));
    return options;
  }

  async _mount(extra = {}) {
    const mounting = (async () => {
      await this._styled;
      // "Open in the explorer" from the training view: the element becomes an explorer of that head.
      const opened = this._openState ? { state: this._openState, link: undefined } : {};
      this._openState = null;
      const options = { ...this._options(), ...extra, ...opened };
      if (!opened.state && this.getAttribute('view') === 'train') {
        Object.assign(options, { view: 'train', example: this.getAttribute('example') ?? undefined });
        if (!options.lesson) {
          options.onOpenHead = async (head) => {
            this._openState = await (await import('./ui/model/model.js')).headState(head);
            this.removeAttribute('view');
          };
        }
      }
      const handle = await mountView(this._root, options);
      handle.onChange((state, meta) => {
        this.dispatchEvent(
          new CustomEvent('statechange', {
            detail: { state: structuredClone(state), source: meta?.source ?? 'user' },
            bubbles: true,
            composed: true,
          }),
        );
      });
      return handle;
    })();
    this._mounting = mounting;
    try {
      this._handle = await mounting;
    } finally {
      this._mounting = null;
    }
    this._resolveReady(this);
    this.dispatchEvent(
      new CustomEvent('ready', { detail: { state: this._handle.getState() }, bubbles: true, composed: true }),
    );
    return this._handle;
  }

  async _apply() {
    this._queued = false;
    await this._mounting;
    const changed = this._pending;
    this._pending = new Set();
    const handle = this._handle;
    if (!handle) return;
    if (['view', 'example', 'lesson', ...STARTING_FIELDS].some((n) => changed.has(n)))
      return this._remount({ keepState: false });
    if ([...changed].every((n) => n === 'theme' || n === 'state')) {
      if (changed.has('state') && this.getAttribute('state')) {
        // A new example: a fresh mount checks it and shows a message if it is bad.
        return this._remount({ keepState: false });
      }
      if (changed.has('theme')) {
        const s = handle.getState();
        handle.setState({ ...s, display: { ...s.display, theme: this._options().theme ?? 'auto' } });
      }
      return undefined;
    }
    // Panels, controls, read-only cells or the preset: rebuild (keeping the example unless it changed).
    return this._remount({ keepState: !NEW_EXAMPLE.some((n) => changed.has(n)) });
  }

  async _remount({ keepState }) {
    const state = keepState ? this._handle.getState() : undefined;
    this._handle.destroy();
    this._handle = null;
    this._root.replaceChildren();
    // (The starting numbers made the example kept; they are not applied over it again.)
    const extra = state ? { state, link: undefined, start: {} } : {};
    return this._mount(extra);
  }

  /** The current state (a copy), or undefined before the element is ready. */
  get state() {
    return this._handle?.getState();
  }

  /** Replaces the state; throws a StateError naming the first bad field. */
  set state(value) {
    if (!this._handle) throw new Error('attention-explorer is not ready yet: await element.ready first');
    this._handle.setState(value);
  }

  /** A link to the stand-alone explorer page showing the current state. */
  link() {
    return this._handle ? this._handle.link() : Promise.reject(new Error('attention-explorer is not ready yet'));
  }
}

if (typeof customElements === 'object' && customElements !== null && !customElements.get('attention-explorer'))
  customElements.define('attention-explorer', AttentionExplorerElement);
