import { describe, expect, it } from 'vitest';
import { normalizeOrderBy } from '../../../lib/query/normalize/order-by.js';
import { normalizeGroupBy, normalizeOutFields } from '../../../lib/query/normalize/out-fields.js';
import { normalizeOutStatistics } from '../../../lib/query/normalize/out-statistics.js';
import { parcelFields } from './parcels-layer.js';
import { problemOf } from './query-errors.js';

describe('outFields', () => {
  it('is no attribute but the object id when absent', () => {
    expect(normalizeOutFields(undefined, parcelFields)).toEqual({ all: false, names: [] });
  });

  it('expands * to every attribute field in declaration order, without the shape', () => {
    expect(normalizeOutFields('*', parcelFields)).toEqual({
      all: true,
      names: ['OBJECTID', 'Name', 'POP', 'Area', 'Big', 'Surveyed', 'OpenDay', 'GlobalID'],
    });
  });

  it('answers listed names in their canonical spelling, once each', () => {
    expect(normalizeOutFields('pop, NAME,pop', parcelFields)).toEqual({ all: false, names: ['POP', 'Name'] });
  });

  it('skips the geometry field in a list', () => {
    expect(normalizeOutFields('Name,Shape', parcelFields)).toEqual({ all: false, names: ['Name'] });
  });

  it('refuses an unknown field', () => {
    expect(problemOf('outFields', () => normalizeOutFields('Name,Owner', parcelFields))).toBe(
      "unknown field 'Owner'",
    );
  });
});

describe('orderByFields', () => {
  it('reads fields with optional directions', () => {
    expect(normalizeOrderBy('pop DESC, name', parcelFields)).toEqual([
      { field: 'POP', direction: 'DESC' },
      { field: 'Name', direction: 'ASC' },
    ]);
  });

  it('accepts a statistic output name when given one', () => {
    expect(normalizeOrderBy('total desc', parcelFields, ['TOTAL'])).toEqual([
      { field: 'TOTAL', direction: 'DESC' },
    ]);
  });

  it('refuses a bad direction, extra words and unknown fields', () => {
    expect(problemOf('orderByFields', () => normalizeOrderBy('pop DOWN', parcelFields))).toBe(
      "'DOWN' is not ASC or DESC",
    );
    expect(problemOf('orderByFields', () => normalizeOrderBy('pop DESC; drop', parcelFields))).toMatch(
      /not a field name/,
    );
    expect(problemOf('orderByFields', () => normalizeOrderBy('height', parcelFields))).toBe(
      "unknown field 'height'",
    );
  });

  it('refuses ordering by the shape', () => {
    expect(problemOf('orderByFields', () => normalizeOrderBy('Shape', parcelFields))).toMatch(
      /geometry field/,
    );
  });
});

describe('groupByFieldsForStatistics', () => {
  it('reads a list of fields', () => {
    expect(normalizeGroupBy('name,pop', parcelFields)).toEqual(['Name', 'POP']);
  });

  it('refuses an unknown field', () => {
    expect(problemOf('groupByFieldsForStatistics', () => normalizeGroupBy('zone', parcelFields))).toBe(
      "unknown field 'zone'",
    );
  });
});

describe('outStatistics', () => {
  it('reads statistics with canonical field names', () => {
    const value = '[{"statisticType":"SUM","onStatisticField":"pop","outStatisticFieldName":"total"}]';
    expect(normalizeOutStatistics(value, parcelFields)).toEqual([
      { statisticType: 'sum', onStatisticField: 'POP', outStatisticFieldName: 'total' },
    ]);
  });

  it('names an unnamed statistic after its type and field', () => {
    const value = '[{"statisticType":"max","onStatisticField":"Surveyed"}]';
    expect(normalizeOutStatistics(value, parcelFields)?.[0].outStatisticFieldName).toBe('MAX_Surveyed');
  });

  it('counts rows over *', () => {
    expect(
      normalizeOutStatistics('[{"statisticType":"count","onStatisticField":"*"}]', parcelFields),
    ).toEqual([{ statisticType: 'count', onStatisticField: '*', outStatisticFieldName: 'COUNT_ALL' }]);
  });

  it('refuses an unknown statistic type', () => {
    expect(
      problemOf('outStatistics', () =>
        normalizeOutStatistics('[{"statisticType":"median","onStatisticField":"pop"}]', parcelFields),
      ),
    ).toMatch(/'median' is not one of/);
  });

  it('refuses a sum over text', () => {
    expect(
      problemOf('outStatistics', () =>
        normalizeOutStatistics('[{"statisticType":"sum","onStatisticField":"Name"}]', parcelFields),
      ),
    ).toBe("sum needs a numeric field; 'Name' is not one");
  });

  it('refuses two statistics with one output name', () => {
    const value =
      '[{"statisticType":"min","onStatisticField":"pop","outStatisticFieldName":"x"},{"statisticType":"max","onStatisticField":"pop","outStatisticFieldName":"X"}]';
    expect(problemOf('outStatistics', () => normalizeOutStatistics(value, parcelFields))).toMatch(
      /used twice/,
    );
  });

  it('refuses JSON that is not a list of statistics', () => {
    expect(problemOf('outStatistics', () => normalizeOutStatistics('[1]', parcelFields))).toBe(
      'each statistic must be an object',
    );
    expect(problemOf('outStatistics', () => normalizeOutStatistics('sum(pop)', parcelFields))).toBe(
      'the value is not valid JSON',
    );
  });
});
