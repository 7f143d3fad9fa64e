/**
 * Server-side SVG captcha (issue 3). Characters are drawn as paths (no <text>, so the answer
 * is not in the markup), each rotated, scaled and jittered, over noise curves and dots.
 */
import crypto from 'node:crypto';
import { GLYPHS } from './glyphs.js';

const WIDTH = 120;
const HEIGHT = 40;

/** Uniform float in [min, max) from the CSPRNG. */
function rand(min: number, max: number): number {
  return min + (crypto.randomInt(0, 1_000_000) / 1_000_000) * (max - min);
}

const fmt = (n: number) => n.toFixed(1);

function colour(light: boolean): string {
  const base = light ? 200 : 30;
  const c = () => Math.round(rand(base, base + 55));
  return `rgb(${c()},${c()},${c()})`;
}

export function renderCaptcha(answer: string): string {
  const parts: string[] = [];
  parts.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="${colour(true)}"/>`);
  for (let i = 0; i < 4; i++) {
    const d = `M${fmt(rand(0, 20))},${fmt(rand(0, HEIGHT))} C${fmt(rand(20, 60))},${fmt(rand(0, HEIGHT))} ${fmt(rand(60, 100))},${fmt(rand(0, HEIGHT))} ${fmt(rand(100, WIDTH))},${fmt(rand(0, HEIGHT))}`;
    parts.push(`<path d="${d}" stroke="${colour(false)}" stroke-width="${fmt(rand(0.8, 1.6))}" fill="none" opacity="0.6"/>`);
  }
  for (let i = 0; i < 25; i++) {
    parts.push(`<circle cx="${fmt(rand(0, WIDTH))}" cy="${fmt(rand(0, HEIGHT))}" r="${fmt(rand(0.5, 1.4))}" fill="${colour(false)}"/>`);
  }
  const slot = WIDTH / (answer.length + 0.5);
  [...answer].forEach((ch, i) => {
    const strokes = GLYPHS[ch];
    if (!strokes) throw new Error(`no glyph for ${ch}`);
    const scale = rand(2.1, 2.7);
    const cx = slot * (i + 0.75) + rand(-3, 3);
    const cy = HEIGHT / 2 + rand(-3, 3);
    const angle = rand(-22, 22);
    const d = strokes
      .map((stroke) => 'M' + stroke.map(([x, y]) => `${fmt((x - 3 + rand(-0.3, 0.3)) * scale)},${fmt((y - 5 + rand(-0.3, 0.3)) * scale * 0.95)}`).join(' L'))
      .join(' ');
    parts.push(
      `<path d="${d}" transform="translate(${fmt(cx)},${fmt(cy)}) rotate(${fmt(angle)})" stroke="${colour(false)}" stroke-width="${fmt(rand(2, 2.8))}" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${parts.join('')}</svg>`;
}
