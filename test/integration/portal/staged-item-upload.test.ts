/**
 * addItem's file is stored in MinIO while it arrives, under the id the new item then takes
 * (api/upload-routes.ts uploadStaging): the item's data object holds exactly the bytes sent, with the
 * content type the item records, whatever the order of the token and the file; a refused addItem and one
 * whose file goes to another item (overwrite=true) leave no object of theirs behind.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { itemDataKey } from '../../../infra/object-keys.js';
import { createObjectStore, type ObjectStore } from '../../../infra/object-store.js';
import { call, signIn, stack } from '../support/portal-client.js';

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('an addItem upload staged in the object store', () => {
  let token: string;
  let store: ObjectStore;
  const owner = () => stack().admin.username;

  beforeAll(async () => {
    token = await signIn();
    const s = stack();
    store = createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 });
  });

  /** addItem with the form's fields in the given order ('file' marks where the file part goes). */
  async function addItem(
    order: string[],
    bytes: Buffer,
    filename: string,
    extra: Record<string, string> = {},
  ) {
    const fields: Record<string, string> = { f: 'json', token, type: 'CSV', title: filename, ...extra };
    const form = new FormData();
    for (const k of order) {
      if (k === 'file') form.append('file', new Blob([bytes]), filename);
      else form.append(k, fields[k]!);
    }
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    const res = await fetch(`${stack().baseUrl}/sharing/rest/content/users/${owner()}/addItem`, {
      method: 'POST',
      body: form,
    });
    return (await res.json()) as Record<string, any>;
  }

  /** A CSV of its own bytes (its name unique), about 3 MB so that it is sent to MinIO in parts. */
  const csvOf = (rows: number) =>
    Buffer.from(
      `id,name,lon,lat\n${Array.from({ length: rows }, (_, i) => `${i},${randomBytes(8).toString('hex')},-87.6,41.8`).join('\n')}\n`,
    );

  /** The ids under items/ whose item does not exist (read twice, two seconds apart: an addItem in flight
   * in another test file writes its row moments after its file is stored). */
  async function itemlessIds(among: Set<string>): Promise<string[]> {
    const missing = async (ids: string[]) => {
      const out: string[] = [];
      for (const id of ids) {
        const item = await call(`/sharing/rest/content/items/${id}`, { token });
        if (item.json.error) out.push(id);
      }
      return out;
    };
    const ids = async () => {
      const keys = await store.list('items/');
      return [...new Set(keys.map((k) => k.split('/')[1]!))].filter((id) => !among.has(id));
    };
    const first = await missing(await ids());
    if (first.length === 0) return [];
    await new Promise((r) => setTimeout(r, 2_000));
    const still = new Set(await ids());
    return missing(first.filter((id) => still.has(id)));
  }

  for (const order of [
    ['f', 'token', 'type', 'title', 'file'],
    ['file', 'f', 'type', 'title', 'token'],
  ]) {
    it(`stores the file under the new item's id (${order[0] === 'file' ? 'token after the file' : 'token first'})`, async () => {
      const csv = csvOf(40_000);
      const name = `staged-${randomBytes(6).toString('hex')}.csv`;
      const added = await addItem(order, csv, name);
      expect(added.success).toBe(true);
      expect(sha(await store.getBuffer(itemDataKey(added.id)))).toBe(sha(csv));
      const data = await fetch(
        `${stack().baseUrl}/sharing/rest/content/items/${added.id}/data?token=${token}`,
      );
      expect(data.status).toBe(200);
      expect(data.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(sha(Buffer.from(await data.arrayBuffer()))).toBe(sha(csv));
      const item = await call(`/sharing/rest/content/items/${added.id}`, { token });
      expect(item.json.size).toBe(csv.length);
      expect(item.json.name).toBe(name);
    });
  }

  it('leaves nothing of a refused addItem or of one whose file goes to another item', async () => {
    const before = new Set((await store.list('items/')).map((k) => k.split('/')[1]!));
    const name = `taken-${randomBytes(6).toString('hex')}.csv`;
    const first = await addItem(['f', 'token', 'type', 'title', 'file'], csvOf(20_000), name);
    expect(first.success).toBe(true);
    before.add(first.id);
    // The same file name again in the same folder: refused after the whole file arrived.
    const refused = await addItem(['file', 'f', 'type', 'title', 'token'], csvOf(20_000), name);
    expect(refused.error?.code).toBe(409);
    // overwrite=true: the folder's item of that name takes the new file under its own id.
    const replacement = csvOf(25_000);
    const overwritten = await addItem(['file', 'f', 'type', 'title', 'token'], replacement, name, {
      overwrite: 'true',
    });
    expect(overwritten.success).toBe(true);
    expect(overwritten.id).toBe(first.id);
    expect(sha(await store.getBuffer(itemDataKey(first.id)))).toBe(sha(replacement));
    expect(await itemlessIds(before)).toEqual([]);
  });
});
