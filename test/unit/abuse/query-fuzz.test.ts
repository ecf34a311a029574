import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeQuery } from '../../../lib/query/normalize/normalize-query.js';
import { planFeatureQuery } from '../../../lib/query/query-plan.js';
import { parcelsLayer } from '../query/parcels-layer.js';
import { fuzzSuite, succeedsOrRefuses } from './fuzz-support.js';

const suite = fuzzSuite('query parameters');

const TOKENS = [
  'POP',
  'Name',
  'Area',
  'Big',
  'Surveyed',
  'OpenDay',
  'OBJECTID',
  'Shape',
  'nosuchfield',
  '"POP"',
  '=',
  '<>',
  '<',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '||',
  'AND',
  'OR',
  'NOT',
  '(',
  ')',
  ',',
  "'x'",
  "''''",
  '1',
  '0',
  '-1',
  '1.5e308',
  '9223372036854775808',
  'NULL',
  'LIKE',
  "'%a_'",
  'ESCAPE',
  "'\\'",
  'IN',
  'BETWEEN',
  'IS',
  'CAST(',
  'AS',
  'INTEGER',
  'VARCHAR(10)',
  'UPPER(',
  'LOWER(',
  'CHAR_LENGTH(',
  'POWER(',
  'MOD(',
  'EXTRACT(YEAR FROM',
  "DATE '2020-01-01'",
  "TIMESTAMP '2020-01-01 00:00:00'",
  'CURRENT_DATE',
  '--',
  ';',
  'DROP TABLE x',
  '/*',
  '*/',
  '$1',
  '\u0000',
  'ＰＯＰ',
  'pg_sleep(10)',
];

/** Where clauses: arbitrary text, sequences of the grammar's own tokens, and deep nesting. */
const whereClause = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join(' ')),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${'('.repeat(n)}POP = 1${')'.repeat(n)}`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${'NOT '.repeat(n)}POP = 1`),
  fc
    .integer({ min: 1, max: 5_000 })
    .map((n) => Array.from({ length: n }, (_, i) => `POP = ${i}`).join(' OR ')),
);

const fieldList = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc
    .array(
      fc.constantFrom(
        'POP',
        'Name',
        'Area DESC',
        'Area ASC',
        'nosuch',
        '*',
        'POP,POP',
        ' ',
        'Shape',
        'Surveyed',
      ),
      {
        maxLength: 12,
      },
    )
    .map((a) => a.join(',')),
);

const statistics = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.json({ maxDepth: 4 }),
  fc
    .array(
      fc.record({
        statisticType: fc.constantFrom(
          'count',
          'sum',
          'min',
          'max',
          'avg',
          'stddev',
          'var',
          'percentile_cont',
          'evil',
          '',
        ),
        onStatisticField: fc.constantFrom('POP', 'Area', 'Name', '*', 'nosuch', 'POP; DROP TABLE x', ''),
        outStatisticFieldName: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('"quoted"')),
      }),
      { maxLength: 5 },
    )
    .map((a) => JSON.stringify(a)),
);

describe('query parameters under abuse', () => {
  it('every where clause plans or is refused with a clear 400', () => {
    suite.check(whereClause, (where) =>
      succeedsOrRefuses(() => planFeatureQuery(normalizeQuery({ where }, parcelsLayer), parcelsLayer)),
    );
  });

  it('string literals reach the database as bound parameters, never as SQL text', () => {
    suite.check(fc.string({ minLength: 1, maxLength: 60 }), (s) => {
      const where = `Name = '${s.replaceAll("'", "''")}'`;
      let plan: ReturnType<typeof planFeatureQuery>;
      try {
        plan = planFeatureQuery(normalizeQuery({ where }, parcelsLayer), parcelsLayer);
      } catch (e) {
        return succeedsOrRefuses(() => {
          throw e;
        });
      }
      const text = JSON.stringify(plan);
      // The literal travels as a parameter value (JSON-escaped), whatever quotes or SQL it holds.
      expect(text).toContain(JSON.stringify({ param: s }).slice(1, -1));
    });
  });

  it('order, group, outFields and statistics parameters plan or are refused with a clear 400', () => {
    suite.check(
      fc.record({
        orderByFields: fieldList,
        groupByFieldsForStatistics: fieldList,
        outFields: fieldList,
        outStatistics: statistics,
        resultRecordCount: fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String)),
        resultOffset: fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String)),
      }),
      (params) => {
        const lower = Object.fromEntries(Object.entries(params).map(([k, v]) => [k.toLowerCase(), v]));
        succeedsOrRefuses(() => planFeatureQuery(normalizeQuery(lower, parcelsLayer), parcelsLayer));
      },
    );
  });

  it('filter geometries of any shape are taken or refused with a clear 400', () => {
    suite.check(
      fc.oneof(
        fc.string({ maxLength: 100 }),
        fc.json({ maxDepth: 5 }),
        fc
          .array(fc.tuple(fc.double(), fc.double()), { maxLength: 50 })
          .map((ring) => JSON.stringify({ rings: [ring] })),
        fc.constantFrom('{"rings":[[[0,0],[1,0],[0,1]]]}', '{"x":"NaN","y":1e999}', '{"paths":[]}'),
      ),
      (geometry) => succeedsOrRefuses(() => normalizeQuery({ geometry }, parcelsLayer)),
      60,
    );
  });

  it('a filter geometry over the vertex cap is refused, not tested against every row', () => {
    const geometry = JSON.stringify({ paths: [Array.from({ length: 100_001 }, (_, i) => [i, i])] });
    suite.count();
    expect(() => normalizeQuery({ geometry }, parcelsLayer)).toThrow(
      expect.objectContaining({ code: 400, details: [expect.stringContaining('at most 100000')] }),
    );
  });
});
