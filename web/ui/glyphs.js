// Prints short numbers straight into an RGBA pixel buffer. A heatmap at d_model = 64 prints over a
// thousand cell values per keystroke, and each canvas fillText costs a few microseconds (shaping,
// recording, rasterizing): several milliseconds of a 16 ms frame. The digits of formatCell come
// from a dozen characters, so each is drawn once with fillText (per font, pixel ratio and ink),
// kept as an alpha mask, and blended into the pixels of each cell.

const atlases = new Map();

/** A CSS colour as [r, g, b], as the canvas itself parses it (cached). */
const inks = new Map();
export function rgbOf(css) {
  let rgb = inks.get(css);
  if (!rgb) {
    const c = new OffscreenCanvas(1, 1).getContext('2d');
    c.fillStyle = css;
    c.fillRect(0, 0, 1, 1);
    const [r, g, b] = c.getImageData(0, 0, 1, 1).data;
    inks.set(css, (rgb = [r, g, b]));
  }
  return rgb;
}

/** The glyphs of `font` scaled by `scale` (the device pixel ratio); built on first use. */
function atlasFor(font, scale) {
  const key = `${font}|${scale}`;
  let atlas = atlases.get(key);
  if (atlas) return atlas;
  const probe = new OffscreenCanvas(1, 1).getContext('2d');
  probe.font = font;
  const digit = probe.measureText('0');
  // Sizes in device pixels; the box holds every glyph, with a pixel of room for antialiasing.
  const ascent = Math.ceil(digit.actualBoundingBoxAscent * scale) + 1;
  const descent = Math.ceil(Math.max(digit.actualBoundingBoxDescent, 0) * scale) + 1;
  const pad = Math.ceil(2 * scale);
  const height = Math.ceil(probe.measureText('\u221e\u2212NaeM').fontBoundingBoxAscent * scale) + descent + 2 * pad;
  atlas = { glyphs: new Map(), font, scale, ascent, descent, pad, height };
  atlases.set(key, atlas);
  return atlas;
}

function glyph(atlas, ch) {
  let g = atlas.glyphs.get(ch);
  if (g) return g;
  const { font, scale, pad, height } = atlas;
  const probe = new OffscreenCanvas(1, 1).getContext('2d');
  probe.font = font;
  const advance = probe.measureText(ch).width * scale;
  const width = Math.ceil(advance) + 2 * pad;
  const c = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
  c.setTransform(scale, 0, 0, scale, 0, 0);
  c.font = font;
  c.fillStyle = '#fff';
  c.textBaseline = 'alphabetic';
  const baseline = height - pad - atlas.descent;  // device px from the top of the box
  c.fillText(ch, pad / scale, baseline / scale);
  const rgba = c.getImageData(0, 0, width, height).data;
  const alpha = new Uint8Array(width * height);
  for (let p = 0; p < alpha.length; p++) alpha[p] = rgba[4 * p + 3];
  g = { advance, width, height, baseline, alpha };
  atlas.glyphs.set(ch, g);
  return g;
}

/**
 * Blends `text` in `ink` into `data` (RGBA bytes, `stride` pixels per row) centred on (cx, cy) in
 * device pixels and clipped to the rectangle [x0, x1) × [y0, y1). Digits are centred on their
 * visual middle, as textBaseline 'middle' would place them.
 */
export function printText(data, stride, text, ink, font, scale, cx, cy, [x0, y0, x1, y1]) {
  const atlas = atlasFor(font, scale);
  const [r, g, b] = rgbOf(ink);
  let width = 0;
  for (const ch of text) width += glyph(atlas, ch).advance;
  let pen = cx - width / 2;
  // Baseline so that a digit's ink is centred vertically on cy.
  const baseline = Math.round(cy + (atlas.ascent - atlas.descent) / 2);
  for (const ch of text) {
    const gl = glyph(atlas, ch);
    const left = Math.round(pen) - atlas.pad;
    const top = baseline - gl.baseline;
    const ya = Math.max(y0, top);
    const yb = Math.min(y1, top + gl.height);
    const xa = Math.max(x0, left);
    const xb = Math.min(x1, left + gl.width);
    for (let y = ya; y < yb; y++) {
      let src = (y - top) * gl.width + (xa - left);
      let dst = 4 * (y * stride + xa);
      for (let x = xa; x < xb; x++, src++, dst += 4) {
        const a = gl.alpha[src];
        if (a === 0) continue;
        const below = data[dst + 3];
        if (below === 255) {  // an opaque cell: plain "over" blending
          const k = a / 255;
          data[dst] += (r - data[dst]) * k;
          data[dst + 1] += (g - data[dst + 1]) * k;
          data[dst + 2] += (b - data[dst + 2]) * k;
        } else {  // a transparent cell (a value with no colour): unpremultiplied "over"
          const out = a + below * (1 - a / 255);
          const k = a / out;
          data[dst] += (r - data[dst]) * k;
          data[dst + 1] += (g - data[dst + 1]) * k;
          data[dst + 2] += (b - data[dst + 2]) * k;
          data[dst + 3] = out;
        }
      }
    }
    pen += gl.advance;
  }
}
