import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../../infra/object-store.js';
import {
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
});
