/**
 * The REST MapServer every hosted feature service has: service JSON, layers, legend, export (decoded
 * with sharp, pixel colours checked where the stations are), identify, find and the layer query.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { lonLatToMercator } from '../../lib/tiles/web-mercator.js';
import { uniqueName } from './publish/publish-client.js';
import { publishStations, publishStationTiles } from './soap/soap-client.js';
import { adminToken, call, stack } from './support/portal-client.js';

const name = uniqueName('rest_map_stations');
const tiled = uniqueName('rest_map_station_tiles');
const map = `/rest/services/Hosted/${name}/MapServer`;
let token: string;

beforeAll(async () => {
  token = await adminToken();
  await publishStationTiles(token, await publishStations(token, name), tiled);
}, 400_000);

/** Belmont and Howard stations (the fixture's coordinates) and the default marker's blue. */
const BELMONT = [-87.65338, 41.939751];
const HOWARD = [-87.672892, 42.019063];
const BLUE = [0, 122, 194];

const run = async (command: string, args: string[]) =>
  (
    await promisify(execFile)(command, args, {
      env: {
        ...process.env,
        GDAL_HTTP_TIMEOUT: '60',
        GDAL_DEFAULT_WMS_CACHE_PATH: join(tmpdir(), 'gdalwmscache'),
      },
    })
  ).stdout;

const get = async (path: string, params: Record<string, string>) =>
  call(path, { token, ...params }, { method: 'GET' });

async function exportImage(params: Record<string, string>, service = map) {
  const url = new URL(`${stack().baseUrl}${service}/export`);
  for (const [k, v] of Object.entries({ token, f: 'image', ...params })) url.searchParams.set(k, v);
  const res = await fetch(url);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [...data.subarray(i, i + 4)];
}

/** A square 100×100 px view of ±0.005° around a station, in WGS84. */
const around = ([x, y]: number[], d = 0.005) => `${x - d},${y - d},${x + d},${y + d}`;

describe('the MapServer of a hosted feature service', () => {
  it('describes the layers, served formats and capabilities, at …/MapServer and …/MapServer/', async () => {
    for (const path of [map, `${map}/`]) {
      const { json } = await get(path, { f: 'json' });
      expect(json).toMatchObject({
        mapName: 'Layers',
        capabilities: 'Map,Query,Data',
        supportedImageFormatTypes: 'PNG,PNG8,PNG24,PNG32,JPG',
        supportedQueryFormats: 'JSON, geoJSON, PBF',
        supportedExtensions: 'WMSServer',
        singleFusedMapCache: false,
        spatialReference: { wkid: 102100, latestWkid: 3857 },
      });
      expect(json.layers).toEqual([
        expect.objectContaining({ id: 0, type: 'Feature Layer', geometryType: 'esriGeometryPoint' }),
      ]);
      expect(json.tileInfo).toBeUndefined();
    }
  });

  it('lists its layers with their fields and drawing info, and each layer at …/MapServer/{id}', async () => {
    const { json } = await get(`${map}/layers`, { f: 'json' });
    expect(json.layers[0].fields.map((f: { name: string }) => f.name)).toContain('Riders');
    expect(json.layers[0].drawingInfo.renderer.type).toBe('simple');
    const layer = (await get(`${map}/0`, { f: 'json' })).json;
    expect(layer).toMatchObject({ id: 0, capabilities: 'Map,Query,Data', displayField: 'Name' });
    expect((await get(`${map}/5`, { f: 'json' })).json.error.code).toBe(400);
  });

  it('draws a legend patch of the layer’s symbol', async () => {
    const { json } = await get(`${map}/legend`, { f: 'json' });
    const [patch] = json.layers[0].legend;
    const png = Buffer.from(patch.imageData, 'base64');
    expect(await pixel(png, 10, 10)).toEqual([...BLUE, 255]);
  });

  it('exports a transparent PNG with the station drawn blue at its place and nothing elsewhere', async () => {
    const { res, bytes } = await exportImage({
      bbox: around(BELMONT),
      bboxSR: '4326',
      size: '100,100',
      format: 'png32',
      transparent: 'true',
    });
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 100, height: 100, channels: 4 });
    expect(await pixel(bytes, 50, 50)).toEqual([...BLUE, 255]);
    expect((await pixel(bytes, 5, 5))[3]).toBe(0);
  });

  it('grows the bbox to the image’s aspect ratio and reports it with f=json; the href serves the image', async () => {
    const [x0, y0] = lonLatToMercator(BELMONT[0] - 0.005, BELMONT[1] - 0.005);
    const [x1, y1] = lonLatToMercator(BELMONT[0] + 0.005, BELMONT[1] + 0.005);
    const { json } = await get(`${map}/export`, {
      f: 'json',
      bbox: `${x0},${y0},${x1},${y1}`,
      size: '200,100',
    });
    expect(json.width).toBe(200);
    expect(json.height).toBe(100);
    const { xmin, ymin, xmax, ymax } = json.extent;
    expect(xmax - xmin).toBeCloseTo(2 * (ymax - ymin), 3);
    expect((xmin + xmax) / 2).toBeCloseTo((x0 + x1) / 2, 3);
    expect(ymax - ymin).toBeCloseTo(y1 - y0, 3);
    expect(json.extent.spatialReference).toEqual({ wkid: 102100, latestWkid: 3857 });
    const image = Buffer.from(await (await fetch(json.href)).arrayBuffer());
    expect(await pixel(image, 100, 50)).toEqual([...BLUE, 255]);
    // Not transparent: the background is white.
    expect(await pixel(image, 3, 3)).toEqual([255, 255, 255, 255]);
  });

  it('draws in the imageSR asked for: WGS84 pixels put the station where degrees say', async () => {
    const { bytes } = await exportImage({
      bbox: `${BELMONT[0] - 0.01},${BELMONT[1] - 0.005},${BELMONT[0] + 0.01},${BELMONT[1] + 0.005}`,
      bboxSR: '4326',
      imageSR: '4326',
      size: '200,100',
      transparent: 'true',
    });
    expect(await pixel(bytes, 100, 50)).toEqual([...BLUE, 255]);
    expect((await pixel(bytes, 60, 50))[3]).toBe(0);
  });

  it('writes jpg, png8 and png24 as asked', async () => {
    const params = { bbox: around(BELMONT), bboxSR: '4326', size: '100,100' };
    const jpg = await exportImage({ ...params, format: 'jpg' });
    expect(jpg.res.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(jpg.bytes).metadata()).format).toBe('jpeg');
    const centre = await pixel(jpg.bytes, 50, 50);
    centre.slice(0, 3).forEach((v, i) => {
      expect(Math.abs(v - BLUE[i])).toBeLessThan(24);
    });
    const png8 = await exportImage({ ...params, format: 'png8', transparent: 'true' });
    expect((await sharp(png8.bytes).metadata()).isPalette).toBe(true);
    expect((await pixel(png8.bytes, 50, 50)).slice(0, 3)).toEqual(BLUE);
    const png24 = await exportImage({ ...params, format: 'png24' });
    expect((await sharp(png24.bytes).metadata()).channels).toBe(3);
    expect(await pixel(png24.bytes, 50, 50)).toEqual([...BLUE, 255]);
  });

  it('honours layers=hide and layerDefs', async () => {
    const params = { bbox: around(BELMONT), bboxSR: '4326', size: '100,100', transparent: 'true' };
    const hidden = await exportImage({ ...params, layers: 'hide:0' });
    expect((await pixel(hidden.bytes, 50, 50))[3]).toBe(0);
    const shown = await exportImage({ ...params, layers: 'show:0', layerDefs: '{"0":"Name = \'Belmont\'"}' });
    expect(await pixel(shown.bytes, 50, 50)).toEqual([...BLUE, 255]);
    const other = await exportImage({ ...params, layerDefs: "0:Name = 'Howard'" });
    expect((await pixel(other.bytes, 50, 50))[3]).toBe(0);
  });

  it('refuses bad export parameters with the error envelope', async () => {
    const errorOf = async (params: Record<string, string>) =>
      (await get(`${map}/export`, { f: 'json', ...params })).json.error;
    expect(await errorOf({})).toMatchObject({ code: 400 });
    expect((await errorOf({ bbox: around(BELMONT), bboxSR: '4326', format: 'gif' })).details.join()).toMatch(
      /format/,
    );
    expect((await errorOf({ bbox: around(BELMONT), layers: 'show:7' })).details.join()).toMatch(/no layer 7/);
    expect((await errorOf({ bbox: around(BELMONT), size: '0,10' })).details.join()).toMatch(/size/);
    expect((await errorOf({ bbox: around(BELMONT), time: 'soon' })).details.join()).toMatch(/time/);
  });

  it('identifies the station under a click, with formatted attributes and its geometry', async () => {
    const [x, y] = BELMONT;
    const { json } = await get(`${map}/identify`, {
      f: 'json',
      geometry: `${x},${y}`,
      geometryType: 'esriGeometryPoint',
      sr: '4326',
      mapExtent: around(BELMONT, 0.02),
      imageDisplay: '400,400,96',
      tolerance: '5',
      layers: 'all',
    });
    expect(json.results).toHaveLength(1);
    expect(json.results[0]).toMatchObject({
      layerId: 0,
      value: 'Belmont',
      displayFieldName: 'Name',
      attributes: { Name: 'Belmont', Line: 'Brown', Riders: '9874' },
      geometryType: 'esriGeometryPoint',
    });
    expect(json.results[0].geometry.x).toBeCloseTo(x, 5);
    expect(json.results[0].geometry.y).toBeCloseTo(y, 5);
  });

  it('finds features by text, naming the field that matched', async () => {
    const { json } = await get(`${map}/find`, { f: 'json', searchText: 'Howard', layers: '0', sr: '4326' });
    expect(json.results).toEqual([
      expect.objectContaining({
        layerId: 0,
        foundFieldName: 'Name',
        value: 'Howard',
        attributes: expect.objectContaining({ Line: 'Purple' }),
      }),
    ]);
    expect(json.results[0].geometry.x).toBeCloseTo(HOWARD[0], 5);
    const none = await get(`${map}/find`, {
      f: 'json',
      searchText: 'Howard',
      layers: '0',
      searchFields: 'Line',
    });
    expect(none.json.results).toEqual([]);
  });

  it('answers the layer query as the FeatureServer does', async () => {
    const { json } = await get(`${map}/0/query`, {
      f: 'json',
      where: "Line = 'Red'",
      returnCountOnly: 'true',
    });
    expect(json).toEqual({ count: 2 });
  });

  it('is read by GDAL’s ArcGIS REST driver: gdal_translate of an export window puts the station at its pixel', async () => {
    const [x0, y0] = lonLatToMercator(BELMONT[0] - 0.005, BELMONT[1] - 0.005);
    const [x1, y1] = lonLatToMercator(BELMONT[0] + 0.005, BELMONT[1] + 0.005);
    const dir = mkdtempSync(join(tmpdir(), 'gdal-ags-'));
    const xml = join(dir, 'ags.xml');
    writeFileSync(
      xml,
      `<GDAL_WMS><Service name="AGS"><ServerUrl>${stack().baseUrl}${map}/export?token=${token}</ServerUrl>
<BBoxOrder>xyXY</BBoxOrder><SRS>3857</SRS><ImageFormat>png</ImageFormat><Transparent>TRUE</Transparent><Layers>show:0</Layers></Service>
<DataWindow><UpperLeftX>${x0}</UpperLeftX><UpperLeftY>${y1}</UpperLeftY><LowerRightX>${x1}</LowerRightX><LowerRightY>${y0}</LowerRightY>
<SizeX>100</SizeX><SizeY>100</SizeY></DataWindow><BandsCount>4</BandsCount><BlockSizeX>100</BlockSizeX><BlockSizeY>100</BlockSizeY></GDAL_WMS>`,
    );
    const info = await run('gdalinfo', [xml]);
    expect(info).toMatch(/Size is 100, 100/);
    const out = join(dir, 'out.png');
    await run('gdal_translate', ['-q', '-of', 'PNG', xml, out]);
    const png = readFileSync(out);
    expect(await pixel(png, 50, 50)).toEqual([...BLUE, 255]);
    expect((await pixel(png, 5, 5))[3]).toBe(0);
  });

  it('asks for a token like the feature service does', async () => {
    const res = await call(map, { f: 'json' }, { method: 'GET' });
    expect(res.json.error.code).toBe(499);
  });
});

describe('a cached map service drawn from a feature service', () => {
  const cached = () => `/rest/services/Hosted/${tiled}/MapServer`;

  it('keeps its tiles and lists the export it gains from the data, at …/MapServer/ too (esri-leaflet)', async () => {
    expect((await get(`${cached()}/`, { f: 'json' })).json.tileInfo.rows).toBe(256);
    const { json } = await get(cached(), { f: 'json' });
    expect(json).toMatchObject({
      singleFusedMapCache: true,
      capabilities: 'Map,Query,Data,Tilemap',
      supportedImageFormatTypes: 'PNG,PNG8,PNG24,PNG32,JPG',
    });
    expect(json.tileInfo.lods.map((l: { level: number }) => l.level)).toEqual([10, 11]);
  });

  it('exports from the feature service’s data', async () => {
    const { bytes } = await exportImage(
      { bbox: around(BELMONT), bboxSR: '4326', size: '100,100', transparent: 'true' },
      cached(),
    );
    expect(await pixel(bytes, 50, 50)).toEqual([...BLUE, 255]);
  });
});
