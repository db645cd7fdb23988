// The KV-cache lesson's memory table: 2 · layers · kv_heads · head_dim · tokens · bytes for real
// configurations (GPT-2 small per token in float32, Llama-2-7B at 2 048 tokens in fp16, Llama-2-70B
// with its 8 key/value heads at 4 096 tokens, Mistral-7B with its 4 096-token windowSize), every field
// editable. Test hooks: table[data-table="kv-memory"], rows tr[data-config="<id>"], inputs
// [data-field="<field>"], the result output[data-stat="kv-bytes"] (data-value: bytes).
import { button, el, grouped } from './dom.js';
import { KV_CONFIGS, KV_FIELDS, KV_FIELD_LIMITS, english, setLesson } from '../model/model.js';
import { kvCacheBytes } from './inference-math.js';
import { explainedStat, explanation, setStat } from '../explain/explain.js';

// Column headings: inference.kv.table.<field>.
const heading = ({ t }, key) => t(`inference.kv.table.${key}`);

/** "1.07 GB": decimal units, as model cards and GPU memory are quoted (in the translator's decimal separator). */
function decimalBytes(x, { decimal } = english) {
  const units = [
    [1e12, 'TB'],
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'kB'],
  ];
  for (const [f, u] of units) if (x >= f) return decimal(`${Number((x / f).toPrecision(3))} ${u}`);
  return `${x} B`;
}

const NUMBER_TYPES = { 4: 'float32', 2: 'fp16/bf16', 1: 'int8' };

/** The explanation of one row's bytes. */
function explainRow(name, row, i18n = english) {
  const { t } = i18n;
  const { line, done } = explanation();
  const { kept, bytes } = kvCacheBytes(row);
  line(
    t('inference.kv.table.formula', {
      layers: row.layers,
      kvHeads: row.kvHeads,
      headDim: row.headDim,
      kept,
      bytes: row.bytes,
    }),
  );
  line(`= ${t('inference.kv.table.size', { bytes: grouped(bytes), size: decimalBytes(bytes, i18n) })}`, 'result');
  const type = NUMBER_TYPES[row.bytes];
  line(type ? t('inference.kv.table.why', { type }) : t('inference.kv.table.whyBytes', { count: row.bytes }), 'text');
  if (row.windowSize > 0 && row.tokens > row.windowSize)
    line(t('inference.kv.table.window', { window: grouped(row.windowSize), tokens: grouped(row.tokens) }), 'text');
  return done(t('inference.kv.table.title', { name }));
}

function fieldInput(name, key, onChange, i18n) {
  const input = el('input', 'number kv-field');
  input.type = 'number';
  [input.min, input.max] = KV_FIELD_LIMITS[key].map(String);
  input.step = '1';
  input.inputMode = 'numeric';
  input.dataset.field = key;
  input.setAttribute('aria-label', i18n.t('inference.kv.table.input', { model: name, field: heading(i18n, key) }));
  input.addEventListener('change', () => onChange(key, Number(input.value)));
  return input;
}

function tableHead(table, i18n) {
  table.append(el('caption', '', i18n.t('inference.kv.table.caption')));
  const head = el('tr');
  for (const text of [heading(i18n, 'model'), ...KV_FIELDS.map((k) => heading(i18n, k)), heading(i18n, 'cache')]) {
    const th = el('th', '', text);
    th.scope = 'col';
    head.append(th);
  }
  const thead = el('thead');
  thead.append(head);
  return thead;
}

/** { el, draw(table) }: the table of configurations; editing a field changes state.lessons.kv.table. */
export function createMemoryTable({ update, explain, i18n = english }) {
  const table = el('table', 'lesson-table kv-table');
  table.dataset.table = 'kv-memory';
  const thead = tableHead(table, i18n);
  const tbody = el('tbody');
  table.append(thead, tbody);
  let current = null;
  const rows = KV_CONFIGS.map((c, r) => {
    const tr = el('tr');
    tr.dataset.config = c.id;
    // A model's name, as its makers write it.
    const th = el('th', '', c.name);
    th.scope = 'row';
    th.translate = false;
    const set = (key, value) => {
      if (!Number.isFinite(value)) return;
      update((s) =>
        setLesson(s, 'kv', { table: s.lessons.kv.table.map((row, k) => (k === r ? { ...row, [key]: value } : row)) }),
      );
    };
    const inputs = Object.fromEntries(KV_FIELDS.map((key) => [key, fieldInput(c.name, key, set, i18n)]));
    const out = explainedStat('kv-bytes', () => explain.show(() => current && explainRow(c.name, current[r], i18n)));
    tr.append(
      th,
      ...KV_FIELDS.map((key) => {
        const td = el('td');
        td.append(inputs[key]);
        return td;
      }),
    );
    const td = el('td', 'value-cell');
    td.append(out);
    tr.append(td);
    tbody.append(tr);
    return { inputs, out };
  });
  const reset = button(i18n.t('inference.kv.table.reset'));
  reset.addEventListener('click', () => update((s) => setLesson(s, 'kv', { table: [] })));
  const scroller = el('div', 'kv-table-scroll');
  scroller.append(table);
  const box = el('div', 'kv-memory');
  box.append(scroller, reset);
  return {
    el: box,
    draw(values) {
      current = values;
      values.forEach((row, r) => {
        for (const key of KV_FIELDS) {
          const input = rows[r].inputs[key];
          if (input.getRootNode().activeElement !== input && input.value !== String(row[key]))
            input.value = String(row[key]);
        }
        const { bytes } = kvCacheBytes(row);
        setStat(
          rows[r].out,
          bytes,
          i18n.t('inference.kv.table.size', { bytes: grouped(bytes), size: decimalBytes(bytes, i18n) }),
        );
      });
    },
  };
}
