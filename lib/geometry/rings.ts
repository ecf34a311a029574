import { coordinatesBounds } from './bounds.js';
import { locatePointInRings, ringSignedArea } from './point-in-polygon.js';

/** One polygon part: an outer ring followed by the holes it holds. */
export type RingGroup = number[][][];

/**
 * Groups the rings of an Esri polygon into parts. Esri marks outer rings clockwise and holes
 * counter-clockwise; each hole goes to the smallest outer ring containing it. Input whose rings all
 * run counter-clockwise (a client that followed GeoJSON's rule) is grouped by nesting depth instead.
 */
export function groupRings(rings: readonly number[][][]): RingGroup[] {
  const usable = rings.filter((r) => r.length >= 3);
  const areas = usable.map(ringSignedArea);
  if (usable.length > 1 && areas.every((a) => a > 0)) return groupByDepth(usable, areas);
  const outers: number[] = [];
  const holes: number[] = [];
  for (const [i, a] of areas.entries()) (a > 0 ? holes : outers).push(i);
  const groups = new Map<number, RingGroup>(outers.map((i) => [i, [usable[i]]]));
  for (const h of holes) {
    const owner = smallestContaining(usable, areas, h, outers);
    if (owner === undefined) groups.set(h, [usable[h]]);
    else groups.get(owner)!.push(usable[h]);
  }
  return [...groups.entries()].sort((x, y) => x[0] - y[0]).map(([, g]) => g);
}

function groupByDepth(rings: number[][][], areas: number[]): RingGroup[] {
  const all = rings.map((_, i) => i);
  const depth = rings.map((_, i) => all.filter((j) => j !== i && ringInside(rings[i], rings[j])).length);
  const outers = all.filter((i) => depth[i] % 2 === 0);
  const groups = new Map<number, RingGroup>(outers.map((i) => [i, [rings[i]]]));
  for (const h of all.filter((i) => depth[i] % 2 === 1)) {
    const candidates = outers.filter((o) => depth[o] === depth[h] - 1);
    const owner = smallestContaining(rings, areas, h, candidates);
    if (owner === undefined) groups.set(h, [rings[h]]);
    else groups.get(owner)!.push(rings[h]);
  }
  return [...groups.entries()].sort((x, y) => x[0] - y[0]).map(([, g]) => g);
}

function smallestContaining(rings: number[][][], areas: number[], hole: number, candidates: number[]) {
  let best: number | undefined;
  for (const o of candidates) {
    if (o === hole || !ringInside(rings[hole], rings[o])) continue;
    if (best === undefined || Math.abs(areas[o]) < Math.abs(areas[best])) best = o;
  }
  return best;
}

/** Whether `inner` lies inside `outer`: decided by its first vertex not on outer's boundary. */
function ringInside(inner: number[][], outer: number[][]): boolean {
  for (const p of inner) {
    const where = locatePointInRings(p[0], p[1], [outer]);
    if (where !== 'boundary') return where === 'inside';
  }
  const [x0, y0, x1, y1] = coordinatesBounds([inner])!;
  return locatePointInRings((x0 + x1) / 2, (y0 + y1) / 2, [outer]) !== 'outside';
}

/**
 * A point strictly inside the area of the rings (even-odd), or null for a degenerate area. A
 * horizontal line through the widest gap between vertex heights meets no vertex, so its crossings
 * with the edges pair up cleanly and the middle of the widest pair is interior.
 */
export function interiorPoint(rings: readonly number[][][]): [number, number] | null {
  const ys = [...new Set(rings.flatMap((r) => r.map((c) => c[1])))].sort((a, b) => a - b);
  let y = Number.NaN;
  let gap = 0;
  for (let i = 1; i < ys.length; i++) {
    if (ys[i] - ys[i - 1] > gap) {
      gap = ys[i] - ys[i - 1];
      y = (ys[i] + ys[i - 1]) / 2;
    }
  }
  if (!(gap > 0)) return null;
  const xs: number[] = [];
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[j];
      const b = ring[i];
      if (a[1] < y !== b[1] < y) xs.push(a[0] + ((y - a[1]) / (b[1] - a[1])) * (b[0] - a[0]));
    }
  }
  xs.sort((a, b) => a - b);
  let best: [number, number] | null = null;
  let width = 0;
  for (let i = 0; i + 1 < xs.length; i += 2) {
    if (xs[i + 1] - xs[i] > width) {
      width = xs[i + 1] - xs[i];
      best = [(xs[i] + xs[i + 1]) / 2, y];
    }
  }
  return best;
}
