import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { fixture, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { adminToken } from '../support/portal-client.js';
import { publishPackage } from '../tiles/tile-client.js';

/** The libraries of the fixture with usable coordinates, read from the CSV itself. */
export const libraries = readFileSync(fixture('chicago-libraries.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(','))
  .map(([name, code, , , , lat, lon]) => ({ name: name!, code: code!, lat: Number(lat), lon: Number(lon) }))
  .filter((l) => Number.isFinite(l.lat) && Number.isFinite(l.lon));

/** red.tpkx holds two tiles, both at level 1 (row 0 col 0, row 1 col 1). */
export const RED_TILES_AT_LEVEL_1 = 2;

/** A private feature service of the libraries and a private tile service of red.tpkx. */
export async function publishForBrowsers(base: string) {
  const token = await adminToken();
  const features = uniqueName(`${base}_libraries`);
  const analyzed = await upload(
    '/sharing/rest/content/features/analyze',
    { token, filetype: 'csv' },
    { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
  );
  const published = await publishFile(token, 'chicago-libraries.csv', 'csv', {
    ...analyzed.publishParameters,
    name: features,
  });
  expect(published.status.status).toBe('completed');
  const tiles = uniqueName(`${base}_red`);
  const { status } = await publishPackage('red.tpkx', 'tilePackage', tiles);
  expect(status.status).toBe('completed');
  return { token, features, tiles };
}
