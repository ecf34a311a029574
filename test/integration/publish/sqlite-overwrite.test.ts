import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, fixture, uniqueName, upload, waitForJob } from './publish-client.js';

/** towns.gpkg with the inspection of fid 2 deleted, written by sql.js to a temporary file. */
async function editedGeoPackage(): Promise<string> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(readFileSync(fixture('sqlite/towns.gpkg')));
  db.run('DELETE FROM inspections WHERE fid = 2');
  const path = join(mkdtempSync(join(tmpdir(), 'gpkg-')), 'towns.gpkg');
  writeFileSync(path, db.export());
  return path;
}

describe('a GeoPackage item published with itemIdToCreate, then overwritten', () => {
  const owner = () => stack().admin.username;
  const itemIdToCreate = 'abcdef0123456789abcdef0123456789'.replace(
    'abcdef',
    Date.now().toString(16).slice(-6),
  );
  const name = uniqueName('towns_overwrite');
  // Other tests add towns.gpkg for the same owner: a folder holds one item per file name.
  const fileName = `${name}.gpkg`;
  let token: string;
  let sourceId: string;
  const count = async () =>
    (await call(`${featureServer(name)}/3/query`, { token, where: '1=1', returnCountOnly: 'true' })).json
      .count;
  const publish = async (extra: Record<string, string>) => {
    const res = await call(`/sharing/rest/content/users/${owner()}/publish`, {
      token,
      itemid: sourceId,
      filetype: 'GEOPACKAGE',
      publishParameters: JSON.stringify({ name, layers: [{ id: 3, name: 'inspections' }] }),
      ...extra,
    });
    const service = res.json.services?.[0];
    if (!service) throw new Error(`publish refused: ${res.text}`);
    return { service, status: await waitForJob(token, owner(), service.serviceItemId, service.jobId) };
  };

  beforeAll(async () => {
    token = await signIn();
    const added = await upload(
      `/sharing/rest/content/users/${owner()}/addItem`,
      { token, type: 'GeoPackage', title: 'Towns to overwrite' },
      { name: fileName, path: fixture('sqlite/towns.gpkg') },
    );
    if (!added.id) throw new Error(`addItem refused: ${JSON.stringify(added)}`);
    sourceId = added.id;
  });

  it('publishes under the item id asked for', async () => {
    const { service, status } = await publish({ itemIdToCreate });
    expect(status.status).toBe('completed');
    expect(service.serviceItemId).toBe(itemIdToCreate);
    expect(await count()).toBe(3);
  });

  it('overwrite loads the item’s new file into the same service', async () => {
    const updated = await upload(
      `/sharing/rest/content/users/${owner()}/items/${sourceId}/update`,
      { token },
      { name: fileName, path: await editedGeoPackage() },
    );
    expect(updated).toMatchObject({ success: true });
    const { service, status } = await publish({ overwrite: 'true' });
    expect(status.status).toBe('completed');
    expect(service.serviceItemId).toBe(itemIdToCreate);
    expect(await count()).toBe(2);
    const notes = (
      await call(`${featureServer(name)}/3/query`, {
        token,
        where: '1=1',
        outFields: 'note',
        orderByFields: 'OBJECTID',
      })
    ).json.features.map((f: any) => f.attributes.note);
    expect(notes).toEqual(['roof checked', 'fence repaired']);
  });
});
