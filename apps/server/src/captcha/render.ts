/**
 * The image captcha's picture (SPEC §5; issue 3; issue 8 defect 6). It used to be SVG with one
 * <path> per character, whose stroke and point counts named the character: a 30-line solver
 * read 117 of 117. Now the strokes are rasterised into a PNG, so the client gets pixels only.
 * The glyphs are rotated, sheared, scaled and jittered, then the whole picture is bent by a
 * random wave, crossed by curves (one nearly as dark as the text) and decoy strokes, speckled
 * and grained. Reading it takes OCR; that is all a captcha can ask, a speed bump for scripted
 * forms, while the per-account and per-IP throttles are the defence.
 * Rasterised here (raster.ts, png.ts, node:zlib) rather than by an SVG renderer package: about
 * 150 lines, no native binary per platform to install, and ~0.5 ms an image.
 */
import crypto from 'node:crypto';
import { GLYPHS } from './glyphs.js';
import { encodePalettePng } from './png.js';
import { InkCanvas, type Point } from './raster.js';

/** The console shows it at 120 × 40 (captcha-field.tsx). */
export const CAPTCHA_WIDTH = 120;
export const CAPTCHA_HEIGHT = 40;
/** Ink levels in the palette: smooth enough edges, and fewer distinct bytes keep the PNG small. */
const LEVELS = 32;

/**
 * Random numbers from the CSPRNG, drawn from one buffer per image (a call per number would
 * cost more than the drawing). Not for secrecy of the answer, which comes from elsewhere,
 * but so that no one can predict the noise and subtract it.
 */
function randomSource() {
  let pool = crypto.randomBytes(1024);
  let at = 0;
  return {
    float(min: number, max: number): number {
      if (at + 4 > pool.length) [pool, at] = [crypto.randomBytes(1024), 0];
      const u = pool.readUInt32LE(at) / 2 ** 32;
      at += 4;
      return min + u * (max - min);
    },
    bytes: (n: number) => crypto.randomBytes(n),
  };
}
type Random = ReturnType<typeof randomSource>;

/** Splits segments into pieces of at most `step` pixels, so that the warp bends them. */
function subdivide(points: readonly Point[], step = 2): Point[] {
  const out: Point[] = [];
  points.forEach((p, i) => {
    const prev = points[i - 1];
    if (prev) {
      const n = Math.ceil(Math.hypot(p[0] - prev[0], p[1] - prev[1]) / step);
      for (let k = 1; k < n; k++) out.push([prev[0] + ((p[0] - prev[0]) * k) / n, prev[1] + ((p[1] - prev[1]) * k) / n]);
    }
    out.push(p);
  });
  return out;
}

/** A random smooth displacement of the whole picture (two crossed sine waves and a slow bend). */
function randomWarp(r: Random): (points: readonly Point[]) => Point[] {
  const ax = r.float(1.2, 2),
    kx = (2 * Math.PI) / r.float(16, 26),
    px = r.float(0, 2 * Math.PI);
  const ay = r.float(1.5, 2.5),
    ky = (2 * Math.PI) / r.float(28, 48),
    py = r.float(0, 2 * Math.PI);
  const bend = r.float(-3, 3);
  return (points) =>
    subdivide(points).map(([x, y]) => {
      const u = x / CAPTCHA_WIDTH - 0.5;
      return [x + ax * Math.sin(y * kx + px), y + ay * Math.sin(x * ky + py) + bend * (4 * u * u - 0.33)] as const;
    });
}

/** A cubic Bézier from the left edge to the right one, between rows `top` and `bottom`. */
function crossingCurve(r: Random, top: number, bottom: number): Point[] {
  const y = () => r.float(top, bottom);
  const c: Point[] = [
    [r.float(-5, 10), y()],
    [r.float(25, 55), y()],
    [r.float(65, 95), y()],
    [r.float(CAPTCHA_WIDTH - 10, CAPTCHA_WIDTH + 5), y()],
  ];
  const out: Point[] = [];
  for (let i = 0; i <= 24; i++) {
    const t = i / 24,
      s = 1 - t;
    const w = [s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t];
    out.push([w.reduce((a, wi, k) => a + wi * c[k]![0], 0), w.reduce((a, wi, k) => a + wi * c[k]![1], 0)]);
  }
  return out;
}

/** The ink colour ramp: a random light paper and a random dark ink, so colour says nothing. */
function palette(r: Random): [number, number, number][] {
  const paper = [0, 0, 0].map(() => r.float(215, 252));
  const ink = [0, 0, 0].map(() => r.float(15, 85));
  return Array.from({ length: LEVELS }, (_, k) => {
    const t = k / (LEVELS - 1);
    return paper.map((p, c) => Math.round(p + (ink[c]! - p) * t)) as [number, number, number];
  });
}

/** A PNG of `answer` (characters of the glyph alphabet). */
export function renderCaptcha(answer: string): Buffer {
  const r = randomSource();
  const canvas = new InkCanvas(CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
  const warp = randomWarp(r);

  // Faint curves under the text.
  for (let i = 0; i < 3; i++) canvas.stroke(warp(crossingCurve(r, 0, CAPTCHA_HEIGHT)), r.float(0.7, 1.2), r.float(0.25, 0.45));

  const slot = CAPTCHA_WIDTH / (answer.length + 0.5);
  [...answer].forEach((ch, i) => {
    const strokes = GLYPHS[ch];
    if (!strokes) throw new Error(`no glyph for ${ch}`);
    const scale = r.float(2.1, 2.6);
    const shear = r.float(-0.2, 0.2);
    const angle = r.float(-0.26, 0.26); // about ±15°: more turns 4 into A
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const cx = slot * (i + 0.75) + r.float(-2.5, 2.5);
    const cy = CAPTCHA_HEIGHT / 2 + r.float(-3, 3);
    const width = r.float(2, 2.5);
    const level = r.float(0.85, 1);
    for (const stroke of strokes) {
      const points = stroke.map(([gx, gy]): Point => {
        const y = (gy - 5 + r.float(-0.3, 0.3)) * scale * 0.95;
        const x = (gx - 3 + r.float(-0.3, 0.3)) * scale + shear * y;
        return [cx + x * cos - y * sin, cy + x * sin + y * cos];
      });
      canvas.stroke(warp(points), width, level);
    }
  });

  // Over the text: a thin curve through it nearly as dark as the glyphs (so a
  // threshold keeps it; darker still and T, Y, 4 get hard to tell for people), short
  // decoy strokes, speckles, then grain.
  canvas.stroke(warp(crossingCurve(r, CAPTCHA_HEIGHT * 0.3, CAPTCHA_HEIGHT * 0.7)), r.float(0.8, 1.2), r.float(0.7, 0.85));
  for (let i = 0; i < 4; i++) {
    const x = r.float(0, CAPTCHA_WIDTH),
      y = r.float(0, CAPTCHA_HEIGHT),
      a = r.float(0, 2 * Math.PI),
      b = a + r.float(-1.5, 1.5),
      l = r.float(4, 7);
    const bent: Point[] = [
      [x, y],
      [x + l * Math.cos(a), y + l * Math.sin(a)],
      [x + l * (Math.cos(a) + Math.cos(b)), y + l * (Math.sin(a) + Math.sin(b))],
    ];
    canvas.stroke(warp(bent), r.float(0.9, 1.4), r.float(0.35, 0.55));
  }
  for (let i = 0; i < 30; i++) canvas.dot([r.float(0, CAPTCHA_WIDTH), r.float(0, CAPTCHA_HEIGHT)], r.float(0.4, 1.1), r.float(0.4, 0.9));
  canvas.grain(r.bytes(CAPTCHA_WIDTH * CAPTCHA_HEIGHT), 0.3);

  const indices = new Uint8Array(canvas.ink.length);
  for (let i = 0; i < indices.length; i++) indices[i] = Math.round(canvas.ink[i]! * (LEVELS - 1));
  return encodePalettePng(CAPTCHA_WIDTH, CAPTCHA_HEIGHT, indices, palette(r));
}
