/**
 * OGC WMTS 1.0.0 of a cached map service at …/MapServer/WMTS: RESTful and KVP capabilities and tiles
 * (the very bytes the REST tile endpoint serves), OWS exceptions, and Debian's GDAL reading it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { lonLatToMercator, tileAt } from '../../../lib/tiles/web-mercator.js';
import { uniqueName } from '../publish/publish-client.js';
import { publishStations, publishStationTiles } from '../soap/soap-client.js';
import { adminToken, stack } from '../support/portal-client.js';

const tiled = uniqueName('wmts_station_tiles');
let token: string;
const map = () => `${stack().baseUrl}/rest/services/Hosted/${tiled}/MapServer`;

beforeAll(async () => {
  token = await adminToken();
  await publishStationTiles(token, await publishStations(token, uniqueName('wmts_stations')), tiled);
}, 400_000);

const BELMONT = [-87.65338, 41.939751];
const tile = tileAt(...lonLatToMercator(BELMONT[0], BELMONT[1]), 11);

/** GDAL keeps a tile cache in ./gdalwmscache unless told where: a temporary directory here. */
const GDAL_ENV = { ...process.env, GDAL_DEFAULT_WMS_CACHE_PATH: join(tmpdir(), 'gdalwmscache') };

const bytesOf = async (url: string) => {
  const res = await fetch(url);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('WMTS of a cached map service', () => {
  it('describes the layer and the default028mm and GoogleMapsCompatible matrix sets (RESTful and KVP)', async () => {
    const rest = (await bytesOf(`${map()}/WMTS/1.0.0/WMTSCapabilities.xml?token=${token}`)).bytes.toString();
    expect(rest).toContain(`<ows:Identifier>${tiled}</ows:Identifier>`);
    expect(rest).toContain('<TileMatrixSet>GoogleMapsCompatible</TileMatrixSet>');
    expect(rest).toContain('urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible');
    expect(rest).toMatch(
      /<ows:Identifier>10<\/ows:Identifier><ScaleDenominator>545978\.77\d*<\/ScaleDenominator>/,
    );
    expect(rest).toContain('<MatrixWidth>1024</MatrixWidth>');
    const kvp = (
      await bytesOf(`${map()}/WMTS?SERVICE=WMTS&REQUEST=GetCapabilities&token=${token}`)
    ).bytes.toString();
    expect(kvp).toBe(rest);
  });

  it('serves the cache’s tiles by RESTful path and by KVP, byte for byte as the REST tile endpoint', async () => {
    const rest = await bytesOf(`${map()}/tile/11/${tile.row}/${tile.col}?token=${token}`);
    expect(rest.res.status).toBe(200);
    const restful = await bytesOf(
      `${map()}/WMTS/tile/1.0.0/${tiled}/default/GoogleMapsCompatible/11/${tile.row}/${tile.col}.png?token=${token}`,
    );
    expect(restful.res.headers.get('content-type')).toBe('image/png');
    expect(restful.bytes.equals(rest.bytes)).toBe(true);
    const kvp = await bytesOf(
      `${map()}/WMTS?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${tiled}&STYLE=default&TILEMATRIXSET=default028mm&TILEMATRIX=11&TILEROW=${tile.row}&TILECOL=${tile.col}&FORMAT=image/png&token=${token}`,
    );
    expect(kvp.bytes.equals(rest.bytes)).toBe(true);
  });

  it('reports bad requests as OWS exception reports', async () => {
    const level = await bytesOf(
      `${map()}/WMTS/tile/1.0.0/${tiled}/default/GoogleMapsCompatible/5/0/0?token=${token}`,
    );
    expect(level.res.status).toBe(400);
    expect(level.bytes.toString()).toMatch(/exceptionCode="InvalidParameterValue" locator="TILEMATRIX"/);
    const set = await bytesOf(`${map()}/WMTS/tile/1.0.0/${tiled}/default/EPSG:4326/11/0/0?token=${token}`);
    expect(set.bytes.toString()).toContain('locator="TILEMATRIXSET"');
    const op = await bytesOf(`${map()}/WMTS?SERVICE=WMTS&REQUEST=GetFeatureInfo&token=${token}`);
    expect(op.bytes.toString()).toContain('exceptionCode="OperationNotSupported"');
  });

  it('is read by GDAL: gdal_translate of the WMTS layer puts the station at its pixel', async () => {
    const source = `WMTS:${map()}/WMTS/1.0.0/WMTSCapabilities.xml?token=${token},layer=${tiled},tilematrixset=GoogleMapsCompatible`;
    const info = (await promisify(execFile)('gdalinfo', [source], { env: GDAL_ENV })).stdout;
    // The layer's data extent at level 11, the finest the cache has.
    expect(info).toMatch(/Pixel Size = \(76\.4370282/);
    const out = join(mkdtempSync(join(tmpdir(), 'gdal-wmts-')), 'out.png');
    const [lon, lat] = BELMONT;
    const d = 0.02;
    await promisify(execFile)(
      'gdal_translate',
      [
        '-q',
        '-of',
        'PNG',
        '-projwin_srs',
        'EPSG:4326',
        '-projwin',
        `${lon - d}`,
        `${lat + d}`,
        `${lon + d}`,
        `${lat - d}`,
        source,
        out,
      ],
      { env: GDAL_ENV },
    );
    const { data, info: size } = await sharp(readFileSync(out))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const [cx, cy] = [Math.floor(size.width / 2), Math.floor(size.height / 2)];
    const i = (cy * size.width + cx) * 4;
    expect([...data.subarray(i, i + 4)]).toEqual([0, 122, 194, 255]);
  });
});
