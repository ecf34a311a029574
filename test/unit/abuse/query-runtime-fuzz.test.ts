/**
 * Where clauses and having conditions drawn from the where grammar (where-grammar.ts), run through the
 * query route against a real database (hosted-kinds.ts: a field of every stored type, rows at each
 * type's edges). The planning property (query-fuzz.test.ts) stops at the SQL; these reach PostgreSQL,
 * where a clause can still fail: an operator PostgreSQL cannot choose for an untyped NULL, an overflow,
 * a date past the calendar. Every one must answer with features or a 400 in the REST envelope.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzSuite } from './fuzz-support.js';
import { type HostedKinds, openHostedKinds } from './hosted-kinds.js';
import { whereArbitraries } from './where-grammar.js';

const suite = fuzzSuite('query evaluation');
const grammar = whereArbitraries();

describe('drawn where clauses evaluated on a real database', () => {
  let kinds: HostedKinds;
  beforeAll(async () => {
    kinds = await openHostedKinds();
  }, 120_000);
  afterAll(async () => kinds?.close());

  const query = async (params: Record<string, string>) => {
    const res = await kinds.app.request('/rest/services/Hosted/kinds/FeatureServer/0/query', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ f: 'json', ...params }).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  /** Features (or the count, or the statistics) come back, or a 400 saying what is wrong. */
  const answered = (params: Record<string, string>, { status, body }: Awaited<ReturnType<typeof query>>) => {
    const context = JSON.stringify(params);
    expect(status, context).toBe(200);
    if (body.error) {
      expect(body.error.code, `${context} -> ${JSON.stringify(body.error)}`).toBe(400);
      expect(body.error.details.join(' ').length, context).toBeGreaterThan(0);
    } else if (params.returnCountOnly) {
      expect(body.count, context).toBeTypeOf('number');
    } else {
      expect(Array.isArray(body.features), context).toBe(true);
    }
  };

  it('evaluates arithmetic, functions and aggregates of a bare NULL as NULL (found by the drawn clauses)', async () => {
    // Each was a 500: PostgreSQL cannot choose an operator or function for an untyped NULL.
    const matching = async (where: string) => {
      const { body } = await query({ where, returnCountOnly: 'true' });
      return body.count ?? body.error;
    };
    // The layer has five rows; a NULL-valued test holds for none, IS NULL for all.
    expect(await matching('EXTRACT(YEAR FROM NULL) = 1')).toBe(0);
    expect(await matching('EXTRACT(YEAR FROM NULL) IS NULL')).toBe(5);
    expect(await matching('COALESCE(NULL, NULL) = 1')).toBe(0);
    expect(await matching('NULLIF(NULL, NULL) IS NULL')).toBe(5);
    expect(await matching('NULL + NULL = 1')).toBe(0);
    expect(await matching('-NULL IS NULL')).toBe(5);
    expect(await matching('Seen - NULL IS NULL')).toBe(5);
    // Still typed where an operand is not NULL: the largest BigInteger compares exactly.
    expect(await matching('COALESCE(Big, NULL) = 9223372036854775807')).toBe(1);
    // Groups by Name: five distinct values, NULL among them.
    const groups = async (having: string) => {
      const { body } = await query({
        where: '1=1',
        groupByFieldsForStatistics: 'Name',
        outStatistics: JSON.stringify([
          { statisticType: 'count', onStatisticField: 'OBJECTID', outStatisticFieldName: 'n' },
        ]),
        having,
      });
      return body.features?.length ?? body.error;
    };
    expect(await groups('SUM(NULL) IS NULL')).toBe(5);
    expect(await groups('MAX(NULL) IS NOT NULL')).toBe(0);
    expect(await groups('COUNT(NULL) = 0')).toBe(5);
  });

  it('refuses a family mismatch beside a calendar day in BETWEEN and IN (found by the drawn clauses)', async () => {
    for (const where of [
      "Seen BETWEEN Day AND INTERVAL '0' YEAR",
      "Seen IN (DATE '2020-01-01', INTERVAL '1' DAY)",
    ]) {
      const { body } = await query({ where });
      expect(body.error, where).toEqual({
        code: 400,
        message: 'Unable to complete operation.',
        details: ["'where' parameter is invalid", 'cannot compare a timestamp value with an interval value'],
      });
    }
  });

  it('answers every drawn where clause with features, a count or a 400', async () => {
    await suite.checkAsync(
      fc.tuple(grammar.condition, fc.boolean()),
      async ([where, countOnly]) => {
        const params = { where, outFields: '*', ...(countOnly ? { returnCountOnly: 'true' } : {}) };
        answered(params, await query(params));
      },
      150,
    );
  });

  it('answers every drawn having condition over grouped statistics with statistics or a 400', async () => {
    const aggregate = fc
      .tuple(fc.constantFrom('SUM', 'AVG', 'MIN', 'MAX', 'COUNT', 'STDDEV', 'VAR'), grammar.value)
      .map(([f, v]) => `${f}(${v})`);
    const operand = fc.oneof(aggregate, grammar.value, fc.constantFrom('0', '1.5', "'a'", 'NULL'));
    const having = fc.oneof(
      fc
        .tuple(aggregate, fc.constantFrom('=', '<>', '<', '>='), operand)
        .map(([a, op, b]) => `${a} ${op} ${b}`),
      fc.tuple(aggregate, fc.boolean()).map(([a, not]) => `${a} IS ${not ? 'NOT ' : ''}NULL`),
    );
    await suite.checkAsync(
      fc.tuple(having, fc.constantFrom('Name', 'Small', 'Day')),
      async ([condition, groupBy]) => {
        const params = {
          where: '1=1',
          groupByFieldsForStatistics: groupBy,
          outStatistics: JSON.stringify([
            { statisticType: 'count', onStatisticField: 'OBJECTID', outStatisticFieldName: 'n' },
          ]),
          having: condition,
        };
        answered(params, await query(params));
      },
      100,
    );
  });

  it('answers any mix of query parameters with a result or a 400, in JSON, GeoJSON or protocol buffers', async () => {
    // Each parameter is left out three times in four; most values are good, a few are not, so most
    // drawn queries reach the database and some are refused for one parameter among many.
    const optional = (values: fc.Arbitrary<string>) =>
      fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: values });
    const one = (...values: string[]) => fc.constantFrom(...values);
    const junk = fc.string({ maxLength: 12 });
    const percentile = fc
      .tuple(
        one('percentile_cont', 'percentile_disc'),
        fc.oneof(fc.double(), one('0.5', '0', '1')),
        one('ASC', 'DESC'),
      )
      .map(([statisticType, value, orderBy]) => ({
        statisticType,
        statisticParameters: { value: Number(value), orderBy },
      }));
    const statistic = fc
      .tuple(
        fc.oneof(
          {
            weight: 4,
            arbitrary: one('count', 'sum', 'min', 'max', 'avg', 'stddev', 'var').map((t) => ({
              statisticType: t,
            })),
          },
          { weight: 2, arbitrary: percentile },
          { weight: 1, arbitrary: one('exceedslimit', 'median').map((t) => ({ statisticType: t })) },
        ),
        fc.oneof(
          { weight: 4, arbitrary: one('Count', 'Big', 'Ratio', 'Single', 'Small') },
          { weight: 1, arbitrary: one('Name', 'Seen', 'Day', 'Clock', 'Stamp', 'OBJECTID', '*', 'nosuch') },
        ),
        fc.oneof(
          { weight: 9, arbitrary: one('s', 'total', 'n_1') },
          { weight: 1, arbitrary: one('OBJECTID', '', 'a b') },
        ),
      )
      .map(([kind, onStatisticField, outStatisticFieldName]) => ({
        ...kind,
        onStatisticField,
        outStatisticFieldName,
      }));
    /** Left out three times in four; else a good value, or one time in ten a bad one. */
    const param = (good: string[], bad: string[] = []) =>
      optional(
        bad.length === 0
          ? one(...good)
          : fc.oneof(
              { weight: 9, arbitrary: one(...good) },
              { weight: 1, arbitrary: fc.oneof(one(...bad), junk) },
            ),
      );
    const bool = param(['true', 'false']);
    const params = fc.record(
      {
        where: fc.oneof(one('1=1'), grammar.condition),
        objectIds: param(['1,2,3', '5', '2'], ['', '0', '-1', '1.5', '99999999999', '1,,2', 'a']),
        geometry: param(
          [
            '{"xmin":-1000,"ymin":-3000,"xmax":5000,"ymax":10}',
            '{"x":0,"y":0}',
            '{"rings":[[[-100,-100],[4100,-100],[4100,100],[-100,-100]]]}',
            '{"paths":[[[0,0],[4000,-2000]]]}',
            '{"points":[[0,0],[1000,-500]]}',
            '-10,-10,10,10',
          ],
          ['{"xmin":"NaN"}', '{"rings":[]}', '{"x":1e400,"y":0}'],
        ),
        geometryType: param([
          'esriGeometryEnvelope',
          'esriGeometryPoint',
          'esriGeometryPolygon',
          'esriGeometryPolyline',
          'esriGeometryMultipoint',
        ]),
        spatialRel: param([
          'esriSpatialRelIntersects',
          'esriSpatialRelContains',
          'esriSpatialRelWithin',
          'esriSpatialRelEnvelopeIntersects',
          'esriSpatialRelTouches',
          'esriSpatialRelCrosses',
          'esriSpatialRelOverlaps',
          'esriSpatialRelIndexIntersects',
        ]),
        inSR: param(['4326', '3857', '102100', '2263', '{"wkid":4326}'], ['99999', '{"wkt":"junk"}']),
        outSR: param(['4326', '3857', '102100', '2263', '27700', '{"wkid":4326}'], ['99999', '{}']),
        distance: param(['0', '10', '100000'], ['-1', '1e300', 'a']),
        units: param([
          'esriSRUnit_Meter',
          'esriSRUnit_Kilometer',
          'esriSRUnit_StatuteMile',
          'esriSRUnit_Foot',
        ]),
        // The layer is not time-aware: a time filter is always refused, so it is drawn rarely.
        time: fc.oneof(
          { weight: 19, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: one('0,1', 'null,1577836800000', '1e20,1') },
        ),
        outFields: param(
          ['*', 'Name,Count', 'Seen,Day,Clock,Stamp', 'Code,Big,Ratio,Single,Small'],
          ['nosuch', ''],
        ),
        orderByFields: param(
          ['Name DESC', 'Seen', 'Count ASC, Ratio DESC', 'Clock', 'Code', 'Day DESC', 'Big'],
          ['nosuch'],
        ),
        groupByFieldsForStatistics: param(
          ['Name', 'Small,Day', 'Clock', 'Seen', 'Stamp', 'Code'],
          ['nosuch'],
        ),
        outStatistics: optional(
          fc
            .array(statistic, { minLength: 1, maxLength: 3 })
            .map((list) =>
              JSON.stringify(
                list.map((st, i) => ({ ...st, outStatisticFieldName: `${st.outStatisticFieldName}${i}` })),
              ),
            ),
        ),
        returnGeometry: bool,
        returnCentroid: param(['false'], ['true']),
        returnIdsOnly: bool,
        returnCountOnly: bool,
        returnExtentOnly: bool,
        returnDistinctValues: bool,
        returnZ: bool,
        returnM: bool,
        resultOffset: param(['0', '2', '4', '99999999'], ['-1', 'a']),
        resultRecordCount: param(['1', '3', '99999999999'], ['0', '-5']),
        maxAllowableOffset: param(['0', '10', '100000'], ['-1', 'a']),
        geometryPrecision: param(['0', '2', '17'], ['-1', '99']),
        quantizationParameters: param(
          [
            '{"mode":"view","originPosition":"upperLeft","tolerance":10,"extent":{"xmin":-1000,"ymin":-3000,"xmax":5000,"ymax":10}}',
            '{"mode":"edit","originPosition":"upperLeft","tolerance":0.001}',
          ],
          ['{"mode":"view"}', '{"mode":"edit","originPosition":"upperLeft","tolerance":0}'],
        ),
        sqlFormat: param(['standard', 'native', 'none']),
        returnExceededLimitFeatures: bool,
        f: one('json', 'pjson', 'geojson', 'pbf'),
      },
      { requiredKeys: ['where', 'f'] },
    );
    await suite.checkAsync(
      params,
      async (drawn) => {
        const p = Object.fromEntries(Object.entries(drawn).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >;
        const res = await kinds.app.request('/rest/services/Hosted/kinds/FeatureServer/0/query', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(p).toString(),
        });
        const context = JSON.stringify(p);
        expect(res.status, context).toBeLessThan(500);
        const bytes = Buffer.from(await res.arrayBuffer());
        const type = res.headers.get('content-type') ?? '';
        if (!type.includes('json')) {
          expect(p.f, context).toBe('pbf');
          expect(res.status, context).toBe(200);
          return;
        }
        const body = JSON.parse(bytes.toString('utf8')) as Record<string, any>;
        if (body.error) {
          expect(body.error.code, `${context} -> ${JSON.stringify(body.error)}`).toBe(400);
        }
      },
      150,
    );
  });
});
