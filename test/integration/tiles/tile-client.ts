import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import { createObjectStore } from '../../../infra/object-store.js';
import { bundleKey } from '../../../infra/tile-cache-store.js';
import { BUNDLE_DIM, decodeBundle } from '../../../lib/tiles/compact-bundle.js';
import { lodOf, lonLatToMercator, TILE_SIZE, tileAt, tileBounds } from '../../../lib/tiles/web-mercator.js';
import { upload, waitForJob } from '../publish/publish-client.js';
import { adminToken, stack } from '../support/portal-client.js';

export const tilesFixture = (name: string) =>
  join(import.meta.dirname, '..', '..', 'fixtures', 'tiles-pipeline', name);

/** Publishes a fixture file as a hosted feature service and waits for it. */
export async function publishFeatures(token: string, file: string, filetype: string, name: string) {
  const owner = stack().admin.username;
  const res = await upload(
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype, publishParameters: JSON.stringify({ name }) },
    { name: file, path: tilesFixture(file) },
  );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
  if (status.status !== 'completed') throw new Error(`publish failed: ${JSON.stringify(status)}`);
  return service as { serviceItemId: string; jobId: string };
}

/** Publishes a tile package (.tpkx, .vtpk) as it is and waits for the job; returns the entry and status. */
export async function publishPackage(
  file: string,
  filetype: string,
  name: string,
  path = tilesFixture(file),
) {
  const token = await adminToken();
  const owner = stack().admin.username;
  const res = await upload(
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype, publishParameters: JSON.stringify({ name }) },
    { name: file, path },
  );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  return { service, status: await waitForJob(token, owner, service.serviceItemId, service.jobId) };
}

/** Publishes a Map Service with a tile cache from a hosted feature service and waits for the cache. */
export async function publishTiles(
  token: string,
  featureItemId: string,
  parameters: Record<string, unknown>,
) {
  const owner = stack().admin.username;
  const res = await upload(`/sharing/rest/content/users/${owner}/publish`, {
    token,
    itemid: featureItemId,
    filetype: 'featureService',
    outputType: 'Tiles',
    buildInitialCache: 'true',
    publishParameters: JSON.stringify(parameters),
  });
  const service = res.services?.[0];
  if (!service) throw new Error(`tile publish failed: ${JSON.stringify(res)}`);
  const status = await waitForJob(token, owner, service.serviceItemId, service.jobId, 180_000);
  return { service, status, response: res };
}

/** A tile as a map client reads a private service's tiles: with the token in the query string. */
export const fetchTile = async (
  name: string,
  level: number,
  row: number,
  col: number,
  headers: Record<string, string> = {},
) =>
  fetch(
    `${stack().baseUrl}/rest/services/Hosted/${name}/MapServer/tile/${level}/${row}/${col}?token=${await adminToken()}`,
    { headers },
  );

/** The tile holding a lon/lat point at a level, and the point's pixel in it. */
export function pixelOf(lon: number, lat: number, level: number) {
  const [x, y] = lonLatToMercator(lon, lat);
  const tile = tileAt(x, y, level);
  const [xmin, , , ymax] = tileBounds(tile);
  const res = lodOf(level).resolution;
  return { tile, px: Math.floor((x - xmin) / res), py: Math.floor((ymax - y) / res) };
}

export async function decodePng(bytes: ArrayBuffer) {
  const { data } = await sharp(Buffer.from(bytes)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return (px: number, py: number) => {
    const i = (py * TILE_SIZE + px) * 4;
    return [data[i], data[i + 1], data[i + 2], data[i + 3]];
  };
}

export const readFixture = (name: string) => readFileSync(tilesFixture(name));

/**
 * Every tile of the bundle holding the tile at `lon`, `lat` on `level` (read from the object store) is
 * what the REST tile endpoint of the service `name` serves, byte for byte; the bundle holds at least one.
 */
export async function expectBundleServed(
  serviceItemId: string,
  name: string,
  level: number,
  lon: number,
  lat: number,
): Promise<void> {
  const s = stack();
  const store = createObjectStore({
    ...s.minio,
    endpoint: new URL(s.minio.endpoint),
    consolePort: 0,
  } as never);
  const { tile } = pixelOf(lon, lat, level);
  const tiles = decodeBundle(await store.getBuffer(bundleKey(serviceItemId, level, tile.row, tile.col)));
  expect(tiles.size).toBeGreaterThan(0);
  const row0 = tile.row - (tile.row % BUNDLE_DIM);
  const col0 = tile.col - (tile.col % BUNDLE_DIM);
  for (const [slot, bytes] of tiles) {
    const res = await fetchTile(
      name,
      level,
      row0 + Math.floor(slot / BUNDLE_DIM),
      col0 + (slot % BUNDLE_DIM),
    );
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  }
}
