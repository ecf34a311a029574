/**
 * OGC WMS 1.1.1 and 1.3.0 at …/services/Hosted/{name}/MapServer/WMSServer, read with raw HTTP and with
 * Debian's GDAL (gdalinfo over the capabilities, gdal_translate of GetMap), pixel colours checked where
 * the stations are.
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
import { publishStations } from './soap/soap-client.js';
import { adminToken, stack } from './support/portal-client.js';

const name = uniqueName('wms_stations');
let token: string;
const wms = () => `${stack().baseUrl}/services/Hosted/${name}/MapServer/WMSServer`;

beforeAll(async () => {
  token = await adminToken();
  await publishStations(token, name);
}, 120_000);

const BELMONT = [-87.65338, 41.939751];
const BLUE = [0, 122, 194];

async function ask(params: Record<string, string>) {
  const url = new URL(wms());
  for (const [k, v] of Object.entries({ token, SERVICE: 'WMS', ...params })) url.searchParams.set(k, v);
  const res = await fetch(url);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [...data.subarray(i, i + 4)];
}

/** GDAL keeps a tile cache in ./gdalwmscache unless told where: a temporary directory here. */
const GDAL_ENV = { ...process.env, GDAL_DEFAULT_WMS_CACHE_PATH: join(tmpdir(), 'gdalwmscache') };
const run = async (command: string, args: string[]) =>
  (await promisify(execFile)(command, args, { env: GDAL_ENV })).stdout;

const d = 0.005;
const [lon, lat] = BELMONT;

describe('WMS', () => {
  it('describes the layers, CRSs and operations in 1.3.0 and 1.1.1 capabilities', async () => {
    const v13 = (await ask({ REQUEST: 'GetCapabilities', VERSION: '1.3.0' })).bytes.toString();
    expect(v13).toContain('<WMS_Capabilities version="1.3.0"');
    expect(v13).toMatch(/<Layer queryable="1"><Name>0<\/Name><Title>[^<]+<\/Title>/);
    expect(v13).toContain('<CRS>EPSG:3857</CRS>');
    expect(v13).toContain('<CRS>EPSG:4326</CRS>');
    const v11 = (await ask({ REQUEST: 'GetCapabilities', VERSION: '1.1.1' })).bytes.toString();
    expect(v11).toContain('<WMT_MS_Capabilities version="1.1.1">');
    expect(v11).toContain('<SRS>EPSG:4326</SRS>');
    expect(v11).not.toContain('CRS:84');
  });

  it('draws GetMap in 1.3.0 EPSG:4326 with latitude first, and 1.1.1 with longitude first', async () => {
    const v13 = await ask({
      REQUEST: 'GetMap',
      VERSION: '1.3.0',
      LAYERS: '0',
      STYLES: '',
      CRS: 'EPSG:4326',
      BBOX: `${lat - d},${lon - d},${lat + d},${lon + d}`,
      WIDTH: '100',
      HEIGHT: '100',
      FORMAT: 'image/png',
      TRANSPARENT: 'TRUE',
    });
    expect(v13.res.headers.get('content-type')).toBe('image/png');
    expect(await pixel(v13.bytes, 50, 50)).toEqual([...BLUE, 255]);
    expect((await pixel(v13.bytes, 5, 5))[3]).toBe(0);
    const v11 = await ask({
      REQUEST: 'GetMap',
      VERSION: '1.1.1',
      LAYERS: '0',
      STYLES: '',
      SRS: 'EPSG:4326',
      BBOX: `${lon - d},${lat - d},${lon + d},${lat + d}`,
      WIDTH: '100',
      HEIGHT: '100',
      FORMAT: 'image/png',
      TRANSPARENT: 'TRUE',
    });
    expect(await pixel(v11.bytes, 50, 50)).toEqual([...BLUE, 255]);
    // The 1.1.1 order sent as 1.3.0 is another place on Earth: nothing drawn there.
    const swapped = await ask({
      REQUEST: 'GetMap',
      VERSION: '1.3.0',
      LAYERS: '0',
      STYLES: '',
      CRS: 'EPSG:4326',
      BBOX: `${lon - d},${lat - d},${lon + d},${lat + d}`,
      WIDTH: '100',
      HEIGHT: '100',
      FORMAT: 'image/png',
      TRANSPARENT: 'TRUE',
    });
    expect((await pixel(swapped.bytes, 50, 50))[3]).toBe(0);
  });

  it('answers GetFeatureInfo at the station’s pixel with its attributes', async () => {
    const { bytes } = await ask({
      REQUEST: 'GetFeatureInfo',
      VERSION: '1.3.0',
      LAYERS: '0',
      QUERY_LAYERS: '0',
      STYLES: '',
      CRS: 'EPSG:4326',
      BBOX: `${lat - d},${lon - d},${lat + d},${lon + d}`,
      WIDTH: '101',
      HEIGHT: '101',
      I: '50',
      J: '50',
      INFO_FORMAT: 'application/json',
    });
    const json = JSON.parse(bytes.toString());
    expect(json.features).toHaveLength(1);
    expect(json.features[0].properties).toMatchObject({ Name: 'Belmont', Line: 'Brown' });
    expect(json.features[0].geometry.coordinates[0]).toBeCloseTo(lon, 5);
    const xml = await ask({
      REQUEST: 'GetFeatureInfo',
      VERSION: '1.1.1',
      LAYERS: '0',
      QUERY_LAYERS: '0',
      STYLES: '',
      SRS: 'EPSG:4326',
      BBOX: `${lon - d},${lat - d},${lon + d},${lat + d}`,
      WIDTH: '101',
      HEIGHT: '101',
      X: '50',
      Y: '50',
      INFO_FORMAT: 'text/xml',
    });
    expect(xml.bytes.toString()).toMatch(/<FIELDS [^>]*Name="Belmont"/);
  });

  it('draws GetLegendGraphic with the layer’s symbol', async () => {
    const { res, bytes } = await ask({
      REQUEST: 'GetLegendGraphic',
      VERSION: '1.3.0',
      LAYER: '0',
      FORMAT: 'image/png',
    });
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await pixel(bytes, 10, 10)).toEqual([...BLUE, 255]);
  });

  it('reports bad requests as ServiceExceptionReports with the standard codes', async () => {
    const base = {
      REQUEST: 'GetMap',
      VERSION: '1.3.0',
      STYLES: '',
      BBOX: '0,0,1,1',
      WIDTH: '10',
      HEIGHT: '10',
      FORMAT: 'image/png',
    };
    const crs = (await ask({ ...base, LAYERS: '0', CRS: 'EPSG:9999' })).bytes.toString();
    expect(crs).toMatch(/<ServiceExceptionReport version="1.3.0"[^>]*><ServiceException code="InvalidCRS">/);
    const layer = (await ask({ ...base, LAYERS: '7', CRS: 'EPSG:3857' })).bytes.toString();
    expect(layer).toContain('code="LayerNotDefined"');
    const format = (
      await ask({ ...base, LAYERS: '0', CRS: 'EPSG:3857', FORMAT: 'image/gif' })
    ).bytes.toString();
    expect(format).toContain('code="InvalidFormat"');
    const anonymous = await fetch(`${wms()}?SERVICE=WMS&REQUEST=GetCapabilities`);
    expect(await anonymous.text()).toContain('code="TokenRequired"');
  });

  it('is read by GDAL: gdalinfo lists the layer, gdal_translate of GetMap puts the station at its pixel', async () => {
    const info = await run('gdalinfo', [`WMS:${wms()}?token=${token}`]);
    expect(info).toMatch(/SUBDATASET_\d+_NAME=WMS:.*LAYERS=0/);
    const dir = mkdtempSync(join(tmpdir(), 'gdal-wms-'));
    for (const [version, crs] of [
      ['1.3.0', 'EPSG:4326'],
      ['1.1.1', 'EPSG:3857'],
    ]) {
      const [x0, y0] = crs === 'EPSG:4326' ? [lon - d, lat - d] : lonLatToMercator(lon - d, lat - d);
      const [x1, y1] = crs === 'EPSG:4326' ? [lon + d, lat + d] : lonLatToMercator(lon + d, lat + d);
      const xml = join(dir, `wms-${version}.xml`);
      writeFileSync(
        xml,
        `<GDAL_WMS><Service name="WMS"><Version>${version}</Version><ServerUrl>${wms()}?token=${token}</ServerUrl>
<${version === '1.3.0' ? 'CRS' : 'SRS'}>${crs}</${version === '1.3.0' ? 'CRS' : 'SRS'}><ImageFormat>image/png</ImageFormat><Transparent>TRUE</Transparent><Layers>0</Layers>${
          // GDAL's WMS XML leaves the 1.3.0 axis order of EPSG:4326 to the description (BBoxOrder).
          version === '1.3.0' ? '<BBoxOrder>yxYX</BBoxOrder>' : ''
        }</Service>
<DataWindow><UpperLeftX>${x0}</UpperLeftX><UpperLeftY>${y1}</UpperLeftY><LowerRightX>${x1}</LowerRightX><LowerRightY>${y0}</LowerRightY>
<SizeX>100</SizeX><SizeY>100</SizeY></DataWindow><BandsCount>4</BandsCount><BlockSizeX>100</BlockSizeX><BlockSizeY>100</BlockSizeY></GDAL_WMS>`,
      );
      const out = join(dir, `out-${version}.png`);
      await run('gdal_translate', ['-q', '-of', 'PNG', xml, out]);
      const png = readFileSync(out);
      expect(await pixel(png, 50, 50), version).toEqual([...BLUE, 255]);
      expect((await pixel(png, 5, 5))[3], version).toBe(0);
    }
  });
});
