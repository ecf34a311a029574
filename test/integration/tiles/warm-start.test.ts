/**
 * A restarted API process starts with the tiles its predecessor held (infra/tile-memory-record.ts): the
 * production entry (api/main.ts) as a process of its own, asked for tiles, stopped, and started again.
 * That the second process read them before it listened is seen by removing the cache's objects once it
 * listens: the tiles the first process served are still answered, byte for byte, and a tile it never
 * served is not.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { TILE_MEMORY_PREFIX } from '../../../infra/tile-memory-record.js';
import { uniqueName } from '../publish/publish-client.js';
import { minioClient } from '../support/minio-client.js';
import { adminToken, stack } from '../support/portal-client.js';
import { freePort } from '../support/ports.js';
import { exitOf, productEnv, startProcess, untilAnswering } from '../support/product-process.js';
import { publishPackage } from './tile-client.js';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

async function startApi(port: number) {
  const api = startProcess(
    'api/main.ts',
    productEnv({ PORT: String(port), API_PROCESSES: '1', LOG_LEVEL: 'info', TILE_WARM_START_SECONDS: '20' }),
  );
  children.push(api.child);
  await untilAnswering(port);
  return api;
}

async function stop(child: ChildProcess) {
  const exited = exitOf(child);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
}

async function objectsUnder(prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const o of minioClient().listObjectsV2(stack().minio.bucket, prefix, true)) {
    if (o.name) names.push(o.name);
  }
  return names;
}

describe('the tile memory carried over a restart of the API process', () => {
  it('answers the tiles the process before it served, read before it listens', async () => {
    const name = uniqueName('warm_red');
    const { service, status } = await publishPackage('red.tpkx', 'tilePackage', name);
    expect(status.status).toBe('completed');
    const serviceItemId = service.serviceItemId as string;
    const token = await adminToken();
    const tile = async (port: number, path: string) => {
      const res = await fetch(
        `http://127.0.0.1:${port}/rest/services/Hosted/${name}/MapServer/tile/${path}?token=${token}`,
      );
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
    };

    const port = await freePort();
    const first = await startApi(port);
    const served = await tile(port, '1/1/1');
    expect(served.status).toBe(200);
    expect([...served.bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // "PNG"
    await stop(first.child);

    // The stopped process's record names the bundle it read.
    const records = await Promise.all(
      (await objectsUnder(TILE_MEMORY_PREFIX)).map(async (key) => {
        const stream = await minioClient().getObject(stack().minio.bucket, key);
        const chunks: Buffer[] = [];
        for await (const c of stream) chunks.push(c as Buffer);
        return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { held: Record<string, unknown>[] };
      }),
    );
    const ours = records.flatMap((r) => r.held).filter((h) => h.serviceItemId === serviceItemId);
    expect(ours).toEqual([
      {
        serviceItemId,
        generation: 1,
        storage: 'compactV2',
        extension: 'png',
        level: 1,
        row: 0,
        col: 0,
        bytes: expect.any(Number),
        slots: expect.any(Array),
      },
    ]);
    // Tile 1/1/1 is slot 1 × 128 + 1 of the bundle at 0, 0 (its read-ahead may have brought the others).
    const runs = ours[0].slots as [number, number][];
    expect(runs.some(([first, last]) => first <= 129 && 129 <= last)).toBe(true);
    expect(ours[0].bytes).toBeGreaterThanOrEqual(served.bytes.length);

    const second = await startApi(port);
    expect(second.output()).toContain('tile memory carried over');
    // Nothing of the cache is left to read: what is answered now was read before the process listened.
    const cacheObjects = await objectsUnder(`caches/${serviceItemId}/`);
    expect(cacheObjects.some((k) => k.endsWith('.bundle'))).toBe(true);
    await minioClient().removeObjects(stack().minio.bucket, cacheObjects);
    const again = await tile(port, '1/1/1');
    expect(again.status).toBe(200);
    expect(again.bytes.equals(served.bytes)).toBe(true);
    // Level 0's bundle was never served, so never recorded: gone with the objects.
    expect((await tile(port, '0/0/0')).status).toBe(404);
    await stop(second.child);
  }, 180_000);
});
