import { describe, expect, it } from 'vitest';
import { parsePublishParameters } from '../../../api/publish/publish-parameters.js';
import { normalizeGeometryFilter } from '../../../lib/query/normalize/geometry.js';
import {
  effectiveMaxRecordCount,
  MAX_FILTER_VERTICES,
  MAX_RECORD_COUNT,
  vertexCount,
} from '../../../lib/query/query-limits.js';

/** A closed ring of n vertices around the origin. */
const ring = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * (i % (n - 1))) / (n - 1);
    return [Math.cos(a), Math.sin(a)];
  });

describe('filter geometry vertices', () => {
  it('counts vertices of every part', () => {
    expect(vertexCount({ rings: [ring(5), ring(4)] })).toBe(9);
    expect(
      vertexCount({
        paths: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      }),
    ).toBe(2);
    expect(vertexCount({ points: [[0, 0]] })).toBe(1);
  });

  it('takes a polygon at the cap', () => {
    const geometry = JSON.stringify({ rings: [ring(MAX_FILTER_VERTICES)] });
    expect(normalizeGeometryFilter({ geometry })?.geometryType).toBe('esriGeometryPolygon');
  });

  it('refuses a polygon one vertex over the cap, saying how many it has', () => {
    const geometry = JSON.stringify({ rings: [ring(MAX_FILTER_VERTICES - 10), ring(11)] });
    expect(() => normalizeGeometryFilter({ geometry })).toThrow(
      expect.objectContaining({
        code: 400,
        details: [
          `'geometry' has 100001 vertices; a filter geometry may have at most 100000. Simplify it first.`,
        ],
      }),
    );
  });
});

describe('maxRecordCount set by publishers', () => {
  const parse = (maxRecordCount: number) =>
    parsePublishParameters({
      fileType: 'geojson',
      parameters: { name: 'x', maxRecordCount },
      buildInitialCache: false,
      outputType: '',
    });

  it('takes the cap and refuses more', () => {
    expect(parse(MAX_RECORD_COUNT).service.maxRecordCount).toBe(50_000);
    expect(() => parse(MAX_RECORD_COUNT + 1)).toThrow(
      expect.objectContaining({ details: ['maxRecordCount may be at most 50000.'] }),
    );
  });

  it('caps what queries apply for layers stored with more', () => {
    expect(effectiveMaxRecordCount(1_000_000)).toBe(50_000);
    expect(effectiveMaxRecordCount(2000)).toBe(2000);
  });
});
