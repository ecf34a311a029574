import { describe, expect, it } from 'vitest';
import {
  boundsOfRow,
  type ResponseLayer,
  renderCount,
  renderDistinctValues,
  renderExtent,
  renderFeatureSet,
  renderIds,
  renderStatistics,
} from '../../../lib/query/feature-response.js';
import { normalizeQuery } from '../../../lib/query/normalize/normalize-query.js';
import { planFeatureQuery } from '../../../lib/query/query-plan.js';
import { featureRowOf, takePage } from '../../../lib/query/row-mapping.js';
import { parcelFields, parcelsLayer } from './parcels-layer.js';
import { restJsRequest } from './rest-js-requests.js';

const layer: ResponseLayer = {
  objectIdField: 'OBJECTID',
  globalIdField: 'GlobalID',
  geometryType: 'esriGeometryPolygon',
  spatialReference: { wkid: 102100, latestWkid: 3857 },
};
const field = (name: string) => parcelFields.lookup(name)!;

describe('feature set response', () => {
  const plan = planFeatureQuery(
    normalizeQuery(restJsRequest('queryFeatures defaults', { outFields: 'Name,Surveyed,Big' }), parcelsLayer),
    parcelsLayer,
  );
  const records = [
    {
      objectid: 1,
      name: 'A',
      surveyed: new Date('2020-01-02T03:04:05Z'),
      big: '9007199254740993',
      shape: '{"rings":[[[0,0],[0,1],[1,1],[0,0]]]}',
    },
    { objectid: 2, name: null, surveyed: '2020-01-03 00:00:00+00', big: 5, shape: null },
  ];

  it('renders the Esri JSON envelope with fields and features', () => {
    const rows = records.map((r) => featureRowOf(plan, r));
    expect(
      renderFeatureSet({
        layer,
        fields: plan.columns,
        rows,
        exceededTransferLimit: false,
        returnGeometry: true,
      }),
    ).toEqual({
      objectIdFieldName: 'OBJECTID',
      uniqueIdField: { name: 'OBJECTID', isSystemMaintained: true },
      globalIdFieldName: 'GlobalID',
      geometryType: 'esriGeometryPolygon',
      spatialReference: { wkid: 102100, latestWkid: 3857 },
      fields: [
        {
          name: 'OBJECTID',
          type: 'esriFieldTypeOID',
          alias: 'OBJECTID',
          sqlType: 'sqlTypeOther',
          domain: null,
          defaultValue: null,
        },
        {
          name: 'Name',
          type: 'esriFieldTypeString',
          alias: 'Parcel name',
          sqlType: 'sqlTypeOther',
          length: 256,
          domain: null,
          defaultValue: null,
        },
        {
          name: 'Surveyed',
          type: 'esriFieldTypeDate',
          alias: 'Surveyed',
          sqlType: 'sqlTypeOther',
          domain: null,
          defaultValue: null,
        },
        {
          name: 'Big',
          type: 'esriFieldTypeBigInteger',
          alias: 'Big',
          sqlType: 'sqlTypeOther',
          domain: null,
          defaultValue: null,
        },
      ],
      features: [
        {
          attributes: { OBJECTID: 1, Name: 'A', Surveyed: 1577934245000, Big: 9007199254740992 },
          geometry: {
            rings: [
              [
                [0, 0],
                [0, 1],
                [1, 1],
                [0, 0],
              ],
            ],
          },
        },
        { attributes: { OBJECTID: 2, Name: null, Surveyed: 1578009600000, Big: 5 }, geometry: null },
      ],
      exceededTransferLimit: false,
    });
  });

  it('leaves geometry out when it was not asked', () => {
    const rows = records.map((r) => featureRowOf(plan, r));
    const out = renderFeatureSet({
      layer,
      fields: plan.columns,
      rows,
      exceededTransferLimit: false,
      returnGeometry: false,
    });
    expect((out.features as object[])[0]).toEqual({
      attributes: { OBJECTID: 1, Name: 'A', Surveyed: 1577934245000, Big: 9007199254740992 },
    });
  });

  it('has no geometry type or spatial reference for a table', () => {
    const table = { ...layer, geometryType: null };
    const out = renderFeatureSet({
      layer: table,
      fields: [field('OBJECTID')],
      rows: [],
      exceededTransferLimit: false,
      returnGeometry: true,
    });
    expect(out).not.toHaveProperty('geometryType');
    expect(out).not.toHaveProperty('spatialReference');
    expect(out.features).toEqual([]);
  });

  it('rounds coordinates to geometryPrecision', () => {
    const rows = [{ objectid: 1, attrs: {}, shape: { x: 1.23456, y: -9.87654 } }];
    const out = renderFeatureSet({
      layer: { ...layer, geometryType: 'esriGeometryPoint' },
      fields: [field('OBJECTID')],
      rows,
      exceededTransferLimit: false,
      returnGeometry: true,
      geometryPrecision: 2,
    });
    expect((out.features as Array<{ geometry: unknown }>)[0].geometry).toEqual({ x: 1.23, y: -9.88 });
  });
});

describe('paging the extra row', () => {
  it('reports exceededTransferLimit when the extra row came back, and drops it', () => {
    expect(takePage([1, 2, 3], 2)).toEqual({ rows: [1, 2], exceededTransferLimit: true });
  });

  it('does not report it when the page is not full', () => {
    expect(takePage([1, 2], 2)).toEqual({ rows: [1, 2], exceededTransferLimit: false });
  });
});

describe('count, ids and extent responses', () => {
  it('renders a count from a driver string', () => {
    expect(renderCount('42')).toEqual({ count: 42 });
  });

  it('renders ids under the object id field name', () => {
    expect(renderIds('OBJECTID', [1, '2'])).toEqual({ objectIdFieldName: 'OBJECTID', objectIds: [1, 2] });
  });

  it('renders an extent with its spatial reference and the count', () => {
    const row = { count: 3, xmin: 1, ymin: '2', xmax: 3, ymax: 4 };
    expect(renderExtent(boundsOfRow(row), { wkid: 4326 }, row.count)).toEqual({
      count: 3,
      extent: { xmin: 1, ymin: 2, xmax: 3, ymax: 4, spatialReference: { wkid: 4326 } },
    });
  });

  it('renders the extent of nothing with NaN coordinates', () => {
    expect(
      renderExtent(boundsOfRow({ xmin: null, ymin: null, xmax: null, ymax: null }), { wkid: 4326 }),
    ).toEqual({
      extent: { xmin: 'NaN', ymin: 'NaN', xmax: 'NaN', ymax: 'NaN', spatialReference: { wkid: 4326 } },
    });
  });
});

describe('statistics and distinct values', () => {
  it('renders one feature per group with typed output fields', () => {
    const plan = planFeatureQuery(
      normalizeQuery(restJsRequest('statistics by name'), parcelsLayer),
      parcelsLayer,
    );
    const out = renderStatistics(
      plan.groupBy,
      plan.statistics,
      [{ name: 'A', stat_0: '12.5', stat_1: 2 }],
      false,
    );
    expect(out).toEqual({
      displayFieldName: '',
      fieldAliases: { Name: 'Parcel name', total: 'total', n: 'n' },
      fields: [
        {
          name: 'Name',
          type: 'esriFieldTypeString',
          alias: 'Parcel name',
          sqlType: 'sqlTypeOther',
          length: 256,
          domain: null,
          defaultValue: null,
        },
        {
          name: 'total',
          type: 'esriFieldTypeDouble',
          alias: 'total',
          sqlType: 'sqlTypeOther',
          domain: null,
          defaultValue: null,
        },
        {
          name: 'n',
          type: 'esriFieldTypeInteger',
          alias: 'n',
          sqlType: 'sqlTypeOther',
          domain: null,
          defaultValue: null,
        },
      ],
      features: [{ attributes: { Name: 'A', total: 12.5, n: 2 } }],
      exceededTransferLimit: false,
    });
  });

  it('keeps the date type of a max over a Date field', () => {
    const q = normalizeQuery(
      {
        outstatistics:
          '[{"statisticType":"max","onStatisticField":"Surveyed","outStatisticFieldName":"last"}]',
      },
      parcelsLayer,
    );
    const plan = planFeatureQuery(q, parcelsLayer);
    const out = renderStatistics(plan.groupBy, plan.statistics, [{ stat_0: new Date(1000) }], false);
    expect(out.features).toEqual([{ attributes: { last: 1000 } }]);
    expect((out.fields as Array<{ type: string }>)[0].type).toBe('esriFieldTypeDate');
  });

  it('renders distinct values as attribute-only features', () => {
    expect(
      renderDistinctValues([field('OpenDay')], [{ OpenDay: new Date('2021-03-04T00:00:00Z') }], true),
    ).toEqual({
      fields: [
        {
          name: 'OpenDay',
          type: 'esriFieldTypeDateOnly',
          alias: 'Open day',
          sqlType: 'sqlTypeOther',
          domain: null,
          defaultValue: null,
        },
      ],
      features: [{ attributes: { OpenDay: '2021-03-04' } }],
      exceededTransferLimit: true,
    });
  });
});
