import type { Canvas } from './canvas.js';

export type FillRule = 'nonzero' | 'evenodd';

/**
 * Antialiased scanline rasterizer over signed-area accumulation: every edge adds, to the cells it
 * crosses, the area it leaves to its right times its vertical direction; a running sum along each row
 * then gives the exact winding-weighted coverage of every pixel. The fill rule is applied to that sum
 * (nonzero: |sum| clamped to 1; even-odd: folded modulo 2), as AGG and font rasterizers do.
 *
 * Edges are clipped against x = 0 and x = width (the parts outside become vertical edges on the
 * border, which keeps the winding right for the pixels inside); rows outside the canvas are skipped.
 * Only the bounding box of the touched cells is scanned and cleared, so small shapes stay cheap.
 */
export class Rasterizer {
  readonly width: number;
  readonly height: number;
  private readonly stride: number;
  private readonly acc: Float32Array;
  /** Per-row span of touched cells, so thin diagonal shapes are not scanned over their whole box. */
  private readonly rowMinX: Int32Array;
  private readonly rowMaxX: Int32Array;
  private minY = Number.POSITIVE_INFINITY;
  private maxY = -1;
  private sign = 1;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.stride = width + 2;
    this.acc = new Float32Array(this.stride * height);
    this.rowMinX = new Int32Array(height).fill(this.stride);
    this.rowMaxX = new Int32Array(height).fill(-1);
  }

  /**
   * Adds a closed ring of flat [x0, y0, x1, y1, …] pixel coordinates (count = number of points).
   * `winding` forces the ring's winding to +1 or −1 whatever its orientation (stroke pieces, annuli);
   * without it the ring keeps its own orientation (polygon rings with holes).
   */
  addRing(xy: ArrayLike<number>, count: number, winding?: 1 | -1): void {
    if (count < 2) return;
    this.sign = winding === undefined ? 1 : ringArea(xy, count) < 0 ? -winding : winding;
    let px = xy[(count - 1) * 2];
    let py = xy[(count - 1) * 2 + 1];
    for (let i = 0; i < count; i++) {
      const x = xy[i * 2];
      const y = xy[i * 2 + 1];
      this.addEdge(px, py, x, y);
      px = x;
      py = y;
    }
    this.sign = 1;
  }

  /** Adds one directed edge; a closed set of edges must be added before fill(). */
  addEdge(x0: number, y0: number, x1: number, y1: number): void {
    if (
      y0 === y1 ||
      !(Number.isFinite(x0) && Number.isFinite(y0) && Number.isFinite(x1) && Number.isFinite(y1))
    )
      return;
    if ((y0 <= 0 && y1 <= 0) || (y0 >= this.height && y1 >= this.height)) return;
    const w = this.width;
    // Split at x = 0 and x = w so each piece lies on one side; outside pieces are clamped to the border.
    let t1 = x0 < 0 !== x1 < 0 ? (0 - x0) / (x1 - x0) : -1;
    let t2 = x0 > w !== x1 > w ? (w - x0) / (x1 - x0) : -1;
    if (t1 < 0 && t2 < 0) {
      this.accumulate(clampX(x0, w), y0, clampX(x1, w), y1);
      return;
    }
    if (t1 < 0 || (t2 >= 0 && t2 < t1)) [t1, t2] = [t2, t1];
    // Now t1 is the first cut and t2 the second one, or −1 when there is only one.
    const ax = x0 + (x1 - x0) * t1;
    const ay = y0 + (y1 - y0) * t1;
    this.accumulate(clampX(x0, w), y0, clampX(ax, w), ay);
    if (t2 < 0) {
      this.accumulate(clampX(ax, w), ay, clampX(x1, w), y1);
      return;
    }
    const bx = x0 + (x1 - x0) * t2;
    const by = y0 + (y1 - y0) * t2;
    this.accumulate(clampX(ax, w), ay, clampX(bx, w), by);
    this.accumulate(clampX(bx, w), by, clampX(x1, w), y1);
  }

  private accumulate(ax: number, ay: number, bx: number, by: number): void {
    if (ay === by) return;
    let dir = this.sign;
    let x0 = ax;
    let y0 = ay;
    let x1 = bx;
    let y1 = by;
    if (y0 > y1) {
      dir = -dir;
      x0 = bx;
      y0 = by;
      x1 = ax;
      y1 = ay;
    }
    const w = this.width;
    const acc = this.acc;
    const dxdy = (x1 - x0) / (y1 - y0);
    let x = x0;
    if (y0 < 0) x -= y0 * dxdy;
    const rowStart = Math.max(0, Math.floor(y0));
    const rowEnd = Math.min(this.height, Math.ceil(y1));
    if (rowStart >= rowEnd) return;
    if (rowStart < this.minY) this.minY = rowStart;
    if (rowEnd - 1 > this.maxY) this.maxY = rowEnd - 1;
    for (let y = rowStart; y < rowEnd; y++) {
      const line = y * this.stride;
      const dy = Math.min(y + 1, y1) - Math.max(y, y0);
      const xnext = clampX(x + dxdy * dy, w);
      const d = dy * dir;
      const xa = Math.min(x, xnext);
      const xb = Math.max(x, xnext);
      const xaFloor = Math.floor(xa);
      const xaI = xaFloor;
      const xbI = Math.ceil(xb);
      if (xaI < this.rowMinX[y]) this.rowMinX[y] = xaI;
      if (xbI + 1 > this.rowMaxX[y]) this.rowMaxX[y] = xbI + 1;
      if (xbI <= xaI + 1) {
        // The edge stays within one pixel column in this row.
        const mid = 0.5 * (x + xnext) - xaFloor;
        acc[line + xaI] += d - d * mid;
        acc[line + xaI + 1] += d * mid;
      } else {
        const s = 1 / (xb - xa);
        const xaFrac = xa - xaFloor;
        const first = 0.5 * s * (1 - xaFrac) * (1 - xaFrac);
        const xbFrac = xb - xbI + 1;
        const last = 0.5 * s * xbFrac * xbFrac;
        acc[line + xaI] += d * first;
        if (xbI === xaI + 2) {
          acc[line + xaI + 1] += d * (1 - first - last);
        } else {
          const second = s * (1.5 - xaFrac);
          acc[line + xaI + 1] += d * (second - first);
          for (let xi = xaI + 2; xi < xbI - 1; xi++) acc[line + xi] += d * s;
          const before = second + (xbI - xaI - 3) * s;
          acc[line + xbI - 1] += d * (1 - before - last);
        }
        acc[line + xbI] += d * last;
      }
      x = xnext;
    }
  }

  /**
   * Turns the accumulated edges into coverage, paints `color` (straight RGBA 0–255, alpha scaled by
   * `opacity`) into the canvas, and clears the touched cells for the next shape. `mask`, when given,
   * is an 8×8 on/off pattern repeated over the canvas (hatched fills).
   */
  fill(
    canvas: Canvas,
    color: ArrayLike<number>,
    rule: FillRule = 'nonzero',
    opacity = 1,
    mask?: Uint8Array,
  ): void {
    if (this.maxY < 0) return;
    const acc = this.acc;
    const data = canvas.data;
    const width = this.width;
    const rowMinX = this.rowMinX;
    const rowMaxX = this.rowMaxX;
    const alpha = ((color[3] ?? 255) / 255) * opacity;
    const evenOdd = rule === 'evenodd';
    const r = color[0];
    const g = color[1];
    const b = color[2];
    for (let y = this.minY; y <= this.maxY; y++) {
      const minX = rowMinX[y];
      const maxX = rowMaxX[y];
      if (maxX < 0) continue;
      rowMinX[y] = this.stride;
      rowMaxX[y] = -1;
      const lastX = Math.min(width - 1, maxX);
      const line = y * this.stride;
      const row = y * width;
      let sum = 0;
      for (let x = minX; x <= lastX; x++) {
        sum += acc[line + x];
        let cov = sum < 0 ? -sum : sum;
        if (cov < 0.002) continue;
        if (cov > 1) {
          if (evenOdd) {
            cov -= 2 * Math.floor(cov / 2);
            if (cov > 1) cov = 2 - cov;
            if (cov < 0.002) continue;
          } else cov = 1;
        }
        if (mask !== undefined && mask[((y & 7) << 3) | (x & 7)] === 0) continue;
        // Source-over in straight alpha, inlined: this loop is the renderer's hot path.
        const a = cov * alpha;
        const p = (row + x) << 2;
        const da = data[p + 3];
        if (a >= 0.998 || da === 0) {
          data[p] = r;
          data[p + 1] = g;
          data[p + 2] = b;
          data[p + 3] = a >= 0.998 ? 255 : (a * 255 + 0.5) | 0;
          continue;
        }
        const keep = (da / 255) * (1 - a);
        const inv = 1 / (a + keep);
        data[p] = ((r * a + data[p] * keep) * inv + 0.5) | 0;
        data[p + 1] = ((g * a + data[p + 1] * keep) * inv + 0.5) | 0;
        data[p + 2] = ((b * a + data[p + 2] * keep) * inv + 0.5) | 0;
        data[p + 3] = ((a + keep) * 255 + 0.5) | 0;
      }
      acc.fill(0, line + minX, line + maxX + 1);
    }
    this.minY = Number.POSITIVE_INFINITY;
    this.maxY = -1;
  }
}

function clampX(x: number, w: number): number {
  return Math.min(Math.max(x, 0), w);
}

/** Twice the signed area of a flat ring (positive = clockwise on screen, y down). */
export function ringArea(xy: ArrayLike<number>, count: number): number {
  let area = 0;
  for (let i = 0, j = count - 1; i < count; j = i++) {
    area += xy[j * 2] * xy[i * 2 + 1] - xy[i * 2] * xy[j * 2 + 1];
  }
  return area;
}
