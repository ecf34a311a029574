import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { reassignItem } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { describe, expect, it } from 'vitest';
import { EDITABLE, publishStations } from '../editing/edit-client.js';
import { call, stack } from '../support/portal-client.js';
import {
  addTextItem,
  admin,
  callMultipart,
  fixtureBytes,
  newUser,
  objectKeys,
  type TestUser,
  unique,
  withDatabase,
} from './portal-helpers.js';

const addCsv = async (user: TestUser, fields: Record<string, string> = {}, name = 'places.csv') =>
  callMultipart(
    `/sharing/rest/content/users/${user.username}/addItem`,
    { token: user.token, type: 'CSV', title: unique('places '), tags: 'towns,poi', ...fields },
    { name, bytes: fixtureBytes('places.csv'), type: 'text/csv' },
  );

const itemInfo = (id: string, token?: string) =>
  call(`/sharing/rest/content/items/${id}`, token ? { token } : {}, { method: 'GET' });

describe('addItem and content/items/{id}', () => {
  it('stores an uploaded file and describes it as the item', async () => {
    const u = await newUser();
    const added = await addCsv(u, { snippet: 'Three places', description: 'Some places' });
    expect(added.json.success).toBe(true);
    expect(added.json.id).toMatch(/^[0-9a-f]{32}$/);
    expect(added.json.folder).toBeNull();
    const info = await itemInfo(added.json.id, u.token);
    expect(info.json).toMatchObject({
      id: added.json.id,
      owner: u.username,
      type: 'CSV',
      name: 'places.csv',
      tags: ['towns', 'poi'],
      snippet: 'Three places',
      description: 'Some places',
      access: 'private',
      size: fixtureBytes('places.csv').length,
      typeKeywords: ['CSV'],
    });
    expect(await objectKeys(`items/${added.json.id}/`)).toEqual([`items/${added.json.id}/data`]);
  });

  it('streams the stored file back with its content type from /data', async () => {
    const u = await newUser();
    const added = await addCsv(u);
    const res = await fetch(
      `${stack().baseUrl}/sharing/rest/content/items/${added.json.id}/data?token=${u.token}`,
    );
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(fixtureBytes('places.csv'));
  });

  it('stores text as the item data and returns it as JSON', async () => {
    const u = await newUser();
    const id = await addTextItem(u, { text: '{"operationalLayers":[{"id":"a"}]}' });
    const res = await fetch(`${stack().baseUrl}/sharing/rest/content/items/${id}/data?token=${u.token}`);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ operationalLayers: [{ id: 'a' }] });
  });

  it('adds a url item without data', async () => {
    const u = await newUser();
    const res = await call(`/sharing/rest/content/users/${u.username}/addItem`, {
      token: u.token,
      type: 'Map Service',
      title: 'External tiles',
      url: 'https://tiles.example.com/arcgis/rest/services/Base/MapServer',
    });
    const info = await itemInfo(res.json.id, u.token);
    expect(info.json.url).toBe('https://tiles.example.com/arcgis/rest/services/Base/MapServer');
    expect(info.json.size).toBe(-1);
  });

  it("requires 'type' and 'title'", async () => {
    const u = await newUser();
    const res = await call(`/sharing/rest/content/users/${u.username}/addItem`, {
      token: u.token,
      title: 'x',
    });
    expect(res.json.error.message).toBe("'type' and 'title' property required.");
  });

  it('refuses a second file of the same name in the same folder', async () => {
    const u = await newUser();
    await addCsv(u);
    const again = await addCsv(u);
    expect(again.json.error.code).toBe(409);
  });

  it('refuses to add items for another user', async () => {
    const a = await newUser();
    const b = await newUser();
    const res = await call(`/sharing/rest/content/users/${a.username}/addItem`, {
      token: b.token,
      type: 'Web Map',
      title: 'x',
    });
    expect(res.json.error.code).toBe(403);
  });

  it('hides a private item from other members and anonymous callers', async () => {
    const a = await newUser();
    const b = await newUser();
    const id = await addTextItem(a);
    expect((await itemInfo(id, b.token)).json.error.messageCode).toBe('CONT_0001');
    expect((await itemInfo(id)).json.error.messageCode).toBe('CONT_0001');
    expect((await itemInfo(id, await admin())).json.id).toBe(id);
  });

  it('rejects a too-large upload and leaves nothing in MinIO or the database', async () => {
    const u = await newUser();
    const before = new Set(await objectKeys('items/'));
    const big = new Uint8Array(50 * 1024 * 1024 + 1024);
    const res = await callMultipart(
      `/sharing/rest/content/users/${u.username}/addItem`,
      { token: u.token, type: 'CSV', title: 'too big' },
      { name: 'big.csv', bytes: big },
    );
    expect(res.json.error.code).toBe(413);
    // Objects first, rows a moment later: an addItem of another test file in flight stores its file as it
    // arrives and writes its row moments after (api/upload-routes.ts), so its object is then known.
    const added = (await objectKeys('items/')).filter((k) => !before.has(k));
    await new Promise((r) => setTimeout(r, 1_000));
    const rows = await withDatabase((sql) => sql`select id, data_key from items`);
    const known = new Set(rows.map((r) => r.data_key));
    expect(added.filter((k) => !known.has(k))).toEqual([]);
    expect(rows.filter((r) => r.title === 'too big')).toEqual([]);
    const owned = await withDatabase(
      (sql) => sql`select count(*)::int as n from items where owner = ${u.username}`,
    );
    expect(owned[0]?.n).toBe(0);
  });
});

describe('an interrupted upload', () => {
  it('leaves no temporary file, object or row behind', async () => {
    const u = await newUser();
    const boundary = 'interrupted-upload-boundary';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head =
      part('token', u.token) +
      part('type', 'CSV') +
      part('title', 'cut off') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.csv"\r\n` +
      'Content-Type: text/csv\r\n\r\n';
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      async start(stream) {
        stream.enqueue(new TextEncoder().encode(head));
        stream.enqueue(new Uint8Array(2 * 1024 * 1024).fill(65));
        await new Promise((r) => setTimeout(r, 300));
        controller.abort();
      },
    });
    await expect(
      fetch(`${stack().baseUrl}/sharing/rest/content/users/${u.username}/addItem`, {
        method: 'POST',
        body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        signal: controller.signal,
        duplex: 'half',
      } as RequestInit),
    ).rejects.toThrow();
    const tmp = join(stack().dataDir, 'tmp');
    // Other files' uploads pass through the same folder; wait until it has been empty once.
    let leftovers = ['?'];
    for (let i = 0; i < 20 && leftovers.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      leftovers = existsSync(tmp) ? readdirSync(tmp) : [];
    }
    expect(leftovers).toEqual([]);
    const owned = await withDatabase(
      (sql) => sql`select count(*)::int as n from items where owner = ${u.username}`,
    );
    expect(owned[0]?.n).toBe(0);
  });
});

describe('update and delete', () => {
  it('changes only the properties sent', async () => {
    const u = await newUser();
    const id = await addTextItem(u, { snippet: 'keep me' });
    const res = await call(`/sharing/rest/content/users/${u.username}/items/${id}/update`, {
      token: u.token,
      title: 'Renamed',
      tags: 'a,b',
    });
    expect(res.json).toEqual({ success: true, id });
    const info = await itemInfo(id, u.token);
    expect(info.json).toMatchObject({ title: 'Renamed', tags: ['a', 'b'], snippet: 'keep me' });
  });

  it('replaces the data with a new file', async () => {
    const u = await newUser();
    const id = await addTextItem(u);
    await callMultipart(
      `/sharing/rest/content/users/${u.username}/items/${id}/update`,
      { token: u.token },
      { name: 'pixel.png', bytes: fixtureBytes('pixel.png'), type: 'image/png' },
    );
    const res = await fetch(`${stack().baseUrl}/sharing/rest/content/items/${id}/data?token=${u.token}`);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(fixtureBytes('pixel.png'));
    expect((await itemInfo(id, u.token)).json.name).toBe('pixel.png');
  });

  it('is refused to another member and changes nothing', async () => {
    const a = await newUser();
    const b = await newUser();
    const id = await addTextItem(a, { title: 'Original' });
    const res = await call(`/sharing/rest/content/users/${a.username}/items/${id}/update`, {
      token: b.token,
      title: 'Hijacked',
    });
    expect(res.json.error.messageCode).toBe('CONT_0001');
    expect((await itemInfo(id, a.token)).json.title).toBe('Original');
  });

  it('deletes the item, its data in MinIO and its row', async () => {
    const u = await newUser();
    const added = await addCsv(u);
    const id = added.json.id as string;
    const res = await call(`/sharing/rest/content/users/${u.username}/items/${id}/delete`, {
      token: u.token,
    });
    expect(res.json).toEqual({ success: true, itemId: id });
    expect(await objectKeys(`items/${id}/`)).toEqual([]);
    expect((await itemInfo(id, u.token)).json.error.messageCode).toBe('CONT_0001');
  });

  it('refuses to delete a protected item until it is unprotected', async () => {
    const u = await newUser();
    const id = await addTextItem(u);
    const path = `/sharing/rest/content/users/${u.username}/items/${id}`;
    expect((await call(`${path}/protect`, { token: u.token })).json).toEqual({ success: true, itemId: id });
    expect((await itemInfo(id, u.token)).json.protected).toBe(true);
    const refused = await call(`${path}/delete`, { token: u.token });
    expect(refused.json.error.messageCode).toBe('CONT_0048');
    expect((await itemInfo(id, u.token)).json.id).toBe(id);
    await call(`${path}/unprotect`, { token: u.token });
    expect((await call(`${path}/delete`, { token: u.token })).json.success).toBe(true);
  });

  it('lets an administrator delete a member’s item', async () => {
    const u = await newUser();
    const id = await addTextItem(u);
    const res = await call(`/sharing/rest/content/users/${u.username}/items/${id}/delete`, {
      token: await admin(),
    });
    expect(res.json.success).toBe(true);
  });
});

describe('content/users/{u} and folders', () => {
  it('lists root items and folders, and a folder’s items', async () => {
    const u = await newUser();
    const rootId = await addTextItem(u);
    const folder = await call(`/sharing/rest/content/users/${u.username}/createFolder`, {
      token: u.token,
      title: 'Project A',
    });
    expect(folder.json.folder).toMatchObject({ username: u.username, title: 'Project A' });
    const folderId = folder.json.folder.id as string;
    const inFolder = await call(`/sharing/rest/content/users/${u.username}/${folderId}/addItem`, {
      token: u.token,
      type: 'Web Map',
      title: 'In folder',
      text: '{}',
    });
    expect(inFolder.json.folder).toBe(folderId);
    const root = await call(
      `/sharing/rest/content/users/${u.username}`,
      { token: u.token },
      { method: 'GET' },
    );
    expect(root.json.items.map((i: { id: string }) => i.id)).toEqual([rootId]);
    expect(root.json.folders.map((f: { id: string }) => f.id)).toEqual([folderId]);
    const sub = await call(
      `/sharing/rest/content/users/${u.username}/${folderId}`,
      { token: u.token },
      { method: 'GET' },
    );
    expect(sub.json.currentFolder.id).toBe(folderId);
    expect(sub.json.items.map((i: { id: string }) => i.id)).toEqual([inFolder.json.id]);
  });

  it('deletes a folder with the items in it', async () => {
    const u = await newUser();
    const folder = await call(`/sharing/rest/content/users/${u.username}/createFolder`, {
      token: u.token,
      title: 'Old',
    });
    const folderId = folder.json.folder.id as string;
    const added = await callMultipart(
      `/sharing/rest/content/users/${u.username}/${folderId}/addItem`,
      { token: u.token, type: 'CSV', title: 'In old folder' },
      { name: 'places.csv', bytes: fixtureBytes('places.csv') },
    );
    const res = await call(`/sharing/rest/content/users/${u.username}/${folderId}/delete`, {
      token: u.token,
    });
    expect(res.json.success).toBe(true);
    expect((await itemInfo(added.json.id, u.token)).json.error.messageCode).toBe('CONT_0001');
    expect(await objectKeys(`items/${added.json.id}/`)).toEqual([]);
    const root = await call(`/sharing/rest/content/users/${u.username}`, { token: u.token });
    expect(root.json.folders).toEqual([]);
  });

  it('refuses a folder title the user already has', async () => {
    const u = await newUser();
    await call(`/sharing/rest/content/users/${u.username}/createFolder`, { token: u.token, title: 'Same' });
    const again = await call(`/sharing/rest/content/users/${u.username}/createFolder`, {
      token: u.token,
      title: 'same',
    });
    expect(again.json.error.message).toMatch(/not available/);
  });

  it('is refused to another member', async () => {
    const a = await newUser();
    const b = await newUser();
    const res = await call(`/sharing/rest/content/users/${a.username}`, { token: b.token });
    expect(res.json.error.code).toBe(403);
  });
});

describe('move, moveItems and deleteItems', () => {
  const content = (u: TestUser) => `/sharing/rest/content/users/${u.username}`;
  const folderOf = async (u: TestUser, title: string) =>
    (await call(`${content(u)}/createFolder`, { token: u.token, title })).json.folder.id as string;
  const listed = async (u: TestUser, folderId?: string) =>
    (
      await call(`${content(u)}${folderId ? `/${folderId}` : ''}`, { token: u.token }, { method: 'GET' })
    ).json.items.map((i: { id: string }) => i.id) as string[];

  it('moves an item into a folder by id or title and back to the root', async () => {
    const u = await newUser();
    const folderId = await folderOf(u, 'Archive');
    const id = await addTextItem(u);
    const moved = await call(`${content(u)}/items/${id}/move`, { token: u.token, folder: folderId });
    expect(moved.json).toEqual({ success: true, itemId: id, owner: u.username, folder: folderId });
    expect(await listed(u, folderId)).toEqual([id]);
    expect(await listed(u)).toEqual([]);
    // From inside the folder, back to the root with '/'; then in again by the folder's title.
    const back = await call(`${content(u)}/${folderId}/items/${id}/move`, { token: u.token, folder: '/' });
    expect(back.json).toEqual({ success: true, itemId: id, owner: u.username, folder: '/' });
    expect(await listed(u)).toEqual([id]);
    await call(`${content(u)}/items/${id}/move`, { token: u.token, folder: 'archive' });
    expect(await listed(u, folderId)).toEqual([id]);
    const nowhere = await call(`${content(u)}/items/${id}/move`, { token: u.token, folder: 'f'.repeat(32) });
    expect(nowhere.json.error).toMatchObject({ code: 400, message: 'Folder not found.' });
    expect((await itemInfo(id, u.token)).json.ownerFolder).toBe(folderId);
  });

  it('refuses a move into a folder that holds an item with the same file name', async () => {
    const u = await newUser();
    const folderId = await folderOf(u, 'Data');
    const inRoot = await addCsv(u);
    const inFolder = await callMultipart(
      `${content(u)}/${folderId}/addItem`,
      { token: u.token, type: 'CSV', title: unique('places ') },
      { name: 'places.csv', bytes: fixtureBytes('places.csv'), type: 'text/csv' },
    );
    const res = await call(`${content(u)}/items/${inRoot.json.id}/move`, {
      token: u.token,
      folder: folderId,
    });
    expect(res.json.error).toMatchObject({ code: 409, messageCode: 'CONT_0011' });
    expect(await listed(u, folderId)).toEqual([inFolder.json.id]);
  });

  it('moves a batch, one result per item, and leaves items it may not move where they are', async () => {
    const [u, other] = [await newUser(), await newUser()];
    const folderId = await folderOf(u, 'Batch');
    const [a, b] = [await addTextItem(u), await addTextItem(u)];
    const theirs = await addTextItem(other);
    const res = await call(`${content(u)}/moveItems`, {
      token: u.token,
      items: `${a},${theirs},${b}`,
      folder: folderId,
    });
    expect(res.json).toEqual({
      results: [
        { itemId: a, success: true },
        {
          itemId: theirs,
          success: false,
          error: { code: 400, message: 'Item does not exist or is inaccessible.' },
        },
        { itemId: b, success: true },
      ],
    });
    expect((await listed(u, folderId)).sort()).toEqual([a, b].sort());
    expect((await itemInfo(theirs, other.token)).json.ownerFolder ?? null).toBeNull();
  });

  it('deletes a batch, keeping a delete-protected item and reporting it', async () => {
    const [u, other] = [await newUser(), await newUser()];
    const [a, kept] = [await addTextItem(u), await addTextItem(u)];
    const theirs = await addTextItem(other);
    await call(`${content(u)}/items/${kept}/protect`, { token: u.token });
    const res = await call(`${content(u)}/deleteItems`, { token: u.token, items: `${a},${kept},${theirs}` });
    expect(res.json).toEqual({
      results: [
        { itemId: a, success: true },
        {
          itemId: kept,
          success: false,
          error: { code: 400, message: 'Unable to delete item. Delete protection is turned on.' },
        },
        {
          itemId: theirs,
          success: false,
          error: { code: 400, message: 'Item does not exist or is inaccessible.' },
        },
      ],
    });
    expect((await itemInfo(a, u.token)).json.error.code).toBe(400);
    expect((await itemInfo(kept, u.token)).json.id).toBe(kept);
    expect((await itemInfo(theirs, other.token)).json.id).toBe(theirs);
  });

  it('takes batches from the user themself or an administrator only', async () => {
    const [u, other] = [await newUser(), await newUser()];
    const id = await addTextItem(u);
    const refused = await call(`${content(u)}/deleteItems`, { token: other.token, items: id });
    expect(refused.json.error.code).toBe(403);
    const res = await call(`${content(u)}/deleteItems`, { token: await admin(), items: id });
    expect(res.json).toEqual({ results: [{ itemId: id, success: true }] });
  });
});

describe('reassign', () => {
  const content = (u: TestUser) => `/sharing/rest/content/users/${u.username}`;
  const listed = async (u: TestUser, folderId?: string) => {
    const res = await call(
      `${content(u)}${folderId ? `/${folderId}` : ''}`,
      { token: u.token },
      { method: 'GET' },
    );
    return {
      items: res.json.items.map((i: { id: string }) => i.id) as string[],
      folders: res.json.folders ?? [],
    };
  };

  it("gives a user's item to another user, in a folder made for it, through @esri/arcgis-rest-portal", async () => {
    const [from, to] = [await newUser(), await newUser()];
    const id = await addTextItem(from, { text: '{"kept":true}' });
    const authentication = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
    const res = await reassignItem({
      id,
      currentOwner: from.username,
      targetUsername: to.username,
      targetFolderName: 'Received',
      authentication,
    });
    expect(res).toEqual({ success: true, itemId: id });
    const root = await listed(to);
    const folder = root.folders.find((f: { title: string }) => f.title === 'Received');
    expect(folder).toBeDefined();
    expect((await listed(to, folder.id)).items).toEqual([id]);
    expect((await listed(from)).items).toEqual([]);
    const info = (await itemInfo(id, to.token)).json;
    expect([info.owner, info.ownerFolder]).toEqual([to.username, folder.id]);
    // The new owner changes it; the old one no longer may.
    expect(
      (await call(`${content(to)}/items/${id}/update`, { token: to.token, title: 'Mine now' })).json.success,
    ).toBe(true);
    expect(
      (await call(`${content(from)}/items/${id}/update`, { token: from.token, title: 'x' })).json.error.code,
    ).toBe(400);
    const data = await call(`/sharing/rest/content/items/${id}/data`, { token: to.token }, { method: 'GET' });
    expect(data.json).toEqual({ kept: true });
  });

  it('hands a hosted feature service over with its item: the new owner changes its definition', async () => {
    const token = await admin();
    const svc = await publishStations(token, EDITABLE);
    const to = await newUser('org_publisher');
    const res = await call(
      `/sharing/rest/content/users/${stack().admin.username}/items/${svc.serviceItemId}/reassign`,
      {
        token,
        targetUsername: to.username,
        targetFolderName: '/',
      },
    );
    expect(res.json).toEqual({ success: true, itemId: svc.serviceItemId });
    const [row] = await withDatabase(
      (sql) => sql`select owner from hosted_services where service_item_id = ${svc.serviceItemId}`,
    );
    expect(row.owner).toBe(to.username);
    const changed = await call(`/rest/admin/services/Hosted/${svc.name}/FeatureServer/0/updateDefinition`, {
      token: to.token,
      updateDefinition: JSON.stringify({ description: 'Handed over' }),
    });
    expect(changed.json).toEqual({ success: true });
  }, 120_000);

  it('refuses a group-only item to a user who cannot share into its groups, and anyone but an administrator', async () => {
    const [from, to] = [await newUser(), await newUser()];
    const group = (
      await call('/sharing/rest/community/createGroup', { token: from.token, title: unique('only ') })
    ).json.group.id as string;
    const id = await addTextItem(from);
    await call(`${content(from)}/items/${id}/share`, { token: from.token, groups: group });
    const refused = await call(`${content(from)}/items/${id}/reassign`, {
      token: await admin(),
      targetUsername: to.username,
    });
    expect(refused.json.error).toMatchObject({ code: 400, message: 'Unable to reassign item.' });
    expect((await itemInfo(id, from.token)).json.owner).toBe(from.username);
    const notAdmin = await call(`${content(from)}/items/${id}/reassign`, {
      token: from.token,
      targetUsername: to.username,
    });
    expect(notAdmin.json.error.code).toBe(403);
    const nobody = await call(`${content(from)}/items/${id}/reassign`, {
      token: await admin(),
      targetUsername: 'nosuchuser0',
    });
    expect(nobody.json.error.code).toBe(400);
    expect((await itemInfo(id, from.token)).json.owner).toBe(from.username);
  });
});

describe('search', () => {
  it('finds items by owner and type, paged and sorted by title', async () => {
    const u = await newUser();
    for (const title of ['Charlie', 'Alpha', 'Bravo']) await addTextItem(u, { title });
    await addCsv(u);
    const q = `owner:${u.username} AND type:"Web Map"`;
    const first = await call('/sharing/rest/search', { token: u.token, q, sortField: 'title', num: '2' });
    expect(first.json.total).toBe(3);
    expect(first.json.results.map((r: { title: string }) => r.title)).toEqual(['Alpha', 'Bravo']);
    expect(first.json.nextStart).toBe(3);
    const second = await call('/sharing/rest/search', {
      token: u.token,
      q,
      sortField: 'title',
      num: '2',
      start: '3',
    });
    expect(second.json.results.map((r: { title: string }) => r.title)).toEqual(['Charlie']);
    expect(second.json.nextStart).toBe(-1);
  });

  it('matches free words in titles and tags and sorts descending', async () => {
    const u = await newUser();
    const word = unique('zebra');
    await addTextItem(u, { title: `${word} one` });
    await addTextItem(u, { title: 'other', tags: word });
    const res = await call('/sharing/rest/search', {
      token: u.token,
      q: word,
      sortField: 'title',
      sortOrder: 'desc',
    });
    expect(res.json.results.map((r: { title: string }) => r.title)).toEqual([`${word} one`, 'other']);
  });

  it('does not show private items of others', async () => {
    const a = await newUser();
    const b = await newUser();
    await addTextItem(a);
    const res = await call('/sharing/rest/search', { token: b.token, q: `owner:${a.username}` });
    expect(res.json.total).toBe(0);
  });

  it('refuses an unknown sort field', async () => {
    const res = await call('/sharing/rest/search', { q: 'x', sortField: 'colour' });
    expect(res.json.error.details[0]).toMatch(/sortField/);
  });
});
