/**
 * A one-channel "ink" canvas for the captcha (issue 8): anti-aliased round-capped polylines
 * and dots, each pixel an ink density in [0, 1]. Only what the captcha draws, so it stays
 * small and fast (a 120 × 40 image is a few thousand pixels; no SVG parser, no native code).
 */
export type Point = readonly [number, number];

export class InkCanvas {
  readonly ink: Float32Array;
  /** coverage of the polyline being drawn: its segments overlap at the joints, blend once */
  private readonly mask: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.ink = new Float32Array(width * height);
    this.mask = new Float32Array(width * height);
  }

  /** A polyline `width` pixels wide with round caps and joins, at ink density `level`. */
  stroke(points: readonly Point[], width: number, level: number): void {
    if (points.length === 0) return;
    const r = width / 2;
    let x0 = this.width,
      y0 = this.height,
      x1 = -1,
      y1 = -1;
    // one point is a dot (a segment of length 0); otherwise each consecutive pair
    for (let i = 0; i < Math.max(1, points.length - 1); i++) {
      const box = this.segment(points[i]!, points[Math.min(i + 1, points.length - 1)]!, r);
      if (!box) continue;
      x0 = Math.min(x0, box[0]);
      y0 = Math.min(y0, box[1]);
      x1 = Math.max(x1, box[2]);
      y1 = Math.max(y1, box[3]);
    }
    this.blend(x0, y0, x1, y1, level);
  }

  /** A filled dot (a zero-length stroke). */
  dot(centre: Point, radius: number, level: number): void {
    this.stroke([centre], radius * 2, level);
  }

  /** Adds `amount` × (byte / 255 − 0.5) to every pixel: grain that no threshold removes cleanly. */
  grain(bytes: Uint8Array, amount: number): void {
    for (let i = 0; i < this.ink.length; i++) this.ink[i] = clamp01(this.ink[i]! + amount * (bytes[i % bytes.length]! / 255 - 0.5));
  }

  /** Max coverage of the capsule a–b into the mask; returns the touched box, or null. */
  private segment(a: Point, b: Point, r: number): [number, number, number, number] | null {
    const { width: w, height: h, mask } = this;
    const bx0 = Math.max(0, Math.floor(Math.min(a[0], b[0]) - r - 1));
    const by0 = Math.max(0, Math.floor(Math.min(a[1], b[1]) - r - 1));
    const bx1 = Math.min(w - 1, Math.ceil(Math.max(a[0], b[0]) + r + 1));
    const by1 = Math.min(h - 1, Math.ceil(Math.max(a[1], b[1]) + r + 1));
    if (bx0 > bx1 || by0 > by1) return null;
    const dx = b[0] - a[0],
      dy = b[1] - a[1];
    const len2 = dx * dx + dy * dy;
    for (let y = by0; y <= by1; y++) {
      const py = y + 0.5 - a[1];
      for (let x = bx0; x <= bx1; x++) {
        const px = x + 0.5 - a[0];
        // distance from the pixel centre to the segment; coverage ramps over one pixel at the edge
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const ex = px - t * dx,
          ey = py - t * dy;
        const cover = r + 0.5 - Math.sqrt(ex * ex + ey * ey);
        if (cover <= 0) continue;
        const i = y * w + x;
        const c = cover >= 1 ? 1 : cover;
        if (c > mask[i]!) mask[i] = c;
      }
    }
    return [bx0, by0, bx1, by1];
  }

  private blend(x0: number, y0: number, x1: number, y1: number, level: number): void {
    const { width: w, ink, mask } = this;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const i = y * w + x;
        const c = mask[i]!;
        if (c === 0) continue;
        // layered like real ink (light transmitted multiplies): a crossing never lightens a glyph
        ink[i] = 1 - (1 - ink[i]!) * (1 - c * level);
        mask[i] = 0;
      }
    }
  }
}

function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}
