// Every state of the lesson tabs (the inference lessons aside) that a person can reach, each
// checked with untranslatedTexts: the tabs and titles, the √d_k lesson after a new d_k, every
// mistake of the pitfalls (one head and several, with and without a mask), the mixing lesson in
// sentence mode, with several heads and with draggable points, the cost lesson following the
// explorer (one head, typed Q, K, V, several heads) and with its own sizes, every step of the token-by-
// token lesson (playing, a padding mask), the swap lesson (a swap, the same token twice, positions,
// a causal mask) and the gradients lesson (both losses, an explained cell of each map, a step,
// sentence mode). Shared by the pseudo-locale tests of the lessons.
import assert from 'node:assert/strict';
import { afterRender } from './helpers.mjs';
import { untranslatedTexts } from './i18n-helpers.mjs';

export const LESSON_TABS = ['sqrt-dk', 'pitfalls', 'hull', 'cost', 'steps', 'permutation', 'gradients'];

async function sqrtDk({ page, check, open, panel, type }) {
  await page.evaluate(() => document.getElementById('lessons').scrollIntoView());
  await open('sqrt-dk');
  await page.waitForSelector(`${panel('sqrt-dk')} [data-lesson][data-shown]`);
  await check('sqrt-dk');
  await type(`${panel('sqrt-dk')} input[type="number"]`, 256);
  await page.waitForSelector(`${panel('sqrt-dk')} [data-lesson][data-shown^="256,"]`);
  await check('sqrt-dk at d_k 256');
}

async function pitfalls({ page, check, preset, pick, setMask, open, panel }) {
  await open('pitfalls');
  for (const [setup, label] of [
    [() => preset('lesson'), 'one head'],
    [() => preset('heads'), 'several heads'],
  ]) {
    await setup();
    const mistakes = await page.$$eval(`${panel('pitfalls')} select option`, (os) => os.map((o) => o.value));
    for (const mistake of mistakes) {
      await pick(`${panel('pitfalls')} select`, mistake);
      await check(`pitfalls, ${label}, ${mistake}`);
    }
  }
  await preset('lesson');
  await setMask('none');
  await pick(`${panel('pitfalls')} select`, 'mask-after-softmax');
  await check('pitfalls without a mask');
}

async function hull({ page, check, act, preset, open, panel }) {
  await open('hull');
  await check('hull, sentence mode');
  await preset('heads');
  await check('hull, several heads');
  await preset('lesson');
  await act(() => page.click(`${panel('hull')} .lesson-inline button`));
  await check('hull, draggable values');
  await page.click(`${panel('hull')} .output-point[data-row="1"]`); // the panel redraws itself
  await page.waitForSelector(`${panel('hull')} .output-point[data-row="1"][aria-pressed="true"]`);
  await check('hull, second output picked');
}

async function cost({ check, preset, setMode, open, panel, type }) {
  await open('cost');
  await check('cost, typed Q, K, V');
  await setMode('sentence');
  await check('cost, one head of a sentence');
  await preset('heads');
  await check('cost, several heads');
  await type(`${panel('cost')} input[type="number"]`, 4096);
  await check('cost, own sizes');
  await preset('lesson');
}

async function steps({ page, check, act, setMask, open, panel }) {
  await open('steps');
  await check('steps, first token');
  await act(() => page.click(`${panel('steps')} .lesson-controls button:nth-of-type(2)`));
  await check('steps, next token');
  await act(() => page.click(`${panel('steps')} button[aria-pressed]`));
  await check('steps, playing');
  await page.click(`${panel('steps')} button[aria-pressed="true"]`);
  await setMask('padding');
  await check('steps with a padding mask');
  await setMask('causal');
}

async function permutation({ check, pick, setMask, open, panel }) {
  await open('permutation');
  await check('permutation, causal mask');
  await setMask('none');
  await pick(`${panel('permutation')} [data-control="swap-b"]`, '0');
  await pick(`${panel('permutation')} [data-control="swap-a"]`, '0');
  await check('permutation, the same token twice');
  await pick(`${panel('permutation')} [data-control="swap-b"]`, '2');
  await check('permutation, a swap');
}

async function gradients({ page, check, act, setMode, open }) {
  await open('gradients');
  await check('gradients, sentence mode');
  await setMode('qkv');
  let title = await page.textContent('.grad-explain .explain-title');
  for (const key of ['dO', 'dA', 'dS', 'dQ', 'dK', 'dV']) {
    await page.hover(`[data-heatmap="grad-${key}"] td[data-row="1"][data-col="1"]`);
    // Each map's explanation has a title of its own (its words may be in any language).
    await page.waitForFunction(
      (before) => document.querySelector('.grad-explain .explain-title').textContent !== before,
      title,
    );
    title = await page.textContent('.grad-explain .explain-title');
    await check(`gradients, ${key} explained`);
  }
  await act(() => page.click('[data-control="grad-step"]'));
  await act(() => page.click('[data-control="grad-step"]'));
  await check('gradients after two clicks');
  await page.selectOption('[data-control="grad-goal"]', 'cell');
  await page.waitForFunction(
    () => document.querySelector('#lesson-panel-gradients [data-lesson]').dataset.goal === 'cell',
  );
  await check('gradients, one output cell');
  await page.selectOption('[data-control="grad-goal"]', 'target');
}

/**
 * Walks the lessons on `page` and returns every untranslated text found, each with the state it
 * was seen in; `prepare(page)` runs before each check.
 */
export async function walkLessons(page, { prepare = async () => {} } = {}) {
  const found = [];
  const check = async (where) => {
    await prepare(page);
    for (const text of await untranslatedTexts(page, '.lessons')) found.push(`${where}: ${text}`);
  };
  const act = (action) => afterRender(page, action);
  // Each change waits for the redraw; choosing what is chosen already draws nothing.
  const preset = async (id) => {
    if ((await page.inputValue('#preset')) !== id) await act(() => page.selectOption('#preset', id));
  };
  const choose = async (name, value) => {
    if (!(await page.isChecked(`input[name="${name}"][value="${value}"]`)))
      await act(() => page.check(`input[name="${name}"][value="${value}"]`));
  };
  const pick = async (selector, value) => {
    if ((await page.inputValue(selector)) !== value) await act(() => page.selectOption(selector, value));
  };
  const setMask = (kind) => choose('mask', kind);
  const setMode = (mode) => choose('mode', mode);
  const open = async (id) => {
    await act(() => page.click(`.lesson-tab[data-panel="${id}"]`));
    await page.waitForSelector(`#lesson-panel-${id} [data-lesson]`);
  };
  const panel = (id) => `#lesson-panel-${id}`;
  const type = (selector, value) =>
    act(async () => {
      await page.fill(selector, String(value));
      await page.press(selector, 'Enter');
    });

  const w = { page, check, act, preset, pick, setMask, setMode, open, panel, type };
  for (const tab of [sqrtDk, pitfalls, hull, cost, steps, permutation, gradients]) await tab(w);
  return found;
}

/** The lessons on `page` read German: tab names, sentences, and a measured number with a decimal comma. */
export async function readsGerman(page) {
  assert.equal(await page.textContent('.lesson-tab[data-panel="pitfalls"]'), 'Fallstricke');
  await afterRender(page, () => page.click('.lesson-tab[data-panel="sqrt-dk"]'));
  await page.waitForSelector('#lesson-panel-sqrt-dk [data-lesson][data-shown]');
  assert.match(
    await page.textContent('#lesson-panel-sqrt-dk .lesson-status'),
    /^[\d.]+ Paare standardnormalverteilter Vektoren der Länge \d+, Seed \d+\.$/,
  );
  // A measured spread, written by the page: a decimal comma, never a point.
  const std = '#lesson-panel-sqrt-dk [data-stat="raw-std"]';
  const shown = await page.textContent(std);
  assert.match(shown, /^\d+,\d+$/);
  assert.ok(
    Math.abs(Number(shown.replace(',', '.')) - Number(await page.getAttribute(std, 'data-value'))) < 1e-3,
    shown,
  );
  await afterRender(page, () => page.click('.lesson-tab[data-panel="hull"]'));
  await page.waitForSelector('#lesson-panel-hull [data-lesson]');
  assert.match(
    await page.textContent('#lesson-panel-hull .lesson-intro'),
    /^Jede Ausgabezeile ist ein gewichteter Mittelwert/,
  );
}
