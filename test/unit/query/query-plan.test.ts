import { describe, expect, it } from 'vitest';
import { normalizeQuery } from '../../../lib/query/normalize/normalize-query.js';
import { SHAPE_COLUMNS } from '../../../lib/query/plan-statements.js';
import { planFeatureQuery } from '../../../lib/query/query-plan.js';
import { toPositional } from '../../../lib/query/sql-chunks.js';
import { parcelsLayer } from './parcels-layer.js';
import { problemOf } from './query-errors.js';
import { restJsRequest } from './rest-js-requests.js';

const planOf = (name: string, extra: Record<string, string> = {}, layer = parcelsLayer) =>
  planFeatureQuery(normalizeQuery(restJsRequest(name, extra), layer), layer);

const ALL_COLUMNS = '"objectid", "name", "pop", "area", "big", "surveyed", "open_day", "globalid"';

describe('query plans for typical rest-js requests', () => {
  it('asks for one row beyond maxRecordCount for the queryFeatures defaults', () => {
    const plan = planOf('queryFeatures defaults');
    expect(plan.mode).toBe('features');
    expect(plan.pageSize).toBe(2000);
    expect(plan.limit).toBe(2001);
    expect(plan.spatialFilter).toBeNull();
    expect(toPositional(plan.statement())).toEqual({
      text: `SELECT ${ALL_COLUMNS}, ${SHAPE_COLUMNS} FROM "fl_parcels_0" ORDER BY "objectid" LIMIT $1::integer`,
      params: [2001],
    });
  });

  it('puts the object id field first among the columns', () => {
    expect(planOf('queryFeatures defaults', { outFields: 'Name' }).columns.map((c) => c.name)).toEqual([
      'OBJECTID',
      'Name',
    ]);
  });

  it('pages with the offset of queryAllFeatures', () => {
    expect(toPositional(planOf('queryAllFeatures second page').statement())).toEqual({
      text: `SELECT ${ALL_COLUMNS}, ${SHAPE_COLUMNS} FROM "fl_parcels_0" ORDER BY "objectid" LIMIT $1::integer OFFSET $2::integer`,
      params: [2001, 2000],
    });
  });

  it('caps resultRecordCount at maxRecordCount', () => {
    expect(planOf('queryFeatures defaults', { resultRecordCount: '5000' }).limit).toBe(2001);
    expect(planOf('queryFeatures defaults', { resultRecordCount: '10' }).limit).toBe(11);
  });

  it('leaves the shape out when returnGeometry is false', () => {
    expect(
      planOf('queryFeatures defaults', { returnGeometry: 'false', outFields: 'Name' }).statement().chunks[0],
    ).toBe('SELECT "objectid", "name" FROM "fl_parcels_0" ORDER BY "objectid" LIMIT ');
  });

  it('orders by the asked fields, then by object id for stable pages', () => {
    const plan = planOf('queryFeatures defaults', { orderByFields: 'POP DESC,Name', outFields: 'Name' });
    expect(toPositional(plan.statement()).text).toBe(
      `SELECT "objectid", "name", ${SHAPE_COLUMNS} FROM "fl_parcels_0" ORDER BY "pop" DESC, "name" ASC, "objectid" LIMIT $1::integer`,
    );
  });

  it('filters a map view envelope by the bbox index and then exactly, as the layer holds polygons', () => {
    const plan = planOf('map view envelope');
    expect(toPositional(plan.spatialFilter!.candidates)).toEqual({
      text:
        `SELECT "objectid", ${SHAPE_COLUMNS} FROM "fl_parcels_0" WHERE "bbox" && box(point($1::double precision, $2::double precision),` +
        ' point($3::double precision, $4::double precision)) ORDER BY "objectid"',
      params: [-9200000, 4200000, -9100000, 4300000],
    });
    expect(plan.spatialFilter!.filter.spatialRel).toBe('esriSpatialRelIntersects');
    expect(toPositional(plan.statement([7, 9]))).toEqual({
      text: `SELECT "objectid", "name", ${SHAPE_COLUMNS} FROM "fl_parcels_0" WHERE "objectid" = ANY($1::integer[]) ORDER BY "objectid" LIMIT $2::integer`,
      params: ['{7,9}', 2001],
    });
  });

  it('trusts the bbox index alone for points in an envelope given in the storage reference', () => {
    const points = { ...parcelsLayer, geometryType: 'esriGeometryPoint' as const };
    const plan = planOf('map view envelope', {}, points);
    expect(plan.spatialFilter).toBeNull();
    const { text, params } = toPositional(plan.statement());
    expect(text).toContain('WHERE "bbox" && box(');
    // The same box also as the point in it, which the point layers' sorted GiST index serves.
    expect(text).toMatch(
      /AND \("bbox"\[0\]\) <@ box\(point\(\$5::double precision, \$6::double precision\), point\(\$7/,
    );
    expect(params.slice(4, 8)).toEqual(params.slice(0, 4));
  });

  it('still tests points exactly for Within, which Esri reads from the query geometry side', () => {
    const points = { ...parcelsLayer, geometryType: 'esriGeometryPoint' as const };
    expect(
      planOf('map view envelope', { spatialRel: 'esriSpatialRelWithin' }, points).spatialFilter,
    ).not.toBeNull();
  });

  it('trusts the bbox index alone for envelope-intersects', () => {
    expect(
      planOf('map view envelope', { spatialRel: 'esriSpatialRelEnvelopeIntersects' }).spatialFilter,
    ).toBeNull();
  });

  it('uses the envelope projected by the caller for the bbox test', () => {
    const q = normalizeQuery(restJsRequest('map view envelope'), parcelsLayer);
    const plan = planFeatureQuery(q, parcelsLayer, { filterBounds: [-82.6, 35.3, -81.7, 36.0] });
    expect(toPositional(plan.spatialFilter!.candidates).params).toEqual([-82.6, 35.3, -81.7, 36.0]);
  });

  it('counts with the where clause compiled', () => {
    expect(toPositional(planOf('count with filter').statement())).toEqual({
      text: 'SELECT count(*)::integer AS "count" FROM "fl_parcels_0" WHERE ("pop" > $1::bigint)',
      params: [1000],
    });
  });

  it('lists ids without a limit, in object id order', () => {
    const plan = planOf('ids only');
    expect(plan.limit).toBeNull();
    expect(toPositional(plan.statement())).toEqual({
      text: `SELECT "objectid" FROM "fl_parcels_0" WHERE ("name" LIKE $1::text ESCAPE '') ORDER BY "objectid"`,
      params: ['A%'],
    });
  });

  it('combines where and objectIds with AND', () => {
    const plan = planOf('count with filter', { objectIds: '1,2' });
    expect(toPositional(plan.statement())).toEqual({
      text: 'SELECT count(*)::integer AS "count" FROM "fl_parcels_0" WHERE ("pop" > $1::bigint) AND "objectid" = ANY($2::integer[])',
      params: [1000, '{1,2}'],
    });
  });

  it('reads the extent from the bbox column, with the count when both are asked', () => {
    expect(toPositional(planOf('count with filter', { returnExtentOnly: 'true' }).statement()).text).toBe(
      'SELECT "count", ("e"[1])[0] AS "xmin", ("e"[1])[1] AS "ymin", ("e"[0])[0] AS "xmax", ("e"[0])[1] AS "ymax"' +
        ' FROM (SELECT count(*)::integer AS "count", feature_extent("bbox") AS "e" FROM "fl_parcels_0"' +
        ' WHERE ("pop" > $1::bigint)) AS "x"',
    );
  });

  it('aggregates statistics by group and orders by an output name', () => {
    const plan = planOf('statistics by name');
    expect(plan.mode).toBe('statistics');
    expect(plan.statistics.map((s) => [s.alias, s.outStatisticFieldName])).toEqual([
      ['stat_0', 'total'],
      ['stat_1', 'n'],
    ]);
    expect(toPositional(plan.statement())).toEqual({
      text:
        'SELECT "name", sum("pop")::double precision AS "stat_0", count("objectid")::integer AS "stat_1"' +
        ' FROM "fl_parcels_0" GROUP BY "name" ORDER BY "stat_0" DESC, "name" LIMIT $1::integer',
      params: [2001],
    });
  });

  it('selects distinct values of the asked fields only', () => {
    const plan = planOf('queryFeatures defaults', {
      returnDistinctValues: 'true',
      outFields: 'Name,POP',
      orderByFields: 'POP DESC',
    });
    expect(plan.mode).toBe('distinct');
    expect(toPositional(plan.statement()).text).toBe(
      'SELECT DISTINCT "name", "pop" FROM "fl_parcels_0" ORDER BY "pop" DESC, "name" LIMIT $1::integer',
    );
  });

  it('counts distinct values when both are asked', () => {
    const plan = planOf('queryFeatures defaults', {
      returnDistinctValues: 'true',
      returnCountOnly: 'true',
      outFields: 'Name',
    });
    expect(toPositional(plan.statement()).text).toBe(
      'SELECT count(*)::integer AS "count" FROM (SELECT DISTINCT "name" FROM "fl_parcels_0") AS "d"',
    );
  });

  it('refuses ordering distinct values by a field that is not returned', () => {
    expect(
      problemOf('orderByFields', () =>
        planOf('queryFeatures defaults', {
          returnDistinctValues: 'true',
          outFields: 'Name',
          orderByFields: 'POP',
        }),
      ),
    ).toMatch(/must be one of outFields/);
  });

  it('reports an unknown field of the where clause when planning', () => {
    expect(problemOf('where', () => planOf('queryFeatures defaults', { where: "Owner = 'x'" }))).toBe(
      "unknown field 'Owner'",
    );
  });

  it('sends a polygon-within filter through the exact two-phase path', () => {
    const plan = planOf('polygon within');
    expect(plan.spatialFilter?.filter.spatialRel).toBe('esriSpatialRelWithin');
    expect(plan.limit).toBe(11);
  });
});
