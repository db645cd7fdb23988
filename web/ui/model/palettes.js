// Colour maps for the heatmaps. All are colour-blind safe: the sequential maps (viridis, cividis)
// vary monotonically in lightness, and the diverging map runs blue ↔ neutral ↔ orange, a pair that
// stays distinct under protanopia, deuteranopia and tritanopia. The diverging centre follows the
// theme so that 0 looks like "nothing" on both a light and a dark page.

const SEQUENTIAL = {
  viridis: [
    '#440154',
    '#482878',
    '#3e4989',
    '#31688e',
    '#26828e',
    '#1f9e89',
    '#35b779',
    '#6ece58',
    '#b5de2b',
    '#fde725',
  ],
  cividis: [
    '#00224e',
    '#123570',
    '#3b496c',
    '#575d6d',
    '#707173',
    '#8a8678',
    '#a59c74',
    '#c3b369',
    '#e1cc55',
    '#fee838',
  ],
  // Light-to-dark blues: low weights fade into a light page (most like a printed table).
  blues: ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c', '#08306b'],
};

const DIVERGING = {
  light: [
    '#053061',
    '#2166ac',
    '#4393c3',
    '#92c5de',
    '#d1e5f0',
    '#f7f7f7',
    '#fee0b6',
    '#fdb863',
    '#e08214',
    '#b35806',
    '#7f3b08',
  ],
  dark: [
    '#9ecae1',
    '#4a90c8',
    '#2f6ea3',
    '#1f4d77',
    '#1a3550',
    '#24272c',
    '#4d3219',
    '#7a4a17',
    '#b0641a',
    '#e88b2c',
    '#ffb45c',
  ],
};

function parseHex(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

const parsed = new Map();
function stops(list) {
  let s = parsed.get(list);
  if (!s) parsed.set(list, (s = list.map(parseHex)));
  return s;
}

// Piecewise-linear interpolation in sRGB between evenly spaced stops; t is clamped to [0, 1].
function sample(list, t) {
  const s = stops(list);
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (s.length - 1);
  const i = Math.min(s.length - 2, Math.floor(x));
  const f = x - i;
  const a = s[i];
  const b = s[i + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

const css = ([r, g, b]) => `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;

// WCAG relative luminance, to pick black or white text on a cell: whichever contrasts more, which
// is always at least 4.58:1 (the two ratios are equal at luminance 0.179).
function luminance([r, g, b]) {
  const lin = (c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * A "nice" bound at or above |x| (1, 1.5, 2, 3, 5, 7.5 × 10^k): colour ranges snap to it, so a
 * small edit rarely rescales (and recolours) a whole matrix. Legends still print the true range.
 */
export function niceBound(x) {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const f of [1, 1.5, 2, 3, 5, 7.5, 10]) if (f * p >= x) return f * p;
  return 10 * p;
}

// The 256 colours of each colour list, made on first use and shared by every scale drawn with it:
// a scale's range changes with nearly every edit, its colours never do (a new scale used to work
// out up to 256 colours again, with their CSS text and contrast, for every map it coloured).
const LEVELS = 255;
const tables = new Map(); // colour list -> { colours: [] of 256 (filled lazily), gradient }
function tableOf(list) {
  let table = tables.get(list);
  if (!table) {
    const gradient = `linear-gradient(to right, ${Array.from({ length: 11 }, (_, i) => css(sample(list, i / 10))).join(', ')})`;
    tables.set(list, (table = { colours: new Array(LEVELS + 1), gradient }));
  }
  return table;
}

// Level `key` of 0..LEVELS of `list`: its CSS colour, the same as numbers, and its text colour.
function colourOf(list, key) {
  const rgb = sample(list, key / LEVELS);
  const L = luminance(rgb);
  return {
    background: css(rgb),
    rgb: rgb.map(Math.round), // the same colour as numbers, for pixel buffers
    text: (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? '#000' : '#fff',
  };
}

/** A colour scale: map(value) -> { background, rgb, text } plus the CSS gradient for its legend. */
export function makeScale({ kind, palette = 'viridis', theme = 'light', min = 0, max = 1 }) {
  const list =
    kind === 'diverging' ? DIVERGING[theme === 'dark' ? 'dark' : 'light'] : (SEQUENTIAL[palette] ?? SEQUENTIAL.viridis);
  const span = max - min || 1;
  const position =
    kind === 'diverging'
      ? (v) => 0.5 + v / (2 * (Math.max(Math.abs(min), Math.abs(max)) || 1))
      : (v) => (v - min) / span;
  const { colours, gradient } = tableOf(list);
  // One of 256 levels; positions outside [0, 1] take the end colours, and NaN the first.
  const colour = (t) => {
    const key = t >= 1 ? LEVELS : t > 0 ? Math.round(t * LEVELS) : 0;
    return (colours[key] ??= colourOf(list, key));
  };
  return { kind, map: (v) => colour(position(v)), gradient, min, max };
}
