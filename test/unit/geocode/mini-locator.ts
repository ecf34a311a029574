import { readFile } from 'node:fs/promises';
import { loadAddressPointsCsv } from '../../../infra/gazetteer/address-points-csv.js';
import { GazetteerIndex } from '../../../lib/geocode/gazetteer-index.js';
import type { GazetteerData } from '../../../lib/geocode/gazetteer-types.js';
import { createLocator, type Locator, type LocatorOptions } from '../../../lib/geocode/locator.js';

const fixture = (name: string) => new URL(`../../fixtures/geocode/${name}`, import.meta.url);

/** A small locator from test fixtures: a handful of real places plus Chicago address points. */
export async function createMiniLocator(options: LocatorOptions = {}): Promise<Locator> {
  const data = JSON.parse(await readFile(fixture('mini-gazetteer.json'), 'utf8')) as GazetteerData;
  const index = new GazetteerIndex(data);
  await loadAddressPointsCsv(index, await readFile(fixture('openaddresses-chicago.csv'), 'utf8'), {
    countryCode: 'US',
  });
  return createLocator(index, { serviceName: 'World', ...options }, ['US', 'FR', 'CH', 'CA']);
}

export const fixtureText = (name: string): Promise<string> => readFile(fixture(name), 'utf8');
