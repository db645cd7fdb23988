// "Your own model's attention": a JSON file of attention weights computed elsewhere (format in
// attention-json.js and docs/attention-json.md) shown with the same heatmaps and head scores as
// the trained model. A bad file gets a message naming the problem; what was shown stays.
import { createAttention } from '../../lib/attention.js';
import { el } from '../dom/dom.js';
import { createHeatmap } from '../heatmap/heatmap.js';
import { parseAttentionJson, tokenIds } from './attention-json.js';
import { headLabel } from './head-cards.js';

let core = null;
const attention = () => (core ??= createAttention());

const SNIPPET = `import json, torch
from transformers import GPT2Model, GPT2TokenizerFast
tok = GPT2TokenizerFast.from_pretrained("gpt2")
model = GPT2Model.from_pretrained("gpt2")
ids = tok("Mr and Mrs Dursley of number four. Mr and Mrs Dursley", return_tensors="pt")
with torch.no_grad():
    out = model(**ids, output_attentions=True)
json.dump({"tokens": tok.convert_ids_to_tokens(ids["input_ids"][0]),
           "attentions": [a[0].tolist() for a in out.attentions]},
          open("gpt2-attention.json", "w"))`;

function importedCard(l, h, scores, tensor, tokens, display) {
  const card = el('article', 'head-card');
  Object.assign(card.dataset, {
    importedHead: '', layer: String(l), head: String(h),
    previousToken: String(scores.previousToken), induction: String(scores.induction), duplicateToken: String(scores.duplicateToken),
  });
  const title = el('h3', 'head-title', `Layer ${l} · head ${h}`);
  const label = headLabel(scores);
  if (label) title.append(' ', el('span', 'head-badge', label));
  const numbers = el('dl', 'head-numbers');
  for (const [key, short] of [['previousToken', 'prev'], ['induction', 'induction'], ['duplicateToken', 'dup']])
    numbers.append(el('dt', '', short), el('dd', '', scores[key].toFixed(2)));
  const map = createHeatmap({ name: `import-l${l}-h${h}`, label: `Imported layer ${l} head ${h}: attention (rows: queries, columns: keys)`, kind: 'weights', small: true });
  card.append(title, numbers, map.el);
  return { card, draw: () => map.update({ tensor, rowLabels: tokens, colLabels: tokens, ...display }) };
}

export function createImportPanel({ theme }) {
  const root = el('section', 'import-panel card');
  const heading = el('h2', 'section-title', 'Your own model\u2019s attention');
  heading.id = `train-import-${Math.random().toString(36).slice(2, 8)}`;
  root.setAttribute('aria-labelledby', heading.id);
  const input = el('input');
  input.type = 'file';
  input.accept = '.json,application/json';
  input.id = `train-import-file-${Math.random().toString(36).slice(2, 8)}`;
  input.className = 'visually-hidden';
  input.dataset.importAttention = '';
  const label = el('label', 'small-button file-button', 'Import attention JSON');
  label.htmlFor = input.id;
  const hint = el('p', 'hint', 'A file { "tokens": [...], "attentions": [layer][head][query][key] }, every row a softmax, e.g. from GPT-2 with output_attentions=True:');
  const details = el('details', 'snippet');
  const code = el('pre');
  code.tabIndex = 0;  // scrollable sideways with the keyboard
  code.append(el('code', '', SNIPPET));
  details.append(el('summary', '', 'Python that writes such a file'), code);
  const status = el('p', 'import-status');
  status.setAttribute('role', 'status');
  const grid = el('div', 'head-grid');
  root.append(heading, hint, details, label, input, status, grid);

  async function show(text, name = 'the file') {
    let parsed;
    try {
      parsed = parseAttentionJson(text);
    } catch (err) {
      status.textContent = `${name.slice(0, 60)} could not be imported: ${err.message}.`;
      status.classList.add('error');
      root.dataset.importError = err.message;
      return null;
    }
    const attn = await attention();
    const ids = tokenIds(parsed.tokens);
    const T = parsed.tokens.length;
    const display = { palette: 'viridis', theme: theme() };
    const draws = [];
    grid.replaceChildren();
    parsed.layers.forEach((layer, l) => {
      const s = attn.headScores(ids, layer);
      for (let h = 0; h < layer.shape[0]; h++) {
        const scores = { previousToken: s.previousToken[h], induction: s.induction[h], duplicateToken: s.duplicateToken[h] };
        const tensor = { data: layer.data.subarray(h * T * T, (h + 1) * T * T), shape: [T, T] };
        const { card, draw } = importedCard(l, h, scores, tensor, parsed.tokens, display);
        grid.append(card);
        draws.push(draw);
      }
    });
    for (const draw of draws) draw();
    status.classList.remove('error');
    delete root.dataset.importError;
    status.textContent = `${name.slice(0, 60)}: ${parsed.layers.length} layers, ${draws.length} heads, ${T} tokens.`;
    root.dataset.imported = String(draws.length);
    return parsed;
  }

  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    await show(await file.text(), file.name);
    input.value = '';
  });

  return { el: root, show };
}
