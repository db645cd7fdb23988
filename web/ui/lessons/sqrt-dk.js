// "Why √d_k, measured": N pairs of standard-normal vectors of length d_k, their dot products
// before and after dividing by √d_k (histograms with the measured spread, ≈ √d_k and ≈ 1), then
// one row of such scores through a softmax with and without the scaling, with its entropy. The
// sampling runs in the core inside a worker (a second at d_k = 1024); the softmax in the page's core.
import {
  button,
  el,
  field,
  isFocused,
  lessonPanel,
  numberInput,
  sentence,
  setAttr,
  setIfIdle,
  setSentence,
  setText,
  wholeNumber,
  writeAnswer,
} from './dom.js';
import { createBars, createHistogram } from './plots.js';
import { english, formatNumber, LESSON_LIMITS, setLesson, subscript } from '../model/model.js';

const SUB_K = 'ₖ';
const BINS = 41;

function stat(name, text) {
  const out = el('output', 'lesson-stat');
  out.dataset.stat = name;
  out.textContent = text;
  return out;
}

// Requests to the sampling worker: one in flight, the newest waiting; the main thread computes
// instead if a worker cannot be started.
function createSampler(attn) {
  let worker = null;
  let failed = false;
  let seq = 0;
  let busy = false;
  let queued = null;
  const waiting = new Map();

  function start() {
    if (worker || failed) return;
    try {
      worker = new Worker(new URL('./sampler-worker.js', import.meta.url), { type: 'module' });
      worker.onmessage = (e) => finish(e.data);
      worker.onerror = (e) => {
        e.preventDefault?.();
        failed = true;
        worker?.terminate();
        worker = null;
        for (const [id, req] of waiting) finish({ id, ...local(req) });
      };
    } catch {
      failed = true;
    }
  }

  function local({ dk, count, seed, row }) {
    try {
      const r = attn.lessons.sampleDotProducts({ dk, count, seed, bins: BINS });
      const summary = (s) => ({ mean: s.mean, std: s.std, histogram: s.histogram });
      return {
        ok: true,
        dk,
        count,
        seed,
        raw: summary(r.raw),
        scaled: summary(r.scaled),
        row: Array.from(r.raw.values.subarray(0, row)),
      };
    } catch (err) {
      return { ok: false, error: err.message };
    }
  }

  function send(req) {
    busy = true;
    const id = ++seq;
    waiting.set(id, req);
    if (worker) worker.postMessage({ id, dk: req.dk, count: req.count, seed: req.seed, bins: BINS, keep: req.row });
    else setTimeout(() => finish({ id, ...local(req) }), 0);
  }

  function finish(reply) {
    const req = waiting.get(reply.id);
    if (!req) return;
    waiting.delete(reply.id);
    busy = false;
    req.done(reply);
    if (queued) {
      const next = queued;
      queued = null;
      send(next);
    }
  }

  return {
    request(req) {
      start();
      if (busy) queued = req;
      else send(req);
    },
    dispose() {
      worker?.terminate();
      worker = null;
      waiting.clear();
      queued = null;
    },
  };
}

// The controls: d_k on a log2 slider and as a number, the pair count, the seed, the row length.
function sqrtDkControls(update, { t }) {
  const dkRange = el('input');
  dkRange.type = 'range';
  dkRange.min = '0';
  dkRange.max = String(Math.log2(LESSON_LIMITS.dk[1]));
  dkRange.step = '0.05';
  dkRange.setAttribute('aria-label', t('lessons.sqrtDk.dkSlider'));
  const dkNumber = numberInput(LESSON_LIMITS.dk);
  dkNumber.setAttribute('aria-label', `d${SUB_K}`);
  dkNumber.translate = false; // a variable's name
  const dkRow = el('div', 'lesson-range');
  dkRow.append(dkRange, dkNumber);
  const dkField = el('div', 'lesson-field wide');
  dkField.append(el('span', 'lesson-field-label', t('lessons.sqrtDk.dkField')), dkRow);
  const count = numberInput(LESSON_LIMITS.count, 100);
  const seed = numberInput(LESSON_LIMITS.seed);
  const rowLength = numberInput(LESSON_LIMITS.row);
  rowLength.dataset.control = 'row-length';
  const again = button(t('lessons.sqrtDk.newSeed'));
  const controls = el('div', 'lesson-controls');
  controls.append(
    dkField,
    field(t('lessons.sqrtDk.pairs'), count),
    field(t('lessons.sqrtDk.seed'), seed),
    field(t('lessons.sqrtDk.row'), rowLength),
    again,
  );

  const setSqrt = (patch) => update((s) => setLesson(s, 'sqrtDk', patch));
  dkRange.addEventListener('input', () => setSqrt({ dk: Math.round(2 ** Number(dkRange.value)) }));
  // The fields clamp and round what is typed themselves (numberInput); a number is all they send.
  for (const [input, key] of [
    [dkNumber, 'dk'],
    [count, 'count'],
    [seed, 'seed'],
    [rowLength, 'row'],
  ]) {
    input.addEventListener('change', () => {
      const v = Number(input.value);
      if (Number.isFinite(v)) setSqrt({ [key]: v });
    });
  }
  again.addEventListener('click', () =>
    update((s) => setLesson(s, 'sqrtDk', { seed: (s.lessons.sqrtDk.seed + 1) % 2 ** 32 })),
  );
  return { controls, dkRange, dkNumber, count, seed, rowLength };
}

function figure(title, plot, caption) {
  const f = el('figure', 'lesson-figure');
  const c = el('figcaption');
  c.append(el('strong', '', title), el('br'), ...caption);
  f.append(plot.el, c);
  return f;
}

// A stat's text (`digits` significant, in the locale's decimal separator) and its exact value in
// data-value; neither while the entropy question covers it (its value is then for the question's
// judge only: answerValue).
function put(out, v, digits = 4, i18n = english) {
  writeAnswer(out, {
    value: v,
    show() {
      setText(out, i18n.decimal(formatNumber(v, digits)));
      out.dataset.value = String(v);
    },
    hide() {
      setText(out, '');
      delete out.dataset.value;
    },
  });
}

// A plot of a covered answer (the softmax rows) draws nothing until the cover comes off.
const plotAnswer = (plot, drawing) => writeAnswer(plot.el, { show: () => plot.update(drawing), hide: plot.clear });

// The two histograms, raw and scaled, with their measured spread.
function histogramsPart(i18n) {
  const { t } = i18n;
  const num = (v, digits = 3) => i18n.decimal(formatNumber(v, digits));
  const rawHist = createHistogram({ className: 'raw', i18n });
  const scaledHist = createHistogram({ className: 'scaled', i18n });
  const [rawStd, rawVar, rawMean, scaledStd, scaledVar, scaledMean] = [
    'raw-std',
    'raw-var',
    'raw-mean',
    'scaled-std',
    'scaled-var',
    'scaled-mean',
  ].map((name) => stat(name, ''));
  const rawExpected = el('span', 'lesson-note');
  const hists = el('div', 'lesson-figures');
  hists.append(
    figure(
      t('lessons.sqrtDk.rawTitle'),
      rawHist,
      sentence(
        i18n,
        'lessons.sqrtDk.rawCaption',
        {},
        { std: rawStd, expected: rawExpected, variance: rawVar, mean: rawMean },
      ),
    ),
    figure(
      t('lessons.sqrtDk.scaledTitle'),
      scaledHist,
      sentence(i18n, 'lessons.sqrtDk.scaledCaption', {}, { std: scaledStd, variance: scaledVar, mean: scaledMean }),
    ),
  );
  return {
    el: hists,
    draw({ dk, raw, scaled }, N) {
      rawHist.update({
        counts: raw.histogram.counts,
        lo: raw.histogram.lo,
        hi: raw.histogram.hi,
        mean: raw.mean,
        std: raw.std,
        description: t('lessons.sqrtDk.rawDescription', {
          count: N,
          dk,
          lo: num(raw.histogram.lo),
          hi: num(raw.histogram.hi),
          std: num(raw.std),
        }),
      });
      scaledHist.update({
        counts: scaled.histogram.counts,
        lo: scaled.histogram.lo,
        hi: scaled.histogram.hi,
        mean: scaled.mean,
        std: scaled.std,
        description: t('lessons.sqrtDk.scaledDescription', { count: N, dk, std: num(scaled.std) }),
      });
      put(rawStd, raw.std, 4, i18n);
      put(rawVar, raw.std ** 2, 4, i18n);
      put(scaledVar, scaled.std ** 2, 4, i18n);
      put(rawMean, raw.mean, 2, i18n);
      put(scaledStd, scaled.std, 4, i18n);
      put(scaledMean, scaled.mean, 2, i18n);
      setText(rawExpected, `(√${dk} = ${num(Math.sqrt(dk))})`);
    },
  };
}

// One row of scores through the softmax, unscaled and scaled, with the entropies and the uniform
// row's entropy for comparison.
function softmaxPart(attn, i18n) {
  const { t } = i18n;
  const num = (v) => i18n.decimal(formatNumber(v, 3));
  const softIntro = el('p', 'lesson-intro lesson-gap');
  const rawBars = createBars({ className: 'raw', i18n });
  const scaledBars = createBars({ className: 'scaled', i18n });
  const [hRaw, hScaled, maxRaw, maxScaled, uniform] = [
    'entropy-raw',
    'entropy-scaled',
    'max-raw',
    'max-scaled',
    'entropy-uniform',
  ].map((name) => stat(name, ''));
  const softs = el('div', 'lesson-figures');
  softs.append(
    figure(
      t('lessons.sqrtDk.softRawTitle'),
      rawBars,
      sentence(i18n, 'lessons.sqrtDk.softCaption', {}, { entropy: hRaw, max: maxRaw }),
    ),
    figure(
      t('lessons.sqrtDk.softScaledTitle'),
      scaledBars,
      sentence(i18n, 'lessons.sqrtDk.softCaption', {}, { entropy: hScaled, max: maxScaled }),
    ),
  );
  const uniformNote = el('p', 'lesson-note');
  return {
    els: [softIntro, softs, uniformNote],
    // One row of scores: the first `row` raw dot products, through the core's softmax.
    draw({ dk, row: scores }) {
      const keys = scores.length;
      const names = Array.from({ length: keys }, (_, j) => `k${subscript(j + 1)}`);
      setSentence(uniformNote, i18n, 'lessons.sqrtDk.uniform', { count: keys }, { entropy: uniform });
      const row = { data: Float32Array.from(scores), shape: [1, scores.length] };
      const plain = attn.lessons.softmax(row, { scale: 1 });
      const soft = attn.lessons.softmax(row, { scale: 1 / Math.sqrt(dk) });
      const flat = attn.lessons.softmax({ data: new Float32Array(row.shape[1]), shape: row.shape });
      setText(softIntro, t('lessons.sqrtDk.softIntro', { count: keys, dk }));
      plotAnswer(rawBars, {
        values: Array.from(plain.weights.data),
        names,
        description: t('lessons.sqrtDk.softRawDescription', {
          count: keys,
          max: num(plain.max.data[0]),
          entropy: num(plain.entropy.data[0]),
        }),
      });
      plotAnswer(scaledBars, {
        values: Array.from(soft.weights.data),
        names,
        description: t('lessons.sqrtDk.softScaledDescription', {
          dk,
          max: num(soft.max.data[0]),
          entropy: num(soft.entropy.data[0]),
        }),
      });
      put(hRaw, plain.entropy.data[0], 4, i18n);
      put(hScaled, soft.entropy.data[0], 4, i18n);
      put(maxRaw, plain.max.data[0], 4, i18n);
      put(maxScaled, soft.max.data[0], 4, i18n);
      put(uniform, flat.entropy.data[0], 4, i18n);
    },
  };
}

export function createSqrtDkPanel({ attn, update, i18n = english }) {
  const { t } = i18n;
  const { root, intro } = lessonPanel('sqrt-dk', t('lessons.sqrtDk.intro'));
  const { controls, dkRange, dkNumber, count, seed, rowLength } = sqrtDkControls(update, i18n);

  const status = el('p', 'lesson-status');
  status.setAttribute('role', 'status');
  const histograms = histogramsPart(i18n);
  const softmaxRow = softmaxPart(attn, i18n);
  const result = el('div', 'lesson-result');
  result.append(histograms.el, ...softmaxRow.els);
  root.append(intro, controls, status, result);

  const sampler = createSampler(attn);
  let requested = '';
  let shown = '';
  let reply = null;

  function draw() {
    if (!reply) return;
    if (!reply.ok) {
      setText(status, t('lessons.sqrtDk.failed', { error: reply.error }));
      status.classList.add('error');
      return;
    }
    status.classList.remove('error');
    const N = wholeNumber(reply.count, i18n);
    histograms.draw(reply, N);
    softmaxRow.draw(reply);
    setText(status, t('lessons.sqrtDk.status', { count: N, dk: reply.dk, seed: String(reply.seed) }));
    result.classList.remove('stale');
    root.dataset.shown = shown;
  }

  return {
    el: root,
    render(state) {
      const { dk, count: N, seed: sd, row } = state.lessons.sqrtDk;
      if (!isFocused(dkRange)) dkRange.value = String(Math.log2(dk));
      setAttr(dkRange, 'aria-valuetext', `d${SUB_K} = ${dk}`);
      setIfIdle(dkNumber, dk);
      setIfIdle(count, N);
      setIfIdle(seed, sd);
      setIfIdle(rowLength, row);
      const key = `${dk},${N},${sd},${row}`;
      if (key === requested) return;
      requested = key;
      delete root.dataset.shown;
      result.classList.add('stale');
      status.classList.remove('error');
      setText(status, t('lessons.sqrtDk.sampling', { count: wholeNumber(N, i18n), dk }));
      sampler.request({
        dk,
        count: N,
        seed: sd,
        row,
        done(r) {
          if (key !== requested) return; // a newer request is on its way
          reply = r;
          shown = key;
          draw();
        },
      });
    },
    dispose() {
      sampler.dispose();
    },
  };
}
