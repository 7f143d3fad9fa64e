/**
 * A text-safe shade of the chosen primary colour (issue 10, WCAG 2.1 1.4.3): the light-blue
 * primary stays for fills, borders and icons, but text in it — links, selected tabs and menu
 * items, and the white label on a primary button — needs 4.5:1 against white. The shade keeps
 * the hue and darkens until it reaches `target` (a margin over 4.5 for tinted backgrounds).
 */

function channels(hex: string): [number, number, number] {
  const n = parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of a colour against white. */
export function contrastOnWhite(hex: string): number {
  return 1.05 / (luminance(channels(hex)) + 0.05);
}

export function textShade(hex: string, target = 5): string {
  let rgb = channels(hex);
  for (let i = 0; i < 100 && 1.05 / (luminance(rgb) + 0.05) < target; i++) {
    rgb = rgb.map((c) => Math.floor(c * 0.97)) as [number, number, number];
  }
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
