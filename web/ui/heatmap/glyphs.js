// Prints short numbers straight into an RGBA pixel buffer. A heatmap at d_model = 64 prints over a
// thousand cell values per keystroke, and each canvas fillText costs a few microseconds (shaping,
// recording, rasterizing): several milliseconds of a 16 ms frame. The digits of formatCell come
// from a dozen characters, so each is drawn once with fillText (per font and pixel ratio), kept
// as an alpha mask cropped to its ink, and blended into the pixels of each cell.

// A 2D context off screen: OffscreenCanvas where there is one (Safari has it from 16.4), a
// detached <canvas> elsewhere.
function context2d(width, height, options) {
  if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(width, height).getContext('2d', options);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas.getContext('2d', options);
}

/** A CSS colour as [r, g, b], as the canvas itself parses it (cached). */
const parsed = new Map();
export function rgbOf(css) {
  let rgb = parsed.get(css);
  if (!rgb) {
    const c = context2d(1, 1);
    c.fillStyle = css;
    c.fillRect(0, 0, 1, 1);
    const [r, g, b] = c.getImageData(0, 0, 1, 1).data;
    parsed.set(css, (rgb = [r, g, b]));
  }
  return rgb;
}

// One character rasterized white on transparent; only the rows and columns with ink are kept.
function rasterize(ch, font, scale, probe) {
  const advance = probe.measureText(ch).width * scale;
  const pad = Math.ceil(2 * scale);
  const size = Math.ceil(parseFloat(font.match(/([\d.]+)px/)?.[1] ?? '16') * scale * 1.5) + 2 * pad;
  const width = Math.ceil(advance) + 2 * pad;
  const c = context2d(width, size, { willReadFrequently: true });
  c.setTransform(scale, 0, 0, scale, 0, 0);
  c.font = font;
  c.fillStyle = '#fff';
  c.textBaseline = 'alphabetic';
  const baseline = size - 2 * pad; // device px from the top; room below for descenders
  c.fillText(ch, pad / scale, baseline / scale);
  const rgba = c.getImageData(0, 0, width, size).data;
  let x0 = width;
  let x1 = -1;
  let y0 = size;
  let y1 = -1;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < width; x++) {
      if (rgba[4 * (y * width + x) + 3] === 0) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  const w = Math.max(0, x1 - x0 + 1);
  const h = Math.max(0, y1 - y0 + 1);
  const alpha = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) alpha[y * w + x] = rgba[4 * ((y + y0) * width + x + x0) + 3];
  }
  // Offsets of the ink box from the pen position on the baseline.
  return { advance, w, h, dx: x0 - pad, dy: y0 - baseline, alpha };
}

const printers = new Map();

/**
 * A printer for `font` at `scale` device pixels per CSS pixel (built once, then shared):
 * print(data, stride, text, [r, g, b], cx, cy, [x0, y0, x1, y1]) blends `text` into `data` (RGBA
 * bytes, `stride` pixels per row) centred on (cx, cy) in device pixels, clipped to the rectangle
 * [x0, x1) × [y0, y1). Digits are centred on their visual middle, as textBaseline 'middle' would.
 */
export function printerFor(font, scale) {
  const key = `${font}|${scale}`;
  let printer = printers.get(key);
  if (printer) return printer;
  const probe = context2d(1, 1);
  probe.font = font;
  const glyphs = new Map();
  const glyph = (ch) => {
    let g = glyphs.get(ch);
    if (!g) glyphs.set(ch, (g = rasterize(ch, font, scale, probe)));
    return g;
  };
  const zero = glyph('0');
  const lift = Math.round(zero.dy + zero.h / 2); // baseline to a digit's middle, in device px
  const runs = new Map(); // text -> { glyphs, width }
  const run = (text) => {
    let r = runs.get(text);
    if (!r) {
      const gs = [...text].map(glyph);
      r = { glyphs: gs, width: gs.reduce((w, g) => w + g.advance, 0) };
      if (runs.size > 4096) runs.clear();
      runs.set(text, r);
    }
    return r;
  };

  printer = {
    print(data, stride, text, [r, g, b], cx, cy, [x0, y0, x1, y1]) {
      const { glyphs: gs, width } = run(text);
      let pen = cx - width / 2;
      const baseline = Math.round(cy) - lift;
      for (const gl of gs) {
        const left = Math.round(pen) + gl.dx;
        const top = baseline + gl.dy;
        pen += gl.advance;
        const ya = Math.max(y0, top);
        const yb = Math.min(y1, top + gl.h);
        const xa = Math.max(x0, left);
        const xb = Math.min(x1, left + gl.w);
        const alpha = gl.alpha;
        for (let y = ya; y < yb; y++) {
          let src = (y - top) * gl.w + (xa - left);
          let dst = 4 * (y * stride + xa);
          for (let x = xa; x < xb; x++, src++, dst += 4) {
            const a = alpha[src];
            if (a === 0) continue;
            const below = data[dst + 3];
            if (below === 255) {
              // an opaque cell: plain "over" blending
              const k = a / 255;
              data[dst] += (r - data[dst]) * k;
              data[dst + 1] += (g - data[dst + 1]) * k;
              data[dst + 2] += (b - data[dst + 2]) * k;
            } else {
              // a transparent cell (a value with no colour): unpremultiplied "over"
              const out = a + below * (1 - a / 255);
              const k = a / out;
              data[dst] += (r - data[dst]) * k;
              data[dst + 1] += (g - data[dst + 1]) * k;
              data[dst + 2] += (b - data[dst + 2]) * k;
              data[dst + 3] = out;
            }
          }
        }
      }
    },
  };
  printers.set(key, printer);
  return printer;
}
