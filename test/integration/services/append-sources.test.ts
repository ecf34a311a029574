/**
 * append from the multi-table sources publish reads: GeoPackage, SpatiaLite and a zipped file
 * geodatabase, `sourceTableName` picking the table. The expected rows are read from the fixtures by
 * sqlite3 and ogrinfo, not by our readers.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { edit } from '../editing/edit-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { followJob } from './job-client.js';

const EDITING = 'Query,Create,Update,Delete,Editing';

/** name → population of a fixture's places table, by sqlite3 (null population as null). */
function sqlitePlaces(file: string): Map<string, number | null> {
  const out = execFileSync('sqlite3', ['-json', fixture(file), 'select name, population from places'], {
    encoding: 'utf8',
  });
  return new Map(
    (JSON.parse(out) as { name: string; population: number | null }[]).map((r) => [r.name, r.population]),
  );
}

/** name → population of the file geodatabase's places feature class, as GDAL's ogr2ogr reads it. */
function geodatabasePlaces(file: string): Map<string, number | null> {
  const out = execFileSync(
    'ogr2ogr',
    ['-f', 'GeoJSON', '/vsistdout/', `/vsizip/${fixture(file)}`, 'places'],
    {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    },
  );
  const features = (JSON.parse(out) as { features: any[] }).features;
  return new Map(features.map((f) => [f.properties.name, f.properties.population ?? null]));
}

describe('append from GeoPackage, SQLite and file geodatabase items', () => {
  let token: string;
  let layer: string;
  const owner = () => stack().admin.username;

  const addFile = async (file: string, type: string) => {
    const added = await upload(
      `/sharing/rest/content/users/${owner()}/addItem`,
      { token, type, title: `append source ${file}` },
      // A name of its own: other files of the run upload the same fixtures into the same folder.
      { name: `${uniqueName('append')}_${file.split('/').pop()!}`, path: fixture(file) },
    );
    if (!added.id) throw new Error(`addItem failed: ${JSON.stringify(added)}`);
    return added.id as string;
  };
  const rows = async (where: string) =>
    (await call(`${layer}/query`, { token, where, outFields: 'name,population', returnGeometry: 'true' }))
      .json.features as {
      attributes: { name: string; population: number | null };
      geometry?: { x: number };
    }[];

  beforeAll(async () => {
    token = await signIn();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'GeoPackage' },
      { name: 'towns.gpkg', path: fixture('sqlite/towns.gpkg') },
    );
    const name = uniqueName('append_towns');
    const { status } = await publishFile(token, 'sqlite/towns.gpkg', 'geoPackage', {
      ...analyzed.publishParameters,
      name,
    });
    if (status.status !== 'completed') throw new Error(JSON.stringify(status));
    const changed = await edit(
      `/rest/admin/services/Hosted/${name}/FeatureServer/0/updateDefinition`,
      token,
      {
        updateDefinition: { capabilities: EDITING },
      },
    );
    if (!changed.success) throw new Error(JSON.stringify(changed));
    layer = `${featureServer(name)}/0`;
  }, 180_000);

  it('appends the places table of a GeoPackage item, every row and value as sqlite3 reads them', async () => {
    const expected = sqlitePlaces('sqlite/towns.gpkg');
    const item = await addFile('sqlite/towns.gpkg', 'GeoPackage');
    const res = await edit(`${layer}/append`, token, { appendItemId: item, sourceTableName: 'places' });
    expect([res.status, res.recordCount, res.addedCount]).toEqual([
      'Completed',
      expected.size,
      expected.size,
    ]);
    const added = await rows(`OBJECTID IN (${res.addResults.map((r: any) => r.objectId).join(',')})`);
    expect(new Map(added.map((f) => [f.attributes.name, f.attributes.population]))).toEqual(expected);
    expect(added.every((f) => Number.isFinite(f.geometry?.x))).toBe(true);
  });

  it('appends from a SpatiaLite item asynchronously; sourceTableName naming no table is a 400 that adds nothing', async () => {
    const expected = sqlitePlaces('sqlite/towns-spatialite.sqlite');
    const item = await addFile('sqlite/towns-spatialite.sqlite', 'SQLite Geodatabase');
    const before = (await rows('1=1')).length;
    const missing = await edit(`${layer}/append`, token, { appendItemId: item, sourceTableName: 'harbours' });
    expect(missing.error.code).toBe(400);
    expect(missing.error.details[0]).toMatch(/no table 'harbours'/);
    expect((await rows('1=1')).length).toBe(before);
    const res = await edit(`${layer}/append`, token, {
      appendItemId: item,
      sourceTableName: 'places',
      async: true,
    });
    const status = await followJob(res.statusUrl, token);
    expect([status.status, status.recordCount]).toEqual(['Completed', expected.size]);
    const added = await rows(`OBJECTID IN (${status.addResults.map((r: any) => r.objectId).join(',')})`);
    expect(new Map(added.map((f) => [f.attributes.name, f.attributes.population]))).toEqual(expected);
  });

  it('appends the places feature class of a zipped file geodatabase, as GDAL reads it', async () => {
    const expected = geodatabasePlaces('file-geodatabase/towns.gdb.zip');
    const item = await addFile('file-geodatabase/towns.gdb.zip', 'File Geodatabase');
    const res = await edit(`${layer}/append`, token, {
      appendItemId: item,
      appendUploadFormat: 'filegdb',
      sourceTableName: 'places',
    });
    expect([res.status, res.recordCount]).toEqual(['Completed', expected.size]);
    const added = await rows(`OBJECTID IN (${res.addResults.map((r: any) => r.objectId).join(',')})`);
    expect(new Map(added.map((f) => [f.attributes.name, f.attributes.population]))).toEqual(expected);
  });
});
