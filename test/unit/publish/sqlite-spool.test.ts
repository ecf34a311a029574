import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../../infra/object-store.js';
import {
  copyObjectWithKept,
  isSqliteFile,
  KEPT_UPLOAD_PREFIX,
  keepSpooled,
  keepUploadedCopy,
  keepUploadsForThisProcess,
  takeSpooled,
} from '../../../infra/readers/sqlite-spool.js';

/** A store of one object whose bytes and ETag the test changes, counting the reads of it. */
function oneObjectStore(initial: string) {
  const state = { bytes: initial, etag: 'e1', reads: 0 };
  const store = {
    getStream: async () => {
      state.reads++;
      return Readable.from([Buffer.from(state.bytes)]);
    },
    stat: async () => ({ size: Buffer.byteLength(state.bytes), etag: state.etag, lastModified: new Date(0) }),
  } as unknown as ObjectStore;
  return { store, state };
}

describe('the temporary copy of a GeoPackage shared by planning and the load', () => {
  it('a kept copy is taken by the next step without reading the object again', async () => {
    const { store, state } = oneObjectStore('first bytes');
    const planning = await takeSpooled(store, 'k1');
    expect(readFileSync(planning.path, 'utf8')).toBe('first bytes');
    await keepSpooled('k1', planning);
    const load = await takeSpooled(store, 'k1');
    expect(load.path).toBe(planning.path);
    expect(state.reads).toBe(1);
    // Taken: a second taker copies the object itself.
    const other = await takeSpooled(store, 'k1');
    expect(other.path).not.toBe(load.path);
    expect(state.reads).toBe(2);
    await load.remove();
    await other.remove();
    expect(existsSync(load.path)).toBe(false);
  });

  it('an object replaced since it was copied is copied again, and the stale copy removed', async () => {
    const { store, state } = oneObjectStore('old bytes');
    const planning = await takeSpooled(store, 'k2');
    await keepSpooled('k2', planning);
    state.bytes = 'new bytes, longer';
    state.etag = 'e2';
    const load = await takeSpooled(store, 'k2');
    expect(readFileSync(load.path, 'utf8')).toBe('new bytes, longer');
    expect(existsSync(planning.path)).toBe(false);
    expect(state.reads).toBe(2);
    await load.remove();
  });

  it('keeping a newer copy of a key removes the older one', async () => {
    const { store } = oneObjectStore('bytes');
    const a = await takeSpooled(store, 'k3');
    const b = await takeSpooled(store, 'k3');
    await keepSpooled('k3', a);
    await keepSpooled('k3', b);
    expect(existsSync(a.path)).toBe(false);
    const taken = await takeSpooled(store, 'k3');
    expect(taken.path).toBe(b.path);
    await taken.remove();
  });

  it("keeps an upload's own file for planning in a process that runs a worker, past the request's removal", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kept-upload-'));
    try {
      const upload = (bytes: string) => {
        const path = join(dir, `upload-${bytes.length}`);
        writeFileSync(path, bytes);
        return path;
      };
      const { store, state } = oneObjectStore('uploaded bytes');
      // No worker in this process (an API alone): nothing is kept, planning copies the object.
      await keepUploadedCopy(store, 'k5', upload('uploaded bytes'));
      const copied = await takeSpooled(store, 'k5');
      expect(state.reads).toBe(1);
      await copied.remove();

      keepUploadsForThisProcess();
      const first = upload('uploaded bytes');
      await keepUploadedCopy(store, 'k5', first);
      rmSync(first); // the request ends and removes its file
      const planning = await takeSpooled(store, 'k5');
      expect(readFileSync(planning.path, 'utf8')).toBe('uploaded bytes');
      expect(state.reads).toBe(1);
      expect(dirname(planning.path).startsWith(join(dir, KEPT_UPLOAD_PREFIX))).toBe(true);
      await planning.remove();
      expect(existsSync(dirname(planning.path))).toBe(false);

      // The object replaced after the upload was kept: planning copies the object's new bytes.
      const second = upload('uploaded bytes');
      await keepUploadedCopy(store, 'k6', second);
      state.bytes = 'replaced bytes!';
      state.etag = 'e9';
      const fresh = await takeSpooled(store, 'k6');
      expect(readFileSync(fresh.path, 'utf8')).toBe('replaced bytes!');
      expect(state.reads).toBe(2);
      await fresh.remove();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("hands an item's kept file over to a publish's copy of the object, only while it is the kept bytes", async () => {
    keepUploadsForThisProcess();
    const dir = mkdtempSync(join(tmpdir(), 'kept-item-'));
    try {
      // Objects by key with their bytes and ETags. A copy gets an ETag of its own, as MinIO gives a
      // server-side copy of an object stored in parts; `during` runs while a copy is under way.
      const objects = new Map<string, { bytes: string; etag: string }>();
      let reads = 0;
      let copies = 0;
      let during: () => void = () => {};
      const store = {
        getStream: async (key: string) => {
          reads++;
          return Readable.from([Buffer.from(objects.get(key)?.bytes ?? '')]);
        },
        stat: async (key: string) => {
          const o = objects.get(key);
          return o && { size: Buffer.byteLength(o.bytes), etag: o.etag, lastModified: new Date(0) };
        },
        copy: async (from: string, to: string) => {
          const o = objects.get(from);
          if (o) objects.set(to, { bytes: o.bytes, etag: `copy-${++copies}` });
          during();
        },
      } as unknown as ObjectStore;
      const upload = (name: string, bytes: string) => {
        const path = join(dir, name);
        writeFileSync(path, bytes);
        return path;
      };
      const keptDirs = () => readdirSync(dir).filter((n) => n.startsWith(KEPT_UPLOAD_PREFIX));

      // addItem kept the file; analyze takes it (wasKept) and keeps it again; the publish copies the
      // object to its job's key with the kept copy; planning reads it without reading either object.
      objects.set('item-a', { bytes: 'item bytes', etag: 'a1' });
      await keepUploadedCopy(store, 'item-a', upload('a', 'item bytes'));
      const analyze = await takeSpooled(store, 'item-a');
      expect(analyze.wasKept).toBe(true);
      await keepSpooled('item-a', analyze);
      await copyObjectWithKept(store, 'item-a', 'job-a');
      expect(objects.get('job-a')?.bytes).toBe('item bytes');
      const planning = await takeSpooled(store, 'job-a');
      expect(planning.wasKept).toBe(true);
      expect(planning.path).toBe(analyze.path);
      expect(readFileSync(planning.path, 'utf8')).toBe('item bytes');
      expect(reads).toBe(0);
      // Carried, not shared: the item's key holds nothing kept any more.
      const again = await takeSpooled(store, 'item-a');
      expect(again.wasKept).toBe(false);
      expect(reads).toBe(1);
      await again.remove();
      await planning.remove();
      expect(keptDirs()).toEqual([]);

      // The item's file replaced after it was kept: the job's copy holds the new bytes, nothing is carried
      // and the stale kept file is removed.
      objects.set('item-b', { bytes: 'first file', etag: 'b1' });
      await keepUploadedCopy(store, 'item-b', upload('b', 'first file'));
      objects.set('item-b', { bytes: 'second file!', etag: 'b2' });
      await copyObjectWithKept(store, 'item-b', 'job-b');
      expect(keptDirs()).toEqual([]);
      const fresh = await takeSpooled(store, 'job-b');
      expect(fresh.wasKept).toBe(false);
      expect(readFileSync(fresh.path, 'utf8')).toBe('second file!');
      await fresh.remove();

      // Replaced while the copy was under way: the copied bytes may be either file, nothing is carried.
      objects.set('item-c', { bytes: 'item c', etag: 'c1' });
      await keepUploadedCopy(store, 'item-c', upload('c', 'item c'));
      during = () => objects.set('item-c', { bytes: 'item c, replaced', etag: 'c2' });
      await copyObjectWithKept(store, 'item-c', 'job-c');
      during = () => {};
      expect(keptDirs()).toEqual([]);
      const other = await takeSpooled(store, 'job-c');
      expect(other.wasKept).toBe(false);
      await other.remove();

      // An object that was never kept is copied as before.
      objects.set('item-d', { bytes: 'plain', etag: 'd1' });
      await copyObjectWithKept(store, 'item-d', 'job-d');
      expect(objects.get('job-d')?.bytes).toBe('plain');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells an SQLite database by its header', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-head-'));
    try {
      const db = join(dir, 'a.gpkg');
      // The first 16 bytes of every SQLite file, then a page's worth of anything.
      writeFileSync(db, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4080)]));
      expect(await isSqliteFile(db)).toBe(true);
      const csv = join(dir, 'a.csv');
      writeFileSync(csv, 'SQLite format 3,x\n1,2\n');
      expect(await isSqliteFile(csv)).toBe(false);
      const short = join(dir, 'short');
      writeFileSync(short, 'SQLite');
      expect(await isSqliteFile(short)).toBe(false);
      expect(await isSqliteFile(join(dir, 'missing'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
