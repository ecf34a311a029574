import { describe, expect, it } from 'vitest';
import { normalizeQuery } from '../../../lib/query/normalize/normalize-query.js';
import { parcelsLayer } from './parcels-layer.js';
import { problemOf } from './query-errors.js';
import { restJsRequest } from './rest-js-requests.js';

describe('normalizeQuery', () => {
  it('normalizes the rest-js queryFeatures defaults', () => {
    expect(normalizeQuery(restJsRequest('queryFeatures defaults'), parcelsLayer)).toEqual({
      where: null,
      objectIds: null,
      geometry: null,
      outFields: {
        all: true,
        names: ['OBJECTID', 'Name', 'POP', 'Area', 'Big', 'Surveyed', 'OpenDay', 'GlobalID'],
      },
      returnGeometry: true,
      returnCountOnly: false,
      returnIdsOnly: false,
      returnExtentOnly: false,
      returnDistinctValues: false,
      returnZ: false,
      returnM: false,
      orderBy: [],
      resultOffset: 0,
      resultRecordCount: null,
      maxRecordCountFactor: 1,
      outSR: null,
      outStatistics: null,
      groupByFieldsForStatistics: [],
      format: 'json',
      maxAllowableOffset: null,
      geometryPrecision: null,
      quantization: null,
      time: null,
      having: null,
      sqlFormat: 'standard',
      returnCentroid: false,
      returnExceededLimitFeatures: true,
    });
  });

  it('lets an ORDER BY name a statistic output', () => {
    const q = normalizeQuery(restJsRequest('statistics by name'), parcelsLayer);
    expect(q.orderBy).toEqual([{ field: 'total', direction: 'DESC' }]);
    expect(q.groupByFieldsForStatistics).toEqual(['Name']);
  });

  it('never returns geometry for a table', () => {
    const table = { ...parcelsLayer, hasGeometry: false };
    expect(normalizeQuery(restJsRequest('queryFeatures defaults'), table).returnGeometry).toBe(false);
  });

  it('refuses a geometry filter on a table', () => {
    const table = { ...parcelsLayer, hasGeometry: false };
    expect(problemOf('geometry', () => normalizeQuery({ geometry: '0,0,1,1' }, table))).toMatch(/table/);
  });

  it('refuses distinct values over * or no field', () => {
    expect(
      problemOf('outFields', () =>
        normalizeQuery({ returndistinctvalues: 'true', outfields: '*' }, parcelsLayer),
      ),
    ).toMatch(/returnDistinctValues needs a list of fields/);
  });

  it('refuses grouping without statistics', () => {
    expect(
      problemOf('groupByFieldsForStatistics', () =>
        normalizeQuery({ groupbyfieldsforstatistics: 'Name' }, parcelsLayer),
      ),
    ).toBe('grouping needs outStatistics');
  });

  it('names the first bad parameter', () => {
    expect(
      problemOf('resultRecordCount', () =>
        normalizeQuery({ where: '1=1', resultrecordcount: 'all' }, parcelsLayer),
      ),
    ).toBe("'all' is not an integer");
  });
});
