import { queryFeatures } from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import postgres from 'postgres';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { featureServer, uniqueName } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { namesOf, publishFixture, query, readStations, stationParameters } from './query-client.js';

/**
 * having, percentiles, sqlFormat, time, returnCentroid, returnExceededLimitFeatures, the parameters
 * refused by name, and the layer JSON that advertises them, on layers published from the fixtures.
 * Expectations come from the fixture read here (and PostgreSQL run directly for the percentiles).
 */
const stations = readStations();
let token: string;
let authentication: ArcGISIdentityManager;
let timed: string;
let small: string;
let blocks: string;
const url = (layer: string) => `${stack().baseUrl}${layer}`;

beforeAll(async () => {
  token = await signIn();
  authentication = await ArcGISIdentityManager.signIn({
    username: stack().admin.username,
    password: stack().admin.password,
    portal: `${stack().baseUrl}/sharing/rest`,
  });
  const [a, b, c] = [uniqueName('qp_time'), uniqueName('qp_small'), uniqueName('qp_blocks')];
  await publishFixture(
    token,
    'stations.csv',
    'csv',
    stationParameters(a, {
      targetSR: { wkid: 4326 },
      layerInfo: {
        timeInfo: { startTimeField: 'Opened', endTimeField: 'Closed' },
        // Claims a publisher cannot make: dropped at publish.
        supportsApplyEditsWithGlobalIds: true,
        supportedQueryFormats: 'JSON, geoJSON, PBF, esriCompressedShapeBuffer',
        advancedQueryCapabilities: { supportsQueryWithResultType: true },
      },
    }),
  );
  await publishFixture(token, 'stations.csv', 'csv', stationParameters(b, { maxRecordCount: 5 }));
  await publishFixture(token, 'blocks.geojson', 'geojson', { name: c, targetSR: { wkid: 4326 } });
  [timed, small, blocks] = [a, b, c].map((n) => `${featureServer(n)}/0`);
});

describe('having', () => {
  it('keeps the groups whose aggregates pass (queryFeatures)', async () => {
    const sums = new Map<string, { total: number; n: number }>();
    for (const s of stations) {
      const g = sums.get(s.Kind) ?? { total: 0, n: 0 };
      sums.set(s.Kind, { total: g.total + s.Riders, n: g.n + 1 });
    }
    const limit = 150_000;
    const expected = [...sums].filter(([, g]) => g.total > limit && g.n >= 5).map(([k, g]) => [k, g.total]);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(sums.size);
    const res = (await queryFeatures({
      url: url(timed),
      authentication,
      outStatistics: [{ statisticType: 'sum', onStatisticField: 'Riders', outStatisticFieldName: 'total' }],
      groupByFieldsForStatistics: 'Kind',
      orderByFields: 'Kind',
      params: { having: `SUM(Riders) > ${limit} AND COUNT(*) >= 5` },
    })) as Record<string, any>;
    expect(res.features.map((f: any) => [f.attributes.Kind, f.attributes.total])).toEqual(expected.sort());
  });

  it('refuses injection and fields outside aggregates with a 400 naming having', async () => {
    const stats = JSON.stringify([{ statisticType: 'count', onStatisticField: 'Riders' }]);
    for (const having of ['COUNT(*) > 1; DROP TABLE users', 'Riders > 3', 'COUNT(*) > (SELECT 1)']) {
      const body = await query(timed, token, {
        outStatistics: stats,
        groupByFieldsForStatistics: 'Kind',
        having,
      });
      expect(body.error?.code, having).toBe(400);
      expect(body.error.details[0]).toBe("'having' parameter is invalid");
    }
  });
});

describe('percentile statistics', () => {
  const riders = stations.map((s) => s.Riders);
  const cont = (values: number[], p: number) => {
    const pos = p * (values.length - 1);
    const lo = Math.floor(pos);
    return values[lo] + (pos - lo) * (values[Math.ceil(pos)] - values[lo]);
  };
  const disc = (values: number[], p: number) => values[Math.max(Math.ceil(p * values.length) - 1, 0)];

  it('PERCENTILE_CONT and PERCENTILE_DISC as computed by hand and by PostgreSQL on the same values', async () => {
    const up = [...riders].sort((a, b) => a - b);
    const down = [...up].reverse();
    const sql = postgres(stack().databaseUrl, { max: 1 });
    const [pg] = await sql`
      select percentile_cont(0.9) within group (order by v) as c90,
             percentile_disc(0.25) within group (order by v desc) as d25
      from unnest(${riders}::integer[]) as v`;
    await sql.end();
    expect(Number(pg.c90)).toBeCloseTo(cont(up, 0.9), 6);
    expect(Number(pg.d25)).toBe(disc(down, 0.25));
    const res = (await queryFeatures({
      url: url(timed),
      authentication,
      outStatistics: [
        {
          statisticType: 'PERCENTILE_CONT',
          onStatisticField: 'Riders',
          outStatisticFieldName: 'p90',
          statisticParameters: { value: 0.9 },
        } as never,
        {
          statisticType: 'PERCENTILE_DISC',
          onStatisticField: 'Riders',
          outStatisticFieldName: 'p25down',
          statisticParameters: { value: 0.25, orderBy: 'DESC' },
        } as never,
      ],
    })) as Record<string, any>;
    expect(res.features[0].attributes.p90).toBeCloseTo(cont(up, 0.9), 6);
    expect(res.features[0].attributes.p25down).toBe(disc(down, 0.25));
  });

  it('per group, paged as supportsPaginationOnAggregatedQueries says', async () => {
    const kinds = [...new Set(stations.map((s) => s.Kind))].sort();
    const medians = kinds.map((k) => [
      k,
      cont(
        stations
          .filter((s) => s.Kind === k)
          .map((s) => s.Riders)
          .sort((a, b) => a - b),
        0.5,
      ),
    ]);
    const body = await query(timed, token, {
      outStatistics: JSON.stringify([
        {
          statisticType: 'percentile_cont',
          onStatisticField: 'Riders',
          outStatisticFieldName: 'median',
          statisticParameters: { value: 0.5 },
        },
      ]),
      groupByFieldsForStatistics: 'Kind',
      orderByFields: 'Kind',
      resultOffset: '1',
      resultRecordCount: '1',
    });
    expect(body.features.map((f: any) => [f.attributes.Kind, f.attributes.median])).toEqual([medians[1]]);
    expect(body.exceededTransferLimit).toBe(true);
  });
});

describe('sqlFormat', () => {
  it('reads LOG as ln in standard SQL and as log10 in PostgreSQL native SQL', async () => {
    const where = 'LOG(Riders) > 4.5';
    const standard = await query(timed, token, { where, returnCountOnly: 'true', sqlFormat: 'standard' });
    const native = await query(timed, token, { where, returnCountOnly: 'true', sqlFormat: 'native' });
    expect(standard.count).toBe(stations.filter((s) => Math.log(s.Riders) > 4.5).length);
    expect(native.count).toBe(stations.filter((s) => Math.log10(s.Riders) > 4.5).length);
    expect(native.count).toBeLessThan(standard.count);
  });
});

describe('time', () => {
  const overlapping = (t1: number | null, t2: number | null) =>
    stations
      .filter((s) => (t2 === null || s.Opened <= t2) && (t1 === null || s.Closed === null || s.Closed >= t1))
      .map((s) => s.Name)
      .sort();
  const names = async (time: string) => namesOf(await query(timed, token, { time, outFields: 'Name' }));

  it('advertises timeInfo with the data’s extent, and none of the claims layerInfo tried to make', async () => {
    const layer = (await call(timed, { token }, { method: 'GET' })).json;
    const ends = stations.map((s) => s.Closed ?? s.Opened);
    expect(layer.timeInfo).toMatchObject({
      startTimeField: 'Opened',
      endTimeField: 'Closed',
      timeExtent: [Math.min(...stations.map((s) => s.Opened)), Math.max(...ends)],
    });
    expect(layer.supportsApplyEditsWithGlobalIds).toBe(false);
    expect(layer.supportedQueryFormats).toBe('JSON, geoJSON, PBF');
    expect(layer.advancedQueryCapabilities.supportsQueryWithResultType).toBe(false);
  });

  it('filters by an instant, an extent and open-ended extents', async () => {
    const d = (s: string) => Date.parse(`${s}T00:00:00Z`);
    const cases: [string, number | null, number | null][] = [
      [String(d('1950-06-01')), d('1950-06-01'), d('1950-06-01')],
      [`${d('1939-01-01')},${d('1945-12-31')}`, d('1939-01-01'), d('1945-12-31')],
      [`null,${d('1905-01-01')}`, null, d('1905-01-01')],
      [`${d('2020-01-01')},null`, d('2020-01-01'), null],
    ];
    for (const [time, t1, t2] of cases) {
      const expected = overlapping(t1, t2);
      expect(await names(time), time).toEqual(expected);
    }
    expect(overlapping(d('2020-01-01'), null)).not.toContain('Orly Ouest');
  });

  it('is passed by queryFeatures as an extent', async () => {
    const t = [Date.UTC(1960, 0, 1), Date.UTC(1980, 0, 1)];
    const res = (await queryFeatures({
      url: url(timed),
      authentication,
      time: t,
      outFields: ['Name'],
    })) as any;
    expect(namesOf(res)).toEqual(overlapping(t[0], t[1]));
  });

  it('answers OGC API Features datetime on the same layer', async () => {
    const ogc = timed.replace('/FeatureServer/0', '/OGCFeatureServer/collections/0/items');
    const items = async (datetime: string) =>
      (await call(ogc, { token, datetime, limit: '100' }, { method: 'GET' })).json;
    const body = await items('1939-01-01T00:00:00Z/1945-12-31T00:00:00Z');
    const expected = overlapping(Date.UTC(1939, 0, 1), Date.UTC(1945, 11, 31));
    expect(body.numberMatched).toBe(expected.length);
    expect(body.features.map((f: any) => f.properties.Name).sort()).toEqual(expected);
    expect((await items('../1901-01-01')).numberMatched).toBe(overlapping(null, Date.UTC(1901, 0, 1)).length);
  });

  it('is refused by identify on a time-aware layer rather than ignored; other layers identify as before', async () => {
    const identify = async (layer: string) =>
      (
        await call(
          `${layer.replace('/FeatureServer/0', '/MapServer')}/identify`,
          {
            token,
            geometry: '2.347,48.8584',
            geometryType: 'esriGeometryPoint',
            sr: '4326',
            tolerance: '5',
            mapExtent: '2.1,48.7,2.5,48.95',
            imageDisplay: '400,400,96',
            time: '0',
          },
          { method: 'GET' },
        )
      ).json;
    expect((await identify(timed)).error.details[0]).toBe("'time' parameter is invalid");
    expect((await identify(small)).results.map((r: any) => r.attributes.Name)).toContain('Chatelet');
  });

  it('is refused on a layer that is not time-aware', async () => {
    const body = await query(small, token, { time: '0' });
    expect(body.error.details).toEqual([
      "'time' parameter is invalid",
      'this layer is not time-aware (it has no timeInfo)',
    ]);
  });

  it('draws only the features of the asked time in the MapServer export; layers without time draw all', async () => {
    const inked = async (layer: string, time: string) => {
      const map = layer.replace('/FeatureServer/0', '/MapServer');
      const u = new URL(`${stack().baseUrl}${map}/export`);
      const params = { token, f: 'image', bbox: '2.1,48.7,2.5,48.95', bboxSR: '4326', size: '200,200', time };
      for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
      const res = await fetch(u);
      expect(res.headers.get('content-type')).toBe('image/png');
      const { data } = await sharp(Buffer.from(await res.arrayBuffer()))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i] !== 255 || data[i + 1] !== 255 || data[i + 2] !== 255) n++;
      return n;
    };
    const before = String(Date.UTC(1800, 0, 1));
    const all = await inked(timed, `null,${Date.UTC(2100, 0, 1)}`);
    const y1950 = await inked(timed, String(Date.UTC(1950, 0, 1)));
    expect(await inked(timed, before)).toBe(0);
    expect(y1950).toBeGreaterThan(0);
    expect(y1950).toBeLessThan(all);
    expect(await inked(small, before)).toBeGreaterThan(0);
  });
});

describe('returnCentroid', () => {
  it('gives each polygon its centre of mass, computed here by decomposing the shapes', async () => {
    const res = (await queryFeatures({
      url: url(blocks),
      authentication,
      returnCentroid: true,
      returnGeometry: false,
      outFields: ['Label'],
      outSR: '4326',
      orderByFields: 'Label',
    })) as Record<string, any>;
    const byLabel = Object.fromEntries(res.features.map((f: any) => [f.attributes.Label, f]));
    // L: 4x2 at (12,11) + 2x2 at (11,13); square 10x10 at (25,15) less a 2x2 hole at (27,15);
    // two rectangles: 2x1 at (41,10.5) + 1x4 at (44.5,12).
    const expected: Record<string, [number, number]> = {
      'L shape': [(12 * 8 + 11 * 4) / 12, (11 * 8 + 13 * 4) / 12],
      'Square with a hole': [(25 * 100 - 27 * 4) / 96, 15],
      'Two rectangles': [(41 * 2 + 44.5 * 4) / 6, (10.5 * 2 + 12 * 4) / 6],
    };
    for (const [label, [x, y]] of Object.entries(expected)) {
      expect(byLabel[label].centroid.x, label).toBeCloseTo(x, 9);
      expect(byLabel[label].centroid.y, label).toBeCloseTo(y, 9);
      expect(byLabel[label].geometry, label).toBeUndefined();
    }
  });

  it('is advertised on polygon layers only, and refused on points', async () => {
    const polygons = (await call(blocks, { token }, { method: 'GET' })).json;
    const points = (await call(timed, { token }, { method: 'GET' })).json;
    expect(polygons.advancedQueryCapabilities.supportsReturningGeometryCentroid).toBe(true);
    expect(points.advancedQueryCapabilities.supportsReturningGeometryCentroid).toBe(false);
    const body = await query(timed, token, { returnCentroid: 'true' });
    expect(body.error.details[0]).toBe("'returnCentroid' parameter is invalid");
  });
});

describe('returnExceededLimitFeatures', () => {
  it('answers no features when the limit is exceeded and it is false; all of them when not exceeded', async () => {
    const over = await query(small, token, {
      where: '1=1',
      returnExceededLimitFeatures: 'false',
      outFields: 'Name',
    });
    expect(over.features).toEqual([]);
    expect(over.exceededTransferLimit).toBe(true);
    const kindB = stations
      .filter((s) => s.Kind === 'B')
      .map((s) => s.Name)
      .sort();
    expect(kindB).toHaveLength(5);
    const fits = await query(small, token, {
      where: "Kind = 'B'",
      returnExceededLimitFeatures: 'false',
      outFields: 'Name',
    });
    expect(namesOf(fits)).toEqual(kindB);
    expect(fits.exceededTransferLimit).toBe(false);
    const dflt = await query(small, token, { where: '1=1', outFields: 'Name' });
    expect(dflt.features).toHaveLength(5);
    expect(dflt.exceededTransferLimit).toBe(true);
  });
});

describe('parameters that cannot be honoured', () => {
  it('are refused naming them; values that change nothing are accepted', async () => {
    for (const [name, value] of [
      ['gdbVersion', 'SDE.DEFAULT'],
      ['historicMoment', '1577836800000'],
      ['returnQueryGeometry', 'true'],
      ['resultType', 'compact'],
      ['datumTransformation', '1188'],
      ['multipatchOption', 'wireframe'],
      ['timeRelation', 'esriTimeRelationOverlapsStartWithinEnd'],
    ]) {
      const body = await query(timed, token, { [name]: value });
      expect(body.error?.code, name).toBe(400);
      expect(body.error.details[0]).toBe(`'${name}' parameter is invalid`);
    }
    const fine = await query(timed, token, {
      returnCountOnly: 'true',
      multipatchOption: 'xyFootprint',
      returnTrueCurves: 'true',
      cacheHint: 'true',
      resultType: 'none',
    });
    expect(fine.count).toBe(stations.length);
    // esri-leaflet asks resultType=tile on every query: it pages by tileMaxRecordCount.
    const tiled = await query(timed, token, { where: '1=1', outFields: 'Name', resultType: 'tile' });
    expect(tiled.features).toHaveLength(stations.length);
  });
});

describe('the advertised query capabilities', () => {
  it('are exactly these, each exercised in this file, pbf-query (quantization) or services/related-records (related paging, orderByFields, returnCountOnly)', async () => {
    const layer = (await call(blocks, { token }, { method: 'GET' })).json;
    expect(layer.advancedQueryCapabilities).toEqual({
      supportsPagination: true,
      supportsPaginationOnAggregatedQueries: true,
      supportsQueryRelatedPagination: true,
      supportsQueryWithDistance: true,
      supportsReturningQueryExtent: true,
      supportsStatistics: true,
      supportsPercentileStatistics: true,
      supportsHavingClause: true,
      supportsCountDistinct: true,
      supportsOrderBy: true,
      supportsDistinct: true,
      supportsQueryWithResultType: false,
      supportsSqlExpression: false,
      supportsAdvancedQueryRelated: true,
      supportsReturningGeometryCentroid: true,
      supportsQueryWithDatumTransformation: false,
      supportsQuantizationEditMode: true,
    });
    expect(layer.supportedQueryFormats).toBe('JSON, geoJSON, PBF');
  });

  it('count distinct, distinct values ordered, the extent, and pages of features', async () => {
    const kinds = [...new Set(stations.map((s) => s.Kind))].sort();
    const count = await query(timed, token, {
      returnCountOnly: 'true',
      returnDistinctValues: 'true',
      outFields: 'Kind',
    });
    expect(count.count).toBe(kinds.length);
    const distinct = await query(timed, token, {
      returnDistinctValues: 'true',
      outFields: 'Kind',
      orderByFields: 'Kind DESC',
      returnGeometry: 'false',
    });
    expect(distinct.features.map((f: any) => f.attributes.Kind)).toEqual([...kinds].reverse());
    const extent = await query(timed, token, { returnExtentOnly: 'true' });
    const lons = stations.map((s) => s.lon);
    const lats = stations.map((s) => s.lat);
    expect(extent.extent.xmin).toBeCloseTo(Math.min(...lons), 9);
    expect(extent.extent.ymax).toBeCloseTo(Math.max(...lats), 9);
    const sorted = [...stations].sort((a, b) => b.Riders - a.Riders).map((s) => s.Name);
    const page = await query(timed, token, {
      orderByFields: 'Riders DESC',
      resultOffset: '3',
      resultRecordCount: '4',
      outFields: 'Name',
    });
    expect(page.features.map((f: any) => f.attributes.Name)).toEqual(sorted.slice(3, 7));
  });
});
