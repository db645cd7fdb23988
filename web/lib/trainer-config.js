// The trainer's config and batches, checked the same way on both sides of the Worker boundary: the
// main thread runs these before a Worker starts (so a bad config never spawns one) and before a
// batch of the caller's crosses over; the Worker runs them again on what it receives.
import { charVocabulary, repeatedTokens, textBatch } from './training-data.js';
import { TINY_CORPUS } from './tiny-corpus.js';
import { adamOptions, normalizeConfig as normalizeModelConfig } from './transformer.js';
import { fail, formatShape, sameShape, show } from './checks.js';
import { readTokens } from './read-input.js';

const CONFIG_KEYS = ['model', 'data', 'batchSize', 'seed', 'optimizer', 'reportEvery', 'probe', 'simd'];
const DATA_KEYS = {
  repeated: ['kind', 'seqLength', 'minRepeat', 'maxRepeat', 'repeatLengths', 'allTargets'],
  text: ['kind', 'seqLength', 'text'],
  batches: ['kind', 'prefetch'],
};
const PROBE_KEYS = ['batchSize', 'seed', 'repeatLengths', 'attentions', 'headScores', 'excludeFiller', 'batch'];
const OPTIMIZER_KEYS = ['learningRate', 'betas', 'eps', 'weightDecay', 'clipNorm'];
export const MAX_STEPS_PER_CALL = 100000;
export const MAX_BATCH = 4096;
// Hugging Face's ignored label (torch's CrossEntropyLoss ignore_index); the model's own is −1.
const HF_IGNORED = -100;

export function checkKeys(object, known, name) {
  if (object === null || typeof object !== 'object' || Array.isArray(object))
    fail(`${name} must be an object, got ${show(object)}`);
  for (const key of Object.keys(object))
    if (!known.includes(key)) fail(`${name} has no option "${key}"; known: ${known.join(', ')}`);
  return object;
}

export function checkCount(value, name, fallback, max = MAX_STEPS_PER_CALL) {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1 || v > max) fail(`${name} must be an integer from 1 to ${max}, got ${show(v)}`);
  return v;
}

function checkId(x, at, vocabSize, target) {
  if (typeof x !== 'number' || !Number.isInteger(x)) fail(`${at()} is ${show(x)}; token ids must be integers`);
  if (target && (x === -1 || x === HF_IGNORED)) return;
  if (x < 0 || x >= vocabSize)
    fail(`${at()} is ${x}, outside [0, vocabSize = ${vocabSize})${target ? ' (−1 or −100 = ignored)' : ''}`);
}

/**
 * One batch { tokens, targets } of the caller's, checked against the model: [B, T] (or [T]) ids in
 * [0, vocabSize), T ≤ contextLength, B ≤ 4096, targets of the same shape where −1 and −100 mean
 * "ignored" (−100 becomes −1, the model's own). Returns { tokens, targets } as { data: Int32Array,
 * shape: [B, T] }, ready to be transferred. `name` starts every message.
 */
export function checkBatch(batch, model, name) {
  if (batch === null || typeof batch !== 'object') fail(`${name} must be { tokens, targets }, got ${show(batch)}`);
  const tokensValue = batch.tokens;
  const targetsValue = batch.targets; // each read once
  if (targetsValue === undefined)
    fail(`${name}.targets is required: the next token of each position (−1 or −100 = ignored)`);
  const { vocabSize, contextLength } = model;
  const tokens = readTokens(tokensValue, `${name}.tokens`, (x, i, at) => checkId(x, at, vocabSize, false));
  const targets = readTokens(targetsValue, `${name}.targets`, (x, i, at) => checkId(x, at, vocabSize, true));
  if (!sameShape(tokens.shape, targets.shape))
    fail(
      `${name}.targets must have the shape of ${name}.tokens ${formatShape(tokens.shape)}, got ${formatShape(targets.shape)}`,
    );
  if (tokens.T > contextLength)
    fail(`${name}.tokens has ${tokens.T} tokens per sequence, more than model.contextLength (${contextLength})`);
  if (tokens.batch > MAX_BATCH) fail(`${name}.tokens has ${tokens.batch} sequences, more than ${MAX_BATCH}`);
  let counted = 0;
  for (let i = 0; i < targets.data.length; i++) {
    if (targets.data[i] === HF_IGNORED) targets.data[i] = -1;
    if (targets.data[i] >= 0) counted++;
  }
  if (!counted) fail(`${name}.targets are all ignored (−1 or −100): there is no loss to train on`);
  const shape = [tokens.batch, tokens.T];
  return { tokens: { data: tokens.data, shape }, targets: { data: targets.data, shape: [...shape] } };
}

function normalizeData(value) {
  const data = value ?? { kind: 'repeated' };
  const kind = data?.kind ?? 'repeated';
  const known = DATA_KEYS[kind] ?? fail(`data.kind must be "repeated", "text" or "batches", got ${show(kind)}`);
  return { ...checkKeys(data, known, 'data'), kind };
}

// The names, that each is a finite number (or betas a pair), and the ranges model.trainStep accepts.
function normalizeOptimizer(value) {
  const o = { ...checkKeys(value ?? {}, OPTIMIZER_KEYS, 'optimizer') };
  for (const [key, x] of Object.entries(o)) {
    const numbers =
      key === 'betas'
        ? Array.isArray(x) && x.length === 2
          ? x
          : fail(`optimizer.betas must be an array of two numbers, got ${show(x)}`)
        : [x];
    if (key === 'clipNorm' && x === null) continue;
    for (const n of numbers)
      if (typeof n !== 'number' || !Number.isFinite(n))
        fail(`optimizer.${key} must be a finite number, got ${show(n)}`);
  }
  adamOptions(o, 'optimizer', 'optimizer.');
  return o;
}

function normalizeProbe(value, data, model) {
  if (value === false) return false;
  if (value === undefined && data.kind === 'batches') return false; // no batch to probe on unless given
  const p = {
    batchSize: 8,
    seed: 12345,
    attentions: true,
    headScores: true,
    ...checkKeys(value ?? {}, PROBE_KEYS, 'probe'),
  };
  p.batchSize = checkCount(p.batchSize, 'probe.batchSize', 8, MAX_BATCH);
  if (p.batch !== undefined) p.batch = checkBatch(p.batch, model, 'probe.batch');
  else if (data.kind === 'batches')
    fail(
      'probe.batch is required with data.kind "batches" (your own fixed batch { tokens, targets }), or set probe: false',
    );
  return p;
}

// One small batch of each generated kind, drawn here so that bad data options fail now.
function checkGenerated(c) {
  const d = c.data;
  if (d.kind === 'text') textBatch({ text: d.text, seqLength: d.seqLength, batchSize: 1 });
  if (d.kind === 'repeated') {
    const options = { vocabSize: c.model.vocabSize, seqLength: d.seqLength, batchSize: 1 };
    for (const key of ['minRepeat', 'maxRepeat', 'repeatLengths', 'allTargets'])
      if (d[key] !== undefined) options[key] = d[key];
    repeatedTokens(options);
  }
  if (c.probe?.repeatLengths !== undefined && d.kind === 'repeated')
    repeatedTokens({ vocabSize: c.model.vocabSize, seqLength: d.seqLength, repeatLengths: c.probe.repeatLengths });
}

function withVocabulary(model, data) {
  if (model === null || typeof model !== 'object') fail('trainer config needs model: the attn.transformer config');
  const m = { ...model };
  if (data.kind === 'text') {
    data.text = data.text ?? TINY_CORPUS;
    if (typeof data.text !== 'string') fail(`data.text must be a string, got ${show(data.text)}`);
    const size = charVocabulary(data.text).size;
    m.vocabSize = m.vocabSize ?? size;
    if (m.vocabSize < size) fail(`model.vocabSize ${m.vocabSize} is smaller than the text's ${size} characters`);
  }
  return { ...normalizeModelConfig(m) }; // the transformer's own check: what attn.transformer would refuse fails here
}

/** Validates a trainer config and fills its defaults (the main thread and the Worker both run it). */
export function normalizeTrainerConfig(config) {
  const c = checkKeys(config, CONFIG_KEYS, 'trainer config');
  const data = normalizeData(c.data);
  const model = withVocabulary(c.model, data);
  if (data.kind === 'batches') data.prefetch = checkCount(data.prefetch, 'data.prefetch', 2, 64);
  else {
    data.seqLength = data.seqLength ?? model.contextLength;
    if (data.seqLength > model.contextLength)
      fail(`data.seqLength ${data.seqLength} exceeds model.contextLength ${model.contextLength}`);
  }
  const out = {
    model,
    data,
    batchSize: checkCount(c.batchSize, 'batchSize', 32, MAX_BATCH),
    seed: c.seed ?? 0,
    optimizer: normalizeOptimizer(c.optimizer),
    reportEvery: checkCount(c.reportEvery, 'reportEvery', 10),
    probe: normalizeProbe(c.probe, data, model),
    simd: c.simd ?? 'auto',
  };
  if (!Number.isSafeInteger(out.seed) || out.seed < 0 || out.seed > 0xffffffff)
    fail(`seed must be an integer from 0 to 2**32 - 1, got ${show(out.seed)}`);
  if (!['auto', true, false].includes(out.simd)) fail(`simd must be 'auto', true or false, got ${show(out.simd)}`);
  checkGenerated(out);
  return out;
}
