import {
  addItemPart,
  cancelItemUpload,
  commitItemUpload,
  createItem,
  getItem,
  getItemData,
  getItemStatus,
} from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, request } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser, restJsUser, type TestUser, unique } from './portal-helpers.js';

/** Deterministic bytes that differ from part to part (a CSV's worth of text). */
function bytesOf(seed: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = 32 + (x % 90);
  }
  return out;
}

const blob = (bytes: Uint8Array) => new Blob([bytes], { type: 'application/octet-stream' });

// Large files as ArcGIS clients send them: addItem with multipart=true, addPart, commit, cancel.
describe('items uploaded in parts through @esri/arcgis-rest-portal', () => {
  let user: TestUser;
  let authentication: ArcGISIdentityManager;
  let portal: string;
  /** A call the way rest-js makes it, answering the error body a client reads instead of throwing it. */
  const post = async (path: string, params: Record<string, string | Blob>) => {
    try {
      return (await request(`${portal}${path}`, { params, authentication })) as Record<string, any>;
    } catch (e) {
      const body = (e as { response?: { error?: unknown } }).response;
      if (!body?.error) throw e;
      return body as Record<string, any>;
    }
  };

  beforeAll(async () => {
    ({ user, authentication, portal } = await restJsUser());
  });

  const startUpload = async (filename: string) => {
    const added = await createItem({
      item: { title: unique('Parts '), type: 'CSV' },
      multipart: true,
      filename,
      authentication,
    });
    expect(added.success).toBe(true);
    return added.id;
  };

  it('joins the parts in order, whatever order they came in, into the item data', async () => {
    const id = await startUpload('joined.csv');
    expect(await getItemStatus({ id, owner: user.username, authentication })).toMatchObject({
      status: 'partial',
      itemId: id,
    });
    const parts = [bytesOf(1, 300_000), bytesOf(2, 250_001), bytesOf(3, 7)];
    for (const n of [2, 3, 1]) {
      const sent = await addItemPart({ id, partNum: n, file: blob(parts[n - 1]), authentication });
      expect(sent).toMatchObject({ success: true, id });
    }
    // A part sent again replaces itself.
    await addItemPart({ id, partNum: 2, file: blob(bytesOf(9, 10)), authentication });
    await addItemPart({ id, partNum: 2, file: blob(parts[1]), authentication });
    const title = unique('Committed ');
    expect(await commitItemUpload({ id, item: { title, type: 'CSV' }, authentication })).toMatchObject({
      success: true,
      id,
    });
    expect(await getItemStatus({ id, owner: user.username, authentication })).toMatchObject({
      status: 'completed',
    });
    const item = await getItem(id, { authentication });
    expect(item).toMatchObject({ title, name: 'joined.csv', type: 'CSV', size: 550_008 });
    const data = await getItemData(id, { authentication, file: true });
    const expected = Buffer.concat(parts.map((p) => Buffer.from(p)));
    expect(Buffer.from(await (data as Blob).arrayBuffer()).equals(expected)).toBe(true);
    // Committed: no more parts, no second commit.
    const late = await post(`/content/users/${user.username}/items/${id}/addPart?partNum=4`, {
      file: blob(bytesOf(4, 5)),
    });
    expect(late.error).toMatchObject({ code: 400, message: 'The item has no multipart upload in progress.' });
    expect((await post(`/content/users/${user.username}/items/${id}/commit`, {})).error?.code).toBe(400);
  });

  it('refuses a commit with a part missing, part numbers outside 1..10000, and a file past the upload limit', async () => {
    const id = await startUpload('gaps.csv');
    const at = `/content/users/${user.username}/items/${id}`;
    await addItemPart({ id, partNum: 1, file: blob(bytesOf(1, 100)), authentication });
    await addItemPart({ id, partNum: 3, file: blob(bytesOf(3, 100)), authentication });
    const gap = await post(`${at}/commit`, {});
    expect(gap.error).toMatchObject({ code: 400 });
    expect(gap.error.details.join(' ')).toContain('part 2 is missing');
    for (const partNum of ['0', '10001', '1.5', 'x', '']) {
      const bad = await post(`${at}/addPart?partNum=${partNum}`, { file: blob(bytesOf(5, 10)) });
      expect(bad.error, partNum).toMatchObject({ code: 400 });
    }
    expect((await post(`${at}/addPart?partNum=2`, {})).error?.details).toEqual([
      "'file' is required: the part's bytes.",
    ]);
    // The test stack allows 50 MiB per upload: the joined file is held to it as parts arrive.
    const big = blob(bytesOf(7, 26 * 1024 * 1024));
    expect(await addItemPart({ id, partNum: 2, file: big, authentication })).toMatchObject({ success: true });
    const over = await post(`${at}/addPart?partNum=4`, { file: big });
    expect(over.error).toMatchObject({ code: 413 });
    // Replacing a part counts its new size in place of the old one.
    expect(await addItemPart({ id, partNum: 2, file: blob(bytesOf(8, 10)), authentication })).toMatchObject({
      success: true,
    });
    expect(await addItemPart({ id, partNum: 4, file: big, authentication })).toMatchObject({ success: true });
    expect(
      await commitItemUpload({ id, item: { title: 'Gaps filled', type: 'CSV' }, authentication }),
    ).toMatchObject({ success: true });
    const item = await getItem(id, { authentication });
    expect(item.size).toBe(100 + 10 + 100 + 26 * 1024 * 1024);
  });

  it('cancels an upload: the parts go, the item stays without data, and only its owner may send parts', async () => {
    const id = await startUpload('cancelled.csv');
    await addItemPart({ id, partNum: 1, file: blob(bytesOf(1, 1000)), authentication });
    const other = await newUser('org_publisher');
    const otherAuth = await ArcGISIdentityManager.signIn({
      username: other.username,
      password: other.password,
      portal,
    });
    await expect(
      addItemPart({
        id,
        owner: user.username,
        partNum: 2,
        file: blob(bytesOf(2, 10)),
        authentication: otherAuth,
      }),
    ).rejects.toThrow();
    expect(await cancelItemUpload({ id, authentication })).toMatchObject({ success: true, id });
    expect(await getItemStatus({ id, owner: user.username, authentication })).toMatchObject({
      status: '',
      statusMessage: "Item status doesn't exist",
    });
    expect(await getItem(id, { authentication })).toMatchObject({ id, name: 'cancelled.csv', size: 0 });
    const again = await post(`/content/users/${user.username}/items/${id}/commit`, {});
    expect(again.error).toMatchObject({ code: 400 });
  });

  it('asks addItem for a file name, and for no file of its own, when multipart is true', async () => {
    const add = (form: Record<string, string | Blob>) =>
      post(`/content/users/${user.username}/addItem`, { title: unique('Bad '), type: 'CSV', ...form });
    expect((await add({ multipart: 'true' })).error?.details).toEqual([
      "'filename' is required when 'multipart' is true.",
    ]);
    expect((await add({ multipart: 'true', filename: 'a.csv', text: 'x' })).error?.code).toBe(400);
    expect((await add({ multipart: 'maybe', filename: 'a.csv' })).error?.code).toBe(400);
    // multipart=false is an ordinary add.
    expect(await add({ multipart: 'false', text: 'a,b' })).toMatchObject({ success: true });
  });

  it('replaces an item file through update with multipart=true, keeping the old data until the commit', async () => {
    const first = bytesOf(11, 5000);
    const made = await createItem({
      item: { title: unique('Replaced '), type: 'CSV' },
      file: blob(first),
      params: { fileName: 'before.csv' },
      authentication,
    });
    const id = made.id;
    const at = `/content/users/${user.username}/items/${id}`;
    expect(await post(`${at}/update`, { multipart: 'true', filename: 'after.csv' })).toMatchObject({
      success: true,
    });
    expect(await getItemStatus({ id, owner: user.username, authentication })).toMatchObject({
      status: 'partial',
    });
    const kept = await getItemData(id, { authentication, file: true });
    expect(Buffer.from(await (kept as Blob).arrayBuffer()).equals(Buffer.from(first))).toBe(true);
    const second = bytesOf(12, 7000);
    await addItemPart({ id, partNum: 1, file: blob(second), authentication });
    expect(
      await commitItemUpload({ id, item: { title: 'After', type: 'CSV' }, authentication }),
    ).toMatchObject({
      success: true,
    });
    expect(await getItem(id, { authentication })).toMatchObject({
      name: 'after.csv',
      size: 7000,
      title: 'After',
    });
    const now = await getItemData(id, { authentication, file: true });
    expect(Buffer.from(await (now as Blob).arrayBuffer()).equals(Buffer.from(second))).toBe(true);
  });
});
