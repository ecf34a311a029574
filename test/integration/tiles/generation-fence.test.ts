/**
 * The fence between a cache's generations, in the repository, on PostgreSQL and on PGlite alike:
 * writes of one generation run under a share lock of the cache's row, a rebuild's switch to the next
 * generation waits for them, and nothing of the old generation is written after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import {
  beginRebuild,
  findBundle,
  findTileCache,
  insertTileCache,
  recordBundle,
  updateTileCacheAt,
  writeAtGeneration,
} from '../../../db/repositories/tile-caches.js';
import { webMercatorCache } from '../../../lib/tiles/cache-definition.js';
import { createTestDatabase } from '../support/postgres.js';

const bundle = { level: 3, row0: 0, col0: 0, tileCount: 2, bytes: 900 };
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(['postgres', 'pglite'] as const)('the generation fence of tile caches on %s', (kind) => {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  let n = 0;

  beforeAll(async () => {
    if (kind === 'postgres') {
      const db = await createTestDatabase();
      handle = await openDatabase({ databaseUrl: db.url, poolSize: 4 });
      cleanup = async () => {
        await handle.close();
        await db.drop();
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'geoportal-pglite-'));
      handle = await openDatabase({ pgliteDir: dir });
      cleanup = async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      };
    }
    await handle.migrate();
  });
  afterAll(async () => cleanup?.());

  async function newCache(): Promise<string> {
    const id = `cache${kind}${++n}`;
    await insertTileCache(handle.db, {
      serviceItemId: id,
      name: id,
      owner: 'someone',
      serviceType: 'MapServer',
      status: 'ready',
      definition: webMercatorCache({ minLevel: 3, maxLevel: 3 }),
      created: 1,
      modified: 1,
    });
    return id;
  }

  it('runs a write of the current generation and keeps what it records', async () => {
    const id = await newCache();
    const written = await writeAtGeneration(handle.db, id, 1, async (tx) => {
      await recordBundle(tx, id, 1, bundle);
      return 'written';
    });
    expect(written).toBe('written');
    expect(await findBundle(handle.db, id, 1, 3, 0, 0)).toEqual(bundle);
  });

  it('lets a rebuild begin only after a write under way has finished', async () => {
    const id = await newCache();
    const events: string[] = [];
    let finishWrite = () => {};
    const write = writeAtGeneration(handle.db, id, 1, async () => {
      events.push('write started');
      await new Promise<void>((r) => {
        finishWrite = r;
      });
      events.push('write finished');
    });
    while (events.length === 0) await tick(10);
    const rebuild = beginRebuild(handle.db, id, 2).then((generation) => {
      events.push(`rebuild at ${generation}`);
    });
    await tick(300);
    expect(events).toEqual(['write started']);
    finishWrite();
    await Promise.all([write, rebuild]);
    expect(events).toEqual(['write started', 'write finished', 'rebuild at 2']);
    const cache = await findTileCache(handle.db, id);
    expect(cache?.status).toBe('building');
    expect(cache?.generation).toBe(2);
  });

  it('refuses a write of a generation a rebuild has left', async () => {
    const id = await newCache();
    expect(await beginRebuild(handle.db, id, 2)).toBe(2);
    let ran = false;
    const written = await writeAtGeneration(handle.db, id, 1, async () => {
      ran = true;
      return 'written';
    });
    expect(written).toBeUndefined();
    expect(ran).toBe(false);
  });

  it('starts one more generation on each rebuild, so a retried one starts afresh', async () => {
    const id = await newCache();
    expect(await beginRebuild(handle.db, id, 2)).toBe(2);
    expect(await beginRebuild(handle.db, id, 3)).toBe(3);
    expect(await beginRebuild(handle.db, 'no such cache', 3)).toBeUndefined();
  });

  it('changes a cache at a generation only while it is at that generation', async () => {
    const id = await newCache();
    await beginRebuild(handle.db, id, 2);
    expect(await updateTileCacheAt(handle.db, id, 1, { status: 'failed' })).toBe(false);
    expect((await findTileCache(handle.db, id))?.status).toBe('building');
    expect(await updateTileCacheAt(handle.db, id, 2, { status: 'ready' })).toBe(true);
    expect((await findTileCache(handle.db, id))?.status).toBe('ready');
  });
});
