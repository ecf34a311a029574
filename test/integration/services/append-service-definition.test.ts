/**
 * append from a service definition item (.sd: a 7-Zip archive carrying a file geodatabase, as ArcGIS
 * Pro stages one). The archive is built here with 7z-wasm from the towns geodatabase fixture, then
 * unpacked again into a folder GDAL reads: the expected rows are what ogr2ogr reads from the
 * geodatabase the .sd holds, not what our readers make of it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SevenZipModuleFactory } from '7z-wasm';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { edit } from '../editing/edit-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';

const SevenZip = createRequire(import.meta.url)('7z-wasm') as SevenZipModuleFactory;
const EDITING = 'Query,Create,Update,Delete,Editing';

/** A .sd (7-Zip archive) of `files`, written by 7z-wasm; also unpacked again by 7-Zip when asked. */
async function serviceDefinition(
  files: Record<string, Uint8Array>,
  unpack = false,
): Promise<{ sd: string; unpacked: string }> {
  const sz = await SevenZip({ print: () => {}, printErr: () => {} });
  const mkdirs = (path: string) => {
    let dir = '';
    for (const part of dirname(path).split('/').filter(Boolean)) {
      dir += `/${part}`;
      try {
        sz.FS.mkdir(dir);
      } catch {
        // exists
      }
    }
  };
  for (const [path, bytes] of Object.entries(files)) {
    mkdirs(`/src/${path}`);
    sz.FS.writeFile(`/src/${path}`, bytes);
  }
  sz.FS.chdir('/src');
  sz.callMain(['a', '/out.sd', '*', '-bd']);
  const dir = mkdtempSync(join(tmpdir(), 'append-sd-'));
  const sd = join(dir, 'source.sd');
  writeFileSync(sd, sz.FS.readFile('/out.sd'));
  const unpacked = join(dir, 'unpacked');
  if (!unpack) return { sd, unpacked };
  // Unpacked from the archive just written, so GDAL reads the geodatabase the .sd carries.
  sz.FS.mkdir('/unpacked');
  sz.FS.chdir('/unpacked');
  sz.callMain(['x', '/out.sd', '-bd', '-y']);
  for (const path of Object.keys(files)) {
    const target = join(unpacked, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, sz.FS.readFile(`/unpacked/${path}`));
  }
  return { sd, unpacked };
}

const text = (s: string) => new TextEncoder().encode(s);

/** A .sd of the towns geodatabase under v101/, and the folder it unpacks to (by 7-Zip, not by us). */
function townsServiceDefinition(): Promise<{ sd: string; unpacked: string }> {
  const files: Record<string, Uint8Array> = { 'esriinfo/iteminfo.xml': text('<ESRI_ItemInformation/>') };
  const gdb = unzipSync(readFileSync(fixture('file-geodatabase/towns.gdb.zip')));
  for (const [path, bytes] of Object.entries(gdb)) if (!path.endsWith('/')) files[`v101/${path}`] = bytes;
  return serviceDefinition(files, true);
}

interface Place {
  population: number | null;
  area: number | null;
  x: number;
  y: number;
}

/** name → values and WGS84 point of the places feature class, as ogr2ogr reads the geodatabase. */
function gdalPlaces(gdb: string): Map<string, Place> {
  const out = execFileSync(
    'ogr2ogr',
    ['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', '-dim', 'XY', '/vsistdout/', gdb, 'places'],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  const features = (JSON.parse(out) as { features: any[] }).features;
  return new Map(
    features.map((f) => [
      f.properties.name as string,
      {
        population: f.properties.population ?? null,
        area: f.properties.area ?? null,
        x: f.geometry.coordinates[0],
        y: f.geometry.coordinates[1],
      },
    ]),
  );
}

describe('append from a service definition item', () => {
  let token: string;
  let layer: string;
  let item: string;
  let expected: Map<string, Place>;
  const owner = () => stack().admin.username;

  const rows = async (where: string) =>
    (
      await call(`${layer}/query`, {
        token,
        where,
        outFields: 'name,population,area',
        returnGeometry: 'true',
        outSR: '4326',
      })
    ).json.features as {
      attributes: { name: string; population: number | null; area: number | null };
      geometry: { x: number; y: number };
    }[];

  beforeAll(async () => {
    token = await signIn();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'GeoPackage' },
      { name: 'towns.gpkg', path: fixture('sqlite/towns.gpkg') },
    );
    const name = uniqueName('append_sd_towns');
    const { status } = await publishFile(token, 'sqlite/towns.gpkg', 'geoPackage', {
      ...analyzed.publishParameters,
      name,
    });
    if (status.status !== 'completed') throw new Error(JSON.stringify(status));
    const changed = await edit(
      `/rest/admin/services/Hosted/${name}/FeatureServer/0/updateDefinition`,
      token,
      { updateDefinition: { capabilities: EDITING } },
    );
    if (!changed.success) throw new Error(JSON.stringify(changed));
    layer = `${featureServer(name)}/0`;

    const { sd, unpacked } = await townsServiceDefinition();
    expected = gdalPlaces(join(unpacked, 'v101', 'towns.gdb'));
    const added = await upload(
      `/sharing/rest/content/users/${owner()}/addItem`,
      { token, type: 'Service Definition', title: 'append source towns.sd' },
      { name: `${uniqueName('towns')}.sd`, path: sd },
    );
    if (!added.id) throw new Error(`addItem failed: ${JSON.stringify(added)}`);
    item = added.id;
  }, 180_000);

  it('the layer advertises serviceDefinition among the formats appendUploadFormat takes', async () => {
    const info = (await call(layer, { token }, { method: 'GET' })).json;
    expect(info.supportedAppendFormats.split(',')).toContain('serviceDefinition');
  });

  it('appends the places feature class the .sd carries, every value and point as GDAL reads them', async () => {
    expect(expected.size).toBe(3);
    const before = (await rows('1=1')).length;
    const res = await edit(`${layer}/append`, token, {
      appendItemId: item,
      appendUploadFormat: 'serviceDefinition',
      sourceTableName: 'places',
    });
    expect([res.status, res.recordCount, res.addedCount, res.failedCount]).toEqual([
      'Completed',
      expected.size,
      expected.size,
      0,
    ]);
    const ids = res.addResults.map((r: any) => r.objectId);
    const added = await rows(`OBJECTID IN (${ids.join(',')})`);
    expect(added.length).toBe(expected.size);
    for (const f of added) {
      const want = expected.get(f.attributes.name);
      expect(want, f.attributes.name).toBeDefined();
      expect([f.attributes.population, f.attributes.area]).toEqual([want!.population, want!.area]);
      expect(f.geometry.x).toBeCloseTo(want!.x, 6);
      expect(f.geometry.y).toBeCloseTo(want!.y, 6);
    }
    expect((await rows('1=1')).length).toBe(before + expected.size);
  });

  it('appendUploadFormat naming another format is refused and adds nothing', async () => {
    const before = (await rows('1=1')).length;
    const res = await edit(`${layer}/append`, token, {
      appendItemId: item,
      appendUploadFormat: 'filegdb',
      sourceTableName: 'places',
    });
    expect(res.error.code).toBe(400);
    expect(res.error.details[0]).toBe(`Item ${item} is a Service Definition item, not fileGeodatabase data.`);
    expect((await rows('1=1')).length).toBe(before);
  });

  it('a .sd carrying a tile cache or no geodatabase is refused as an append error and adds nothing', async () => {
    const before = (await rows('1=1')).length;
    const cases: { files: Record<string, Uint8Array>; detail: string | RegExp }[] = [
      {
        files: {
          'esriinfo/iteminfo.xml': text('<ESRI_ItemInformation/>'),
          'v101/Layers/conf.xml': text('<CacheInfo/>'),
          'v101/Layers/_alllayers/L00/R0000C0000.bundle': new Uint8Array(64),
        },
        detail:
          'The service definition carries a tile cache: it publishes as a tiled Map Service, not a feature service.',
      },
      {
        files: { 'esriinfo/iteminfo.xml': text('<ESRI_ItemInformation/>'), 'v101/readme.txt': text('hello') },
        detail: /carries neither a tile cache nor a file geodatabase; it holds 2 files/,
      },
    ];
    for (const { files, detail } of cases) {
      const { sd } = await serviceDefinition(files);
      const added = await upload(
        `/sharing/rest/content/users/${owner()}/addItem`,
        { token, type: 'Service Definition', title: 'not a feature source' },
        { name: `${uniqueName('other')}.sd`, path: sd },
      );
      expect(added.id, JSON.stringify(added)).toBeTruthy();
      const res = await edit(`${layer}/append`, token, {
        appendItemId: added.id,
        appendUploadFormat: 'serviceDefinition',
        sourceTableName: 'places',
      });
      const error = res.error ?? res;
      expect([error.code, error.message]).toEqual([400, 'Unable to append.']);
      expect(error.details[0]).toMatch(detail);
    }
    expect((await rows('1=1')).length).toBe(before);
  });
});
