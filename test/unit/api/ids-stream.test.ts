import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitQueryCost } from '../../../db/repositories/query-cost.js';
import { type HostedGrid, openHostedGrid } from './hosted-grid.js';

// returnIdsOnly over a 200,000-row layer on PGlite, through the app: every id, streamed batch by batch.
const ROWS = 200_000;

describe('returnIdsOnly streamed from the database', () => {
  let grid: HostedGrid;
  const request = (query: string) =>
    grid.app.request(`/rest/services/Hosted/grid/FeatureServer/0/query?${query}`);

  /** The body read chunk by chunk, with the heap's growth over what it was before the request. */
  async function readStreamed(query: string) {
    const before = process.memoryUsage().heapUsed;
    const res = await request(query);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let chunks = 0;
    let peak = before;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    return { res, text, chunks, growth: peak - before };
  }

  beforeAll(async () => {
    grid = await openHostedGrid(ROWS);
  }, 300_000);
  afterAll(async () => grid.close());

  it('answers every matching id, in order, in many chunks', async () => {
    const expected = (
      await grid.database.rows<{ objectid: number }>(
        sql.raw(`select objectid from "${grid.table}" where a_1 >= 250 order by objectid`),
      )
    ).map((r) => r.objectid);
    expect(expected.length).toBe(150_000);
    const { res, text, chunks, growth } = await readStreamed(
      'where=Value%3E%3D250&returnIdsOnly=true&f=json',
    );
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(text)).toEqual({ objectIdFieldName: 'OBJECTID', objectIds: expected });
    expect(chunks).toBeGreaterThanOrEqual(15);
    console.log(
      `returnIdsOnly of 150,000 ids: ${chunks} chunks, heap growth ${(growth / 1024 ** 2).toFixed(1)} MB`,
    );
    expect(growth).toBeLessThan(50 * 1024 ** 2);
  }, 120_000);

  it('writes f=pjson as JSON.stringify indents it, and JSONP', async () => {
    const ids = Array.from({ length: ROWS / 1000 }, (_, i) => 1000 * (i + 1));
    const body = { objectIdFieldName: 'OBJECTID', objectIds: ids };
    const pretty = await readStreamed('where=Value%3D0&returnIdsOnly=true&f=pjson');
    expect(pretty.text).toBe(JSON.stringify(body, null, 2));
    const jsonp = await readStreamed('where=Value%3D0&returnIdsOnly=true&callback=show');
    expect(jsonp.res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(jsonp.text).toBe(`show(${JSON.stringify(body)});`);
  });

  it('applies the exact spatial test batch by batch', async () => {
    // Points (g, g % 1000) against the triangle (0,0) (200000,0) (0,1000): a point is inside or on it when
    // x / 200000 + y / 1000 <= 1, i.e. g + 200 · (g % 1000) <= 200000. Its envelope holds every point, so
    // all 200,000 are candidates, read in 20 batches.
    const triangle = JSON.stringify({
      rings: [
        [
          [0, 0],
          [0, 1000],
          [200000, 0],
          [0, 0],
        ],
      ],
    });
    const expected: number[] = [];
    for (let g = 1; g <= ROWS; g++) if (g + 200 * (g % 1000) <= 200000) expected.push(g);
    const { text } = await readStreamed(
      `geometry=${encodeURIComponent(triangle)}&geometryType=esriGeometryPolygon&returnIdsOnly=true`,
    );
    expect(JSON.parse(text).objectIds).toEqual(expected);
  }, 120_000);

  it('still answers errors found before the first byte as the Esri envelope', async () => {
    const bad = await request('where=Nope%3D1&returnIdsOnly=true');
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(400);
    limitQueryCost(grid.database, 1);
    try {
      const refused = await request('where=Value%3E%3D0&returnIdsOnly=true');
      const body = (await refused.json()) as { error: { code: number; details: string[] } };
      expect(body.error.code).toBe(400);
      expect(body.error.details[0]).toContain('(QUERY_MAX_COST)');
    } finally {
      limitQueryCost(grid.database, 0);
    }
  });
});
