/**
 * Fixed bounds on what one query may ask of the database: the vertices of a filter geometry (each
 * candidate row is tested against all of them) and the rows one page may return, whatever a publisher
 * sets as maxRecordCount.
 */
import { badRequest } from '../errors.js';
import type { EsriGeometry } from '../geometry/types.js';

export const MAX_FILTER_VERTICES = 100_000;
export const MAX_RECORD_COUNT = 50_000;

export function vertexCount(g: EsriGeometry): number {
  if ('rings' in g) return g.rings.reduce((n, r) => n + r.length, 0);
  if ('paths' in g) return g.paths.reduce((n, p) => n + p.length, 0);
  if ('points' in g) return g.points.length;
  if ('xmin' in g) return 4;
  return 1;
}

/** Refuses a filter geometry of more than MAX_FILTER_VERTICES vertices. */
export function checkFilterVertices(g: EsriGeometry): void {
  const n = vertexCount(g);
  if (n > MAX_FILTER_VERTICES)
    throw badRequest('Unable to complete operation.', [
      `'geometry' has ${n} vertices; a filter geometry may have at most ${MAX_FILTER_VERTICES}. Simplify it first.`,
    ]);
}

/** A layer's maxRecordCount as queries apply it: at most MAX_RECORD_COUNT. */
export const effectiveMaxRecordCount = (declared: number): number => Math.min(declared, MAX_RECORD_COUNT);
