// The message catalogues (web/ui/i18n/) and their lookup (web/ui/model/i18n.js): every language
// has every English key, with every placeholder and plural form; each part's file holds only its
// own keys; the widget's language is picked as documented; numbers take the locale's separator;
// German addresses the reader as Sie throughout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import {
  LANGUAGES,
  createTranslator,
  english,
  loadEnglishParts,
  pickLanguage,
  pseudoMessages,
  translator,
} from '../../web/ui/model/i18n.js';

const I18N = new URL('../../web/ui/i18n/', import.meta.url);
const load = async (lang) => (await import(new URL(`${lang}/index.js`, I18N))).default;
const placeholders = (m) =>
  new Set([...(typeof m === 'object' ? Object.values(m).join(' ') : m).matchAll(/\{(\w+)\}/g)].map((x) => x[1]));

test('every language has exactly the English keys, each message with the English placeholders', async () => {
  const en = await load('en');
  assert.ok(Object.keys(en).length > 0);
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    const other = await load(lang);
    assert.deepEqual(
      Object.keys(other).filter((k) => !(k in en)),
      [],
      `${lang} has keys English lacks`,
    );
    assert.deepEqual(
      Object.keys(en).filter((k) => !(k in other)),
      [],
      `${lang} lacks keys`,
    );
    for (const [key, message] of Object.entries(en)) {
      assert.equal(typeof other[key], typeof message, `${lang} ${key}: a plural in one language is a plural in all`);
      for (const name of placeholders(message))
        assert.ok(placeholders(other[key]).has(name), `${lang} ${key} lacks {${name}}`);
      if (typeof message === 'object')
        assert.ok('other' in other[key] && 'other' in message, `${lang} ${key}: plural without "other"`);
    }
  }
});

test('each part’s catalogue file holds only keys named after the part, none in two files', async () => {
  for (const lang of LANGUAGES) {
    const seen = new Map();
    for (const file of readdirSync(new URL(`${lang}/`, I18N)).filter((f) => f !== 'index.js')) {
      // A part may be split in files loaded at different times (explorer.js, explorer-later.js).
      const part = file.replace(/(-[a-z]+)?\.js$/, '');
      const { default: messages } = await import(new URL(`${lang}/${file}`, I18N));
      for (const key of Object.keys(messages)) {
        assert.ok(key.startsWith(`${part}.`), `${lang}/${file}: key "${key}" does not start with "${part}."`);
        assert.ok(!seen.has(key), `${lang}: "${key}" in ${file} and ${seen.get(key)}`);
        seen.set(key, file);
      }
    }
    assert.equal(seen.size, Object.keys(await load(lang)).length, `${lang}/index.js merges every part file`);
  }
});

test('the language comes from the attribute, then the address, then the browser, else English', () => {
  assert.equal(pickLanguage({ attribute: 'de', query: 'es', browser: ['es'] }), 'de');
  assert.equal(pickLanguage({ attribute: 'fr', query: 'es-MX', browser: ['de'] }), 'es');
  assert.equal(pickLanguage({ browser: ['fr-FR', 'de-AT', 'es'] }), 'de');
  assert.equal(pickLanguage({ query: 'qps' }), 'qps');
  assert.equal(pickLanguage({ browser: ['qps'] }), 'en', 'the pseudo-locale only when asked for');
  assert.equal(pickLanguage({ attribute: '<script>', browser: [] }), 'en');
  assert.equal(pickLanguage(), 'en');
});

test('messages fill placeholders as text and choose plural forms per language', () => {
  const t = translator(
    'de',
    { 'x.one': 'Hallo {name}', 'x.n': { one: '{count} Kopf', other: '{count} Köpfe' } },
    { strict: true },
  ).t;
  assert.equal(t('x.one', { name: '<b>' }), 'Hallo <b>');
  assert.equal(t('x.n', { count: 1 }), '1 Kopf');
  assert.equal(t('x.n', { count: 2.5 }), '2,5 Köpfe');
  assert.throws(() => t('x.missing'), /no message "x\.missing"/);
  assert.equal(translator('en', {}, { strict: false }).t('x.missing'), 'x.missing');
});

test('German and Spanish write decimal commas; English a point; the minus sign is kept', async () => {
  assert.equal((await createTranslator('de')).decimal('−0.25 and 3.5'), '−0,25 and 3,5');
  assert.equal((await createTranslator('es')).decimal('1.5'), '1,5');
  assert.equal(english.decimal('1.5'), '1.5');
  assert.equal((await createTranslator('fr')).lang, 'en');
});

test('the pseudo-locale wraps and accents every message and keeps its placeholders', async () => {
  await loadEnglishParts();
  const pseudo = pseudoMessages();
  const en = await load('en');
  for (const [key, message] of Object.entries(en)) {
    const p = pseudo[key];
    for (const form of typeof message === 'object' ? Object.keys(message) : [null]) {
      const text = form ? p[form] : p;
      assert.match(text, /^\u27e6[\s\S]*\u27e7$/, key);
      for (const name of placeholders(form ? message[form] : message))
        assert.ok(text.includes(`{${name}}`), `${key} keeps {${name}}`);
    }
  }
  assert.equal((await createTranslator('qps')).t('common.loading'), '⟦Lóádíñg…⟧'.normalize());
});

test('English starts with the first drawing’s parts; the lessons’ and the training view’s text join when loaded', () => {
  // In a fresh process: what a page has before any lesson or the training view has loaded.
  const code = `
    import { english, loadEnglishParts } from ${JSON.stringify(new URL('../../web/ui/model/i18n.js', import.meta.url).href)};
    const before = ['lessonTabs.tab.cost', 'lessons.cost.intro', 'training.controls.title', 'explorer.predict.lead'].map(
      (k) => english.has(k),
    );
    await loadEnglishParts('lessons');
    const lessons = english.has('lessons.cost.intro');
    await loadEnglishParts();
    console.log(
      JSON.stringify({
        before,
        lessons,
        training: english.has('training.controls.title'),
        later: english.has('explorer.predict.lead'),
      }),
    );`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }));
  assert.deepEqual(out, { before: [true, false, false, false], lessons: true, training: true, later: true });
});

// The German page addresses its reader formally (Sie, Ihr, Ihnen) everywhere: a lesson embedded
// next to the training view must not switch to du. Informal forms are the pronouns du, dich, dir,
// dein…, euch, euer… as whole words (not inside code such as --dir=), and du-imperatives (Tippe,
// Wähle, Drück, übernimm…) where a sentence or clause starts, after a comma, "und" or "oder",
// unless "Sie" follows. The Sie-imperative (Tippen Sie) is not in the list; neither are verbs
// whose du-form is also a noun (Folge, Stelle, Teile, Rate), and "achte" before a noun is the
// ordinal (die achte Zeile).
const DU_PRONOUN =
  /(?<![\p{L}\p{N}_./=-])(du|dich|dir|dein|deine|deinem|deinen|deiner|deines|euch|euer|eure|eurem|euren|eurer|eures)(?![\p{L}\p{N}_=/])/giu;
const DU_IMPERATIVES = `addiere achte beachte bearbeite beobachte betrachte bewege drehe drück drücke entferne erhöhe
  ersetze exportiere finde fokussiere gib geh gehe halte hör höre importiere klick klicke kopiere lade lass lies lösche
  mach mache markiere merke nimm nutze öffne probiere prüfe rechne schalte schau schaue schieb schiebe schreib schreibe
  setze sieh speichere starte stell stoppe tausche tipp tippe trainiere übernimm überlege verbirg vergleiche verschiebe
  versuch versuche wähl wähle warte wechsle zeig zeige zieh ziehe`.split(/\s+/);
// Where an imperative could stand: the start of the message, of a sentence or a clause (after
// . ! ? : ; , or an opening bracket or dash), or after "und"/"oder" joining a second one.
const CLAUSE_START = /(?:^|[.!?:;,]\s+|[([–—]\s*|\b(?:und|oder)\s+)(\p{L}+)(?:\s+(\p{L}+))?/gu;

function informalForms(text) {
  const found = [...text.matchAll(DU_PRONOUN)].map((m) => m[1]);
  for (const [, word, next] of text.matchAll(CLAUSE_START)) {
    const imperative = DU_IMPERATIVES.includes(word.toLowerCase()) && next !== 'Sie';
    const ordinal = word.toLowerCase() === 'achte' && /^\p{Lu}/u.test(next ?? ''); // "die achte Zeile"
    if (imperative && !ordinal) found.push(word);
  }
  return found;
}

test('the German catalogues address the reader formally throughout (Sie, never du)', async () => {
  const de = await load('de');
  const offending = [];
  for (const [key, message] of Object.entries(de)) {
    for (const [form, text] of typeof message === 'object' ? Object.entries(message) : [['', message]]) {
      const found = informalForms(text);
      if (found.length) offending.push(`${key}${form && `.${form}`}: ${found.join(', ')}`);
    }
  }
  assert.deepEqual(offending, [], 'German messages in the du-form');
  // The check itself: it finds du in its forms and spares the formal and the look-alikes.
  assert.deepEqual(
    informalForms('Tippe zuerst eine Zahl; wähle dann deinen Kopf, zeige auf ihn oder zieh ihn zu dir.'),
    ['deinen', 'dir', 'Tippe', 'wähle', 'zeige', 'zieh'],
  );
  assert.deepEqual(
    informalForms(
      'Wählen Sie Ihren Kopf. Folge von Tokens; die siebte und achte Stelle, an der --dir=du steht (siehe oben).',
    ),
    [],
  );
});
