// The sentence mode control "Token vectors from": random per word (the default, embeddings.js) or
// the trained text model (trained-vectors.js), with the model's layer and head to read the
// sentence with. Choosing the model loads it (once, same origin) and replaces X and the weights;
// choosing random again brings back the sizes and weights that were there before. A head opened
// from the training view shows as a third source, "A trained head", with what it is; it cannot be
// chosen here (its model stays in the training view), only left. Layers and heads are numbered
// from 1 on the page; the options' values count from 0, as the state does.
// Test hooks: the select is [data-vector-source]; layer and head are [data-vector-layer],
// [data-vector-head]; the control's root carries data-loaded="true" once the model is there.
import { el, selectOf, setDisabled, setHidden, setText } from './dom/dom.js';
import {
  describeCheckpoint,
  describeTextModel,
  english,
  describeTrainedHead,
  headName,
  loadTextModel,
  SOURCES,
  textModel,
  textModelState,
  tokenize,
  usesCheckpoint,
  usesTextModel,
  usesTrainedHead,
} from './model/model.js';
import { explorerStateFor, onCheckpointChange, openedCheckpoint } from './checkpoint/checkpoint.js';

let uid = 0;

function labelledSelect(text, select, hook) {
  const wrap = el('div', 'field');
  select.id = `vectors-${hook}-${++uid}`;
  select.dataset[`vector${hook[0].toUpperCase()}${hook.slice(1)}`] = '';
  const label = el('label', '', text);
  label.htmlFor = select.id;
  wrap.append(label, select);
  return wrap;
}

// The word-level sentence again, with what the state had before the model took over (if known).
function backToRandom(s, saved) {
  const { tokens } = tokenize(s.sentence ?? '', 24);
  const next = { ...s, vectors: { source: 'random' }, tokens: tokens.length ? tokens : ['token'], headNames: [] };
  const matrices = { ...(saved?.matrices ?? {}) };
  delete matrices.X; // rebuilt from the words
  next.matrices = saved ? matrices : {};
  if (saved)
    Object.assign(next, {
      dModel: saved.dModel,
      dk: saved.dk,
      dv: saved.dv,
      heads: saved.heads,
      positional: saved.positional,
      scaling: saved.scaling,
      mask: { kind: saved.mask.kind },
    });
  return next;
}

// Random vectors for the trained head's tokens; its weights stay.
function leaveTrainedHead(s) {
  const { X, ...matrices } = s.matrices;
  return { ...s, vectors: { source: 'random' }, matrices, xKey: undefined };
}

const numberOptions = (n, key, { t }) => Array.from({ length: n }, (_, i) => [String(i), t(key, { k: i + 1 })]);

/**
 * The control; update(fn) is the explorer's state transition, onChoose() is told of a choice (the
 * example is no longer the preset). render(state) after each change.
 */
export function createVectorSource({ update, onChoose = () => {}, i18n = english }) {
  const { t } = i18n;
  const root = el('div', 'vector-source');
  const source = selectOf(
    '',
    SOURCES.map(([value]) => [value, t(`explorer.vectors.source.${value}`)]),
  );
  const trainedOption = source.querySelector('option[value="trained-head"]');
  const layer = selectOf('', numberOptions(2, 'explorer.vectors.layerN', i18n));
  const head = selectOf('', numberOptions(2, 'explorer.vectors.headN', i18n));
  const sourceField = labelledSelect(t('explorer.vectors.from'), source, 'source');
  const layerField = labelledSelect(t('explorer.vectors.layer'), layer, 'layer');
  const headField = labelledSelect(t('explorer.vectors.head'), head, 'head');
  const status = el('p', 'help vector-status');
  status.setAttribute('role', 'status');
  const note = el('p', 'help vector-note');
  note.id = `vectors-note-${++uid}`;
  source.setAttribute('aria-describedby', note.id);
  root.append(sourceField, layerField, headField, status, note);
  let saved = null; // the state before the model's vectors replaced its sizes and weights
  let loadingFor = false;

  const chosen = () => ({ source: 'text-model', layer: Number(layer.value) || 0, head: Number(head.value) || 0 });
  const checkpointOption = source.querySelector('option[value="checkpoint"]');
  const checkpoint = createCheckpointSource({
    update,
    status,
    fitOptions: (config) => fitOptions({ config }),
    save: (s) => {
      saved = s;
    },
    i18n,
  });

  async function useModel(vectors) {
    status.textContent = t('explorer.vectors.loadingModel');
    try {
      const model = await loadTextModel();
      fitOptions(model);
      root.dataset.loaded = 'true';
      status.textContent = '';
      update((s) => {
        if (!usesTextModel(s)) saved = s;
        return textModelState(s, vectors ?? chosen()) ?? { ...s, vectors: vectors ?? chosen() };
      });
    } catch (err) {
      status.textContent = t('explorer.vectors.modelFailed', { reason: err.message });
      source.value = 'random';
    }
  }

  function fitOptions(model) {
    if (layer.options.length !== model.config.numLayers)
      layer.replaceChildren(
        ...selectOf('', numberOptions(model.config.numLayers, 'explorer.vectors.layerN', i18n)).children,
      );
    if (head.options.length !== model.config.numHeads)
      head.replaceChildren(
        ...selectOf('', numberOptions(model.config.numHeads, 'explorer.vectors.headN', i18n)).children,
      );
  }

  source.addEventListener('change', () => {
    onChoose();
    if (source.value === 'text-model') useModel();
    else if (source.value === 'checkpoint') checkpoint.use(null, Number(layer.value) || 0, Number(head.value) || 0);
    else
      update((s) =>
        usesTextModel(s) || usesCheckpoint(s) ? backToRandom(s, saved) : usesTrainedHead(s) ? leaveTrainedHead(s) : s,
      );
  });
  for (const select of [layer, head]) {
    select.addEventListener('change', () => {
      onChoose();
      if (source.value === 'checkpoint') checkpoint.use(null, Number(layer.value) || 0, Number(head.value) || 0);
      else useModel(chosen());
    });
  }
  // Told of every checkpoint opened while this explorer is on the page; a removed explorer stops listening.
  let shown = false;
  const stop = onCheckpointChange(() => {
    if (root.isConnected) shown = true;
    else if (shown) return stop();
    return checkpoint.refreshOption(checkpointOption);
  });

  return {
    el: root,
    render(state) {
      setHidden(root, state.mode !== 'sentence');
      checkpoint.refreshOption(checkpointOption, state);
      if (usesCheckpoint(state)) {
        checkpoint.render(state, { source, layer, head, layerField, headField, note, trainedOption });
        return;
      }
      const model = usesTextModel(state);
      const trained = usesTrainedHead(state);
      // The trained head is listed only while it is shown: nothing here can bring it back.
      setHidden(trainedOption, !trained);
      setDisabled(trainedOption, !trained);
      // Short enough for the sidebar's menu; the note below says the rest.
      setText(
        trainedOption,
        trained
          ? t('explorer.vectors.trainedOption', { name: headName(state.vectors.layer, state.vectors.head, i18n) })
          : t('explorer.vectors.source.trained-head'),
      );
      source.value = model ? 'text-model' : trained ? 'trained-head' : 'random';
      setHidden(layerField, !model);
      setHidden(headField, !model);
      const randomNote = t(
        state.vectors?.left === 'trained-head'
          ? 'explorer.vectors.randomNoteLeft'
          : state.headNames?.length // only the hand-built heads example names its heads over random-source X
            ? 'explorer.vectors.handBuiltNote'
            : 'explorer.vectors.randomNote',
      );
      setText(
        note,
        model ? t('explorer.vectors.modelNote') : trained ? describeTrainedHead(state, i18n).source : randomNote,
      );
      if (!model) return;
      layer.value = String(state.vectors.layer ?? 0);
      head.value = String(state.vectors.head ?? 0);
      // A state that names the model (a link) before it has loaded: the link carries X and W (and
      // any edits to them), so the model is only loaded for the sentences typed next.
      if (!textModel() && !loadingFor) {
        loadingFor = true;
        status.textContent = t('explorer.vectors.loadingModel');
        loadTextModel()
          .then(
            (model) => {
              fitOptions(model);
              root.dataset.loaded = 'true';
              status.textContent = '';
              layer.value = String(state.vectors.layer ?? 0);
              head.value = String(state.vectors.head ?? 0);
            },
            (err) => {
              status.textContent = t('explorer.vectors.modelFailed', { reason: err.message });
            },
          )
          .finally(() => {
            loadingFor = false;
          });
      }
    },
  };
}

/**
 * The inputs panel's sentence help and vectors note for the current source (its own texts for
 * random vectors); the position control is hidden for the model, which learned its positions.
 */
export function describeVectorsIn(state, { help, note, positionalRow }, i18n = english) {
  note.dataset.randomText ??= note.textContent;
  const model = usesTextModel(state);
  const trained = usesTrainedHead(state);
  const fromCheckpoint = usesCheckpoint(state);
  setHidden(positionalRow, model || trained || fromCheckpoint);
  if (!model && !trained && !fromCheckpoint) {
    setText(note, note.dataset.randomText);
    return;
  }
  const text = fromCheckpoint
    ? describeCheckpoint(state, i18n)
    : model
      ? describeTextModel(state, undefined, i18n)
      : describeTrainedHead(state, i18n);
  setText(help, text.help);
  setText(note, text.note);
}

// The opened checkpoint as a source (web/ui/checkpoint/): choosing it, or a layer or head, asks the
// checkpoint's Worker for the head's X and W on the sentence; a sentence typed meanwhile (the state
// marks it stale) is read again. Only the latest request's answer is applied.
function createCheckpointSource({ update, status, fitOptions, save, i18n: { t } }) {
  let asked = 0;
  let pendingFor = null;
  async function use(state, layer, head) {
    const mine = ++asked;
    status.textContent = t('explorer.vectors.readingCheckpoint');
    let current = state;
    update((s) => {
      current = s;
      return s;
    });
    const sentence = current.sentence ?? '';
    pendingFor = sentence;
    try {
      const keep = { display: current.display, lessons: current.lessons, seed: current.seed };
      const built = await explorerStateFor(sentence, layer, head, keep);
      if (mine !== asked) return;
      status.textContent = built ? '' : t('explorer.vectors.typeFirst');
      if (built)
        update((s) => {
          if (!usesCheckpoint(s)) save(s);
          return built;
        });
    } catch (err) {
      if (mine === asked) status.textContent = t('explorer.vectors.checkpointFailed', { reason: err.message });
    } finally {
      if (mine === asked) pendingFor = null;
    }
  }
  return {
    use,
    refreshOption(option, state) {
      const available = Boolean(openedCheckpoint()) || usesCheckpoint(state);
      setHidden(option, !available);
      setDisabled(option, !openedCheckpoint());
      const opened = openedCheckpoint();
      if (opened) setText(option, t('explorer.vectors.openedCheckpoint', { name: opened.name }));
    },
    render(state, { source, layer, head, layerField, headField, note, trainedOption }) {
      const v = state.vectors;
      setHidden(trainedOption, true);
      source.value = 'checkpoint';
      setHidden(layerField, false);
      setHidden(headField, false);
      fitOptions({ numLayers: v.layers, numHeads: v.heads });
      layer.value = String(v.layer ?? 0);
      head.value = String(v.head ?? 0);
      setText(note, describeCheckpoint(state).source);
      if (v.stale && openedCheckpoint() && pendingFor !== state.sentence) use(state, v.layer ?? 0, v.head ?? 0);
      if (v.stale && !openedCheckpoint()) status.textContent = t('explorer.vectors.reopenCheckpoint');
    },
  };
}
