import { describe, expect, it } from 'vitest';
import type { LayerCatalog } from '../../../lib/query/layer-catalog.js';
import { normalizeQuery } from '../../../lib/query/normalize/normalize-query.js';
import { planFeatureQuery } from '../../../lib/query/query-plan.js';
import { toPositional } from '../../../lib/query/sql-chunks.js';
import { parcelsLayer } from './parcels-layer.js';
import { problemOf } from './query-errors.js';

const polygons: LayerCatalog = { ...parcelsLayer, geometryType: 'esriGeometryPolygon' };
const timed: LayerCatalog = { ...polygons, timeInfo: { startField: 'Surveyed', endField: null } };
const sqlOf = (params: Record<string, string>, layer: LayerCatalog = polygons) =>
  toPositional(planFeatureQuery(normalizeQuery(params, layer), layer).statement());

describe('parameters this server cannot honour', () => {
  it.each([
    ['returnGeodetic', 'returngeodetic', 'true'],
    ['returnEnvelope', 'returnenvelope', 'true'],
    ['returnQueryGeometry', 'returnquerygeometry', 'true'],
    ['returnUniqueIdsOnly', 'returnuniqueidsonly', 'true'],
    ['applyVCSProjection', 'applyvcsprojection', 'true'],
    ['gdbVersion', 'gdbversion', 'SDE.DEFAULT'],
    ['historicMoment', 'historicmoment', '1577836800000'],
    ['datumTransformation', 'datumtransformation', '1188'],
    ['collation', 'collation', 'en_US'],
    ['rangeValues', 'rangevalues', '[]'],
    ['parameterValues', 'parametervalues', '{}'],
    ['uniqueIds', 'uniqueids', '1,2'],
    ['relationParam', 'relationparam', 'FFFTTT***'],
    ['resultType', 'resulttype', 'compact'],
    ['featureEncoding', 'featureencoding', 'esriCompressedShapeBuffer'],
    ['maxRecordCountFactor', 'maxrecordcountfactor', '6'],
    ['multipatchOption', 'multipatchoption', 'wireframe'],
    ['timeRelation', 'timerelation', 'esriTimeRelationAfterStartOverlapsEnd'],
  ])('refuses %s=%s naming it', (name, key, value) => {
    expect(problemOf(name, () => normalizeQuery({ [key]: value }, polygons))).toBeTruthy();
  });

  it('accepts the values that change nothing here', () => {
    const q = normalizeQuery(
      {
        returngeodetic: 'false',
        returntruecurves: 'true',
        cachehint: 'true',
        timereferenceunknownclient: 'true',
        multipatchoption: 'xyFootprint',
        resulttype: 'none',
        featureencoding: 'esriDefault',
        maxrecordcountfactor: '1',
        gdbversion: '',
      },
      polygons,
    );
    expect(q.where).toBeNull();
  });

  it('raises the page to maxRecordCount × maxRecordCountFactor (the Maps SDK asks 4)', () => {
    const layer: LayerCatalog = { ...polygons, maxRecordCount: 1000 };
    const pageOf = (params: Record<string, string>) =>
      planFeatureQuery(normalizeQuery(params, layer), layer).pageSize;
    expect(pageOf({})).toBe(1000);
    expect(pageOf({ maxrecordcountfactor: '4' })).toBe(4000);
    expect(pageOf({ maxrecordcountfactor: '4', resultrecordcount: '2500' })).toBe(2500);
    expect(
      problemOf('maxRecordCountFactor', () => normalizeQuery({ maxrecordcountfactor: '0' }, layer)),
    ).toBeTruthy();
  });

  it('ignores parameters ArcGIS does not document, as ArcGIS does', () => {
    expect(normalizeQuery({ _ts: '123', callback: 'cb' }, polygons).where).toBeNull();
  });
});

describe('having', () => {
  const stats = '[{"statisticType":"sum","onStatisticField":"POP","outStatisticFieldName":"total"}]';

  it('filters the groups with aggregates, every value bound', () => {
    const { text, params } = sqlOf({
      outstatistics: stats,
      groupbyfieldsforstatistics: 'Name',
      having: "SUM(POP) > 1000 AND COUNT(*) >= 2 AND Name <> 'x'",
    });
    expect(text).toBe(
      'SELECT "name", sum("pop")::double precision AS "stat_0" FROM "fl_parcels_0" GROUP BY "name"' +
        ' HAVING ((sum("pop")::double precision > $1::bigint) AND (count(*) >= $2::bigint) AND ("name" <> $3::text))' +
        ' ORDER BY "name" LIMIT $4::integer',
    );
    expect(params).toEqual([1000, 2, 'x', 2001]);
  });

  it('refuses a field outside an aggregate that is not grouped, nested aggregates, and no aggregate', () => {
    const q = { outstatistics: stats, groupbyfieldsforstatistics: 'Name' };
    expect(problemOf('having', () => normalizeQuery({ ...q, having: 'POP > 3' }, polygons))).toMatch(
      /neither inside an aggregate nor a group-by field/,
    );
    expect(
      problemOf('having', () => normalizeQuery({ ...q, having: 'SUM(MAX(POP)) > 3' }, polygons)),
    ).toMatch(/do not nest/);
    expect(problemOf('having', () => normalizeQuery({ ...q, having: "Name = 'a'" }, polygons))).toMatch(
      /at least one aggregate/,
    );
  });

  it('refuses statements, unknown fields and text in a numeric aggregate, naming having', () => {
    const q = { outstatistics: stats, groupbyfieldsforstatistics: 'Name' };
    expect(
      problemOf('having', () => normalizeQuery({ ...q, having: 'SUM(POP) > 1; DROP TABLE x' }, polygons)),
    ).toBeTruthy();
    expect(problemOf('having', () => sqlOf({ ...q, having: 'SUM(Nope) > 1' }))).toMatch(/unknown field/);
    expect(problemOf('having', () => sqlOf({ ...q, having: 'AVG(Name) > 1' }))).toMatch(/AVG/);
  });

  it('needs outStatistics', () => {
    expect(problemOf('having', () => normalizeQuery({ having: 'COUNT(*) > 1' }, polygons))).toMatch(
      /outStatistics/,
    );
  });

  it('does not admit aggregates in where', () => {
    expect(problemOf('where', () => normalizeQuery({ where: 'SUM(POP) > 1' }, polygons))).toMatch(
      /unknown function SUM/,
    );
  });
});

describe('sqlFormat', () => {
  it('reads LOG as the natural logarithm in standard SQL and as base 10 natively', () => {
    expect(sqlOf({ where: 'LOG(POP) > 1' }).text).toContain('ln("pop")');
    expect(sqlOf({ where: 'LOG(POP) > 1', sqlformat: 'none' }).text).toContain('ln("pop")');
    expect(sqlOf({ where: 'LOG(POP) > 1', sqlformat: 'native' }).text).toContain('log("pop")');
    expect(sqlOf({ where: 'LN(POP) > 1', sqlformat: 'native' }).text).toContain('ln("pop")');
  });

  it('takes PostgreSQL spellings natively only', () => {
    expect(sqlOf({ where: 'LENGTH(Name) = 3', sqlformat: 'native' }).text).toContain('char_length("name")');
    expect(problemOf('where', () => normalizeQuery({ where: 'LENGTH(Name) = 3' }, polygons))).toMatch(
      /unknown function LENGTH/,
    );
    expect(
      problemOf('where', () => normalizeQuery({ where: 'TRUNCATE(POP) = 3', sqlformat: 'native' }, polygons)),
    ).toMatch(/unknown function TRUNCATE/);
  });

  it('refuses other values', () => {
    expect(problemOf('sqlFormat', () => normalizeQuery({ sqlformat: 'oracle' }, polygons))).toMatch(/native/);
  });
});

describe('percentile statistics', () => {
  it('are ordered-set aggregates with the fraction bound and the order asked', () => {
    const { text, params } = sqlOf({
      outstatistics: JSON.stringify([
        {
          statisticType: 'PERCENTILE_CONT',
          onStatisticField: 'Area',
          outStatisticFieldName: 'p90',
          statisticParameters: { value: 0.9 },
        },
        {
          statisticType: 'percentile_disc',
          onStatisticField: 'POP',
          outStatisticFieldName: 'p25',
          statisticParameters: { value: 0.25, orderBy: 'desc' },
        },
      ]),
    });
    expect(text).toBe(
      'SELECT percentile_cont($1::double precision) WITHIN GROUP (ORDER BY "area" ASC)::double precision AS "stat_0",' +
        ' percentile_disc($2::double precision) WITHIN GROUP (ORDER BY "pop" DESC) AS "stat_1" FROM "fl_parcels_0" LIMIT $3::integer',
    );
    expect(params).toEqual([0.9, 0.25, 2001]);
  });

  it('need a fraction from 0 to 1 and a numeric field for the continuous one', () => {
    const stat = (extra: object) =>
      JSON.stringify([{ statisticType: 'percentile_cont', onStatisticField: 'Area', ...extra }]);
    expect(problemOf('outStatistics', () => normalizeQuery({ outstatistics: stat({}) }, polygons))).toMatch(
      /statisticParameters/,
    );
    expect(
      problemOf('outStatistics', () =>
        normalizeQuery({ outstatistics: stat({ statisticParameters: { value: 1.5 } }) }, polygons),
      ),
    ).toMatch(/0 to 1/);
    expect(
      problemOf('outStatistics', () =>
        normalizeQuery(
          { outstatistics: stat({ onStatisticField: 'Name', statisticParameters: { value: 0.5 } }) },
          polygons,
        ),
      ),
    ).toMatch(/numeric/);
  });
});

describe('time', () => {
  it('keeps features whose time overlaps the extent, open ends bounding nothing', () => {
    const { text, params } = sqlOf({ time: '1000,null', returncountonly: 'true' }, timed);
    expect(text).toBe(
      'SELECT count(*)::integer AS "count" FROM "fl_parcels_0" WHERE ("surveyed" IS NOT NULL AND "surveyed" >= $1::timestamptz)',
    );
    expect(params).toEqual(['1970-01-01T00:00:01.000Z']);
  });

  it('reads an instant as an extent of one instant, against the start and end fields, a null end not ended', () => {
    const layer = { ...timed, timeInfo: { startField: 'Surveyed', endField: 'OpenDay' } };
    const { text, params } = sqlOf({ time: '86400000', returncountonly: 'true' }, layer);
    expect(text).toContain(
      '("surveyed" IS NOT NULL AND "surveyed" <= $1::timestamptz AND ("open_day" IS NULL OR "open_day" >= $2::timestamptz))',
    );
    expect(params).toEqual(['1970-01-02T00:00:00.000Z', '1970-01-02T00:00:00.000Z']);
  });

  it('is refused on a layer that is not time-aware, and when malformed', () => {
    expect(problemOf('time', () => normalizeQuery({ time: '0' }, polygons))).toMatch(/not time-aware/);
    expect(problemOf('time', () => normalizeQuery({ time: '5,1' }, timed))).toMatch(/before the start/);
    expect(problemOf('time', () => normalizeQuery({ time: 'soon' }, timed))).toMatch(/not a number/);
  });
});

describe('returnCentroid and returnExceededLimitFeatures', () => {
  it('reads the shape for centroids even without geometry', () => {
    const q = normalizeQuery({ returncentroid: 'true', returngeometry: 'false' }, polygons);
    expect(planFeatureQuery(q, polygons).selectShape).toBe(true);
  });

  it('refuses centroids on layers that are not polygons, and in GeoJSON', () => {
    const points = { ...polygons, geometryType: 'esriGeometryPoint' as const };
    expect(problemOf('returnCentroid', () => normalizeQuery({ returncentroid: 'true' }, points))).toMatch(
      /polygon/,
    );
    expect(
      problemOf('returnCentroid', () => normalizeQuery({ returncentroid: 'true', f: 'geojson' }, polygons)),
    ).toMatch(/f=json/);
  });

  it('reads returnExceededLimitFeatures, true by default', () => {
    expect(normalizeQuery({}, polygons).returnExceededLimitFeatures).toBe(true);
    expect(
      normalizeQuery({ returnexceededlimitfeatures: 'false' }, polygons).returnExceededLimitFeatures,
    ).toBe(false);
  });
});
