// The KV-cache lesson's memory table: 2 · layers · kv_heads · head_dim · tokens · bytes for real
// configurations (GPT-2 small per token in float32, Llama-2-7B at 2 048 tokens in fp16, Llama-2-70B
// with its 8 key/value heads at 4 096 tokens, Mistral-7B with its 4 096-token windowSize), every field
// editable. Test hooks: table[data-table="kv-memory"], rows tr[data-config="<id>"], inputs
// [data-field="<field>"], the result output[data-stat="kv-bytes"] (data-value: bytes).
import { button, el, grouped } from './dom.js';
import { KV_CONFIGS, KV_FIELDS, KV_FIELD_LIMITS, kvCacheBytes, setLesson } from '../model/model.js';
import { explainedStat, explanation, setStat } from '../explain/explain.js';

const HEADINGS = {
  layers: 'Layers', kvHeads: 'KV heads', headDim: 'Head dim', tokens: 'Tokens', windowSize: 'Window (0 = none)', bytes: 'Bytes per number',
};

/** "1.07 GB": decimal units, as model cards and GPU memory are quoted. */
export function decimalBytes(x) {
  const units = [[1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB']];
  for (const [f, u] of units) if (x >= f) return `${Number((x / f).toPrecision(3))} ${u}`;
  return `${x} B`;
}

const numberName = (bytes) => ({ 4: 'float32', 2: 'fp16/bf16', 1: 'int8' }[bytes] ?? `${bytes}-byte numbers`);

/** The explanation of one row's bytes. */
export function explainRow(name, row) {
  const { line, done } = explanation();
  const { kept, bytes } = kvCacheBytes(row);
  line(`2 \u00b7 layers \u00b7 kv_heads \u00b7 head_dim \u00b7 tokens \u00b7 bytes = 2 \u00b7 ${row.layers} \u00b7 ${row.kvHeads} \u00b7 ${row.headDim} \u00b7 ${kept} \u00b7 ${row.bytes}`);
  line(`= ${grouped(bytes)} B \u2248 ${decimalBytes(bytes)}`, 'result');
  line(`Keys and values (the 2) for every layer, key/value head and kept token, in ${numberName(row.bytes)}.`, 'text');
  if (row.windowSize > 0 && row.tokens > row.windowSize)
    line(`The sliding window keeps only the last ${grouped(row.windowSize)} of the ${grouped(row.tokens)} tokens: the cache is a ring buffer and stops growing.`, 'text');
  return done(`KV cache of ${name}`);
}

function fieldInput(name, key, onChange) {
  const input = el('input', 'number kv-field');
  input.type = 'number';
  [input.min, input.max] = KV_FIELD_LIMITS[key].map(String);
  input.step = '1';
  input.inputMode = 'numeric';
  input.dataset.field = key;
  input.setAttribute('aria-label', `${name}: ${HEADINGS[key]}`);
  input.addEventListener('change', () => onChange(key, Number(input.value)));
  return input;
}

/** { el, draw(table) }: the table of configurations; editing a field changes state.lessons.kv.table. */
export function createMemoryTable({ update, explain }) {
  const table = el('table', 'lesson-table kv-table');
  table.dataset.table = 'kv-memory';
  table.append(el('caption', '', 'KV-cache memory: 2 \u00b7 layers \u00b7 kv_heads \u00b7 head_dim \u00b7 tokens \u00b7 bytes (edit any field)'));
  const head = el('tr');
  for (const text of ['Model', ...KV_FIELDS.map((k) => HEADINGS[k]), 'Cache']) {
    const th = el('th', '', text);
    th.scope = 'col';
    head.append(th);
  }
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  table.append(thead, tbody);
  let current = null;
  const rows = KV_CONFIGS.map((c, r) => {
    const tr = el('tr');
    tr.dataset.config = c.id;
    const th = el('th', '', c.name);
    th.scope = 'row';
    const set = (key, value) => {
      if (!Number.isFinite(value)) return;
      update((s) => setLesson(s, 'kv', { table: s.lessons.kv.table.map((row, k) => (k === r ? { ...row, [key]: value } : row)) }));
    };
    const inputs = Object.fromEntries(KV_FIELDS.map((key) => [key, fieldInput(c.name, key, set)]));
    const out = explainedStat('kv-bytes', () => current && explain.show(explainRow(c.name, current[r])));
    tr.append(th, ...KV_FIELDS.map((key) => { const td = el('td'); td.append(inputs[key]); return td; }));
    const td = el('td', 'value-cell');
    td.append(out);
    tr.append(td);
    tbody.append(tr);
    return { inputs, out };
  });
  const reset = button('Reset the table');
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
          if (input.getRootNode().activeElement !== input && input.value !== String(row[key])) input.value = String(row[key]);
        }
        const { bytes } = kvCacheBytes(row);
        setStat(rows[r].out, bytes, `${grouped(bytes)} B \u2248 ${decimalBytes(bytes)}`);
      });
    },
  };
}
