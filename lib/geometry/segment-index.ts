/**
 * A uniform grid over the segments of a geometry, so testing a segment against a shape of many
 * vertices looks only at the few segments near it instead of all of them.
 */

type Visit = (c: number[], d: number[]) => boolean;

export class SegmentIndex {
  private readonly starts: number[][] = [];
  private readonly ends: number[][] = [];
  private readonly boxes: Float64Array;
  private readonly cellStart: Int32Array;
  private readonly cellItems: Int32Array;
  private readonly seen: Uint32Array;
  private visit = 0;
  private readonly x0: number;
  private readonly y0: number;
  private readonly cellW: number;
  private readonly cellH: number;
  private readonly cols: number;
  private readonly rows: number;

  constructor(parts: readonly number[][][], closed: boolean) {
    for (const part of parts) {
      const n = part.length;
      if (n === 1) this.add(part[0], part[0]);
      for (let i = 1; i < n; i++) this.add(part[i - 1], part[i]);
      if (closed && n > 2 && (part[0][0] !== part[n - 1][0] || part[0][1] !== part[n - 1][1])) {
        this.add(part[n - 1], part[0]);
      }
    }
    const count = this.starts.length;
    this.boxes = new Float64Array(count * 4);
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      const a = this.starts[i];
      const b = this.ends[i];
      const k = i * 4;
      this.boxes[k] = Math.min(a[0], b[0]);
      this.boxes[k + 1] = Math.min(a[1], b[1]);
      this.boxes[k + 2] = Math.max(a[0], b[0]);
      this.boxes[k + 3] = Math.max(a[1], b[1]);
      x0 = Math.min(x0, this.boxes[k]);
      y0 = Math.min(y0, this.boxes[k + 1]);
      x1 = Math.max(x1, this.boxes[k + 2]);
      y1 = Math.max(y1, this.boxes[k + 3]);
    }
    const side = Math.max(1, Math.min(256, Math.ceil(Math.sqrt(count))));
    this.cols = x1 > x0 ? side : 1;
    this.rows = y1 > y0 ? side : 1;
    this.x0 = x0;
    this.y0 = y0;
    this.cellW = (x1 - x0) / this.cols || 1;
    this.cellH = (y1 - y0) / this.rows || 1;
    // Counting sort of segment ids into cells: one flat array, no per-cell allocations.
    const counts = new Int32Array(this.cols * this.rows + 1);
    this.eachCell(count, (cell) => counts[cell + 1]++);
    for (let c = 1; c < counts.length; c++) counts[c] += counts[c - 1];
    this.cellStart = counts.slice();
    this.cellItems = new Int32Array(counts[counts.length - 1]);
    const fill = counts.slice();
    this.eachCell(count, (cell, id) => {
      this.cellItems[fill[cell]++] = id;
    });
    this.seen = new Uint32Array(count);
  }

  get size(): number {
    return this.starts.length;
  }

  private add(a: number[], b: number[]): void {
    this.starts.push(a);
    this.ends.push(b);
  }

  private eachCell(count: number, fn: (cell: number, id: number) => void): void {
    const b = this.boxes;
    for (let id = 0; id < count; id++) {
      const c0 = this.column(b[id * 4]);
      const c1 = this.column(b[id * 4 + 2]);
      const r1 = this.row(b[id * 4 + 3]);
      for (let r = this.row(b[id * 4 + 1]); r <= r1; r++) {
        for (let c = c0; c <= c1; c++) fn(r * this.cols + c, id);
      }
    }
  }

  private column(x: number): number {
    return Math.max(0, Math.min(this.cols - 1, Math.floor((x - this.x0) / this.cellW)));
  }

  private row(y: number): number {
    return Math.max(0, Math.min(this.rows - 1, Math.floor((y - this.y0) / this.cellH)));
  }

  /**
   * Calls fn for each indexed segment whose box meets the box of a–b, once each, stopping and
   * returning true as soon as fn returns true.
   */
  someNear(a: readonly number[], b: readonly number[], fn: Visit): boolean {
    const xmin = Math.min(a[0], b[0]);
    const ymin = Math.min(a[1], b[1]);
    const xmax = Math.max(a[0], b[0]);
    const ymax = Math.max(a[1], b[1]);
    if (this.starts.length === 0) return false;
    this.visit = (this.visit + 1) >>> 0;
    if (this.visit === 0) {
      this.seen.fill(0);
      this.visit = 1;
    }
    const c0 = this.column(xmin);
    const c1 = this.column(xmax);
    const r1 = this.row(ymax);
    for (let r = this.row(ymin); r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
          const id = this.cellItems[k];
          if (this.seen[id] === this.visit) continue;
          this.seen[id] = this.visit;
          const box = id * 4;
          if (
            this.boxes[box] > xmax ||
            this.boxes[box + 2] < xmin ||
            this.boxes[box + 1] > ymax ||
            this.boxes[box + 3] < ymin
          )
            continue;
          if (fn(this.starts[id], this.ends[id])) return true;
        }
      }
    }
    return false;
  }
}

const cache = { open: new WeakMap<object, SegmentIndex>(), closed: new WeakMap<object, SegmentIndex>() };

/**
 * The index of a part list, built on first use and kept as long as the list itself. Pass the part
 * arrays of a Shape (fresh per call), not a caller's geometry that may be edited in place.
 */
export function segmentIndexFor(parts: readonly number[][][], closed: boolean): SegmentIndex {
  const store = closed ? cache.closed : cache.open;
  let index = store.get(parts);
  if (!index) {
    index = new SegmentIndex(parts, closed);
    store.set(parts, index);
  }
  return index;
}
