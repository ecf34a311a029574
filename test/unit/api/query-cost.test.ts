import { loadavg } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitQueryCost } from '../../../db/repositories/query-cost.js';
import { type HostedGrid, openHostedGrid } from './hosted-grid.js';

// The embedded PGlite ignores statement_timeout and cannot cancel a statement: the planner's cost
// estimate bounds what a client may ask instead (db/repositories/query-cost.ts).
const ROWS = 30_000;
/** 150 OR'ed LIKE tests on every row, none of which matches ('name <g>' holds no X). */
const HOSTILE_WHERE = Array.from({ length: 150 }, (_, i) => `UPPER(Name) LIKE '%${i}X%'`).join(' OR ');
/** A budget below the hostile query's estimate and far above an ordinary query's. */
const BUDGET = 10_000;

describe('the planner-cost bound of feature queries on the embedded PGlite', () => {
  let grid: HostedGrid;
  const query = async (params: Record<string, string>) => {
    const started = performance.now();
    const res = await grid.app.request('/rest/services/Hosted/grid/FeatureServer/0/query', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ f: 'json', ...params }).toString(),
    });
    const body = (await res.json()) as Record<string, unknown>;
    return { status: res.status, body, ms: performance.now() - started };
  };

  beforeAll(async () => {
    grid = await openHostedGrid(ROWS);
  }, 300_000);
  afterAll(async () => grid.close());

  it('refuses at once a where clause that runs far longer unbounded; ordinary queries still answer', async () => {
    limitQueryCost(grid.database, 0);
    const unbounded = await query({ where: HOSTILE_WHERE, returnCountOnly: 'true' });
    expect(unbounded.body).toEqual({ count: 0 });

    limitQueryCost(grid.database, BUDGET);
    const refused = await query({ where: HOSTILE_WHERE, returnCountOnly: 'true' });
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      error: {
        code: 400,
        message: 'Unable to complete operation.',
        details: [expect.stringMatching(/at \d+ cost units; .* at most 10000 \(QUERY_MAX_COST\)/)],
      },
    });
    // Refused again from the remembered estimate, as quickly.
    const again = await query({ where: HOSTILE_WHERE, returnCountOnly: 'true' });
    expect(again.body).toEqual(refused.body);
    const cost = /at (\d+) cost units/.exec((refused.body.error as { details: string[] }).details[0]!)![1];
    console.log(
      `hostile where (cost ${cost}) on ${ROWS} rows: ${Math.round(unbounded.ms)} ms unbounded, refused in ${Math.round(refused.ms)} ms ` +
        `(then ${Math.round(again.ms)} ms); load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );

    // Value = g % 1000, so Value < 10 holds for 10 of every 1,000 consecutive objectids.
    const ordinary = await query({ where: 'Value < 10', returnCountOnly: 'true' });
    expect(ordinary.body).toEqual({ count: ROWS / 100 });
    const stats = await query({
      outStatistics: JSON.stringify([
        { statisticType: 'sum', onStatisticField: 'Value', outStatisticFieldName: 's' },
      ]),
    });
    // Each run of 1,000 objectids sums 0 + 1 + ... + 999 = 499,500.
    expect((stats.body.features as { attributes: { s: number } }[])[0]!.attributes.s).toBe(
      (ROWS / 1000) * 499_500,
    );
  }, 180_000);

  it('prices the candidates of an exact spatial filter too', async () => {
    limitQueryCost(grid.database, 1);
    const triangle = {
      rings: [
        [
          [0, 0],
          [0, 1000],
          [1000, 0],
          [0, 0],
        ],
      ],
    };
    const refused = await query({ geometry: JSON.stringify(triangle), geometryType: 'esriGeometryPolygon' });
    expect((refused.body.error as { details: string[] }).details[0]).toContain('(QUERY_MAX_COST)');
    limitQueryCost(grid.database, 0);
  });

  it('answers the refusal on the SOAP surface as a fault naming the limit', async () => {
    const count = (where: string) =>
      grid.app.request('/services/Hosted/grid/MapServer', {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', SOAPAction: '""' },
        body:
          '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
          'xmlns:tns="http://www.geoportal.dev/schemas/GeoServer/3.5.0"><soap:Body><tns:QueryFeatureCount>' +
          `<MapName>Layers</MapName><LayerID>0</LayerID><QueryFilter><WhereClause>${where}</WhereClause>` +
          '<Resolution>0</Resolution></QueryFilter></tns:QueryFeatureCount></soap:Body></soap:Envelope>',
      });
    limitQueryCost(grid.database, BUDGET);
    try {
      const refused = await count(HOSTILE_WHERE.replaceAll("'", '&apos;'));
      const fault = await refused.text();
      expect(fault).toContain('<faultcode>');
      expect(fault).toContain('(QUERY_MAX_COST)');
      const ordinary = await count('Value &lt; 10');
      expect(await ordinary.text()).toContain(`<Result>${ROWS / 100}</Result>`);
    } finally {
      limitQueryCost(grid.database, 0);
    }
  });

  it('is needed: PGlite keeps statement_timeout as a setting but does not stop a statement at it', async () => {
    const db = await PGlite.create();
    try {
      await db.exec('SET statement_timeout = 200');
      const started = Date.now();
      await db.query('select pg_sleep(1)');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    } finally {
      await db.close();
    }
  });
});
