import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { countAddressPoints, insertAddressPoints } from '../../../db/repositories/address-points.js';
import { createLocatorService } from '../../../infra/locator-service.js';
import { createLogger } from '../../../infra/logger.js';
import type { AddressPointRecord } from '../../../lib/geocode/gazetteer-types.js';
import type { Locator } from '../../../lib/geocode/locator.js';
import { createMiniLocator } from './mini-locator.js';

const quiet = createLogger('error', {}, () => {});

const point = (number: string, lon: number): AddressPointRecord => ({
  lon,
  lat: 41.8819,
  number,
  street: 'W Adams St',
  city: 'Chicago',
  region: 'IL',
  postcode: '60603',
  countryCode: 'US',
});

const bestAt = (locator: Locator, singleLine: string) => {
  const [best] = locator.findAddressCandidates({ singleLine });
  return best?.addrType === 'PointAddress' ? [best.lon, best.lat] : undefined;
};

// Embedded PGlite with the product's migrations: the same table the API and the workers read.
describe('the shared locator service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-service-'));
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: dir });
    await database.migrate();
    await insertAddressPoints(database.db, [point('10', -87.63)], 'first.csv', 1);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds the locator once for callers that ask at the same time', async () => {
    let builds = 0;
    const locator = createLocatorService({
      database,
      log: quiet,
      now: () => 0,
      build: () => {
        builds++;
        return createMiniLocator();
      },
    });
    const [a, b] = await Promise.all([locator(), locator()]);
    expect(a).toBe(b);
    expect(builds).toBe(1);
  });

  it('adds the address points stored before it was built', async () => {
    const locator = await createLocatorService({
      database,
      log: quiet,
      now: () => 0,
      build: createMiniLocator,
    })();
    expect(bestAt(locator, '10 W Adams St, Chicago, IL')).toEqual([-87.63, 41.8819]);
  });

  it('a refresh request finds points stored since, and adds none twice', async () => {
    const service = createLocatorService({ database, log: quiet, now: () => 0, build: createMiniLocator });
    const before = (await service()).index.points.size;
    await insertAddressPoints(database.db, [point('20', -87.631)], 'second.csv', 2);
    const after = await service({ refresh: true });
    expect(bestAt(after, '20 W Adams St, Chicago, IL')).toEqual([-87.631, 41.8819]);
    expect(after.index.points.size).toBe(before + 1);
    await service({ refresh: true });
    expect(after.index.points.size).toBe(before + 1);
  });

  it('without a refresh request, catches up with other processes once the interval has passed', async () => {
    let clock = 0;
    const service = createLocatorService({
      database,
      log: quiet,
      now: () => clock,
      build: createMiniLocator,
      refreshIntervalMs: 10_000,
    });
    const locator = await service();
    await insertAddressPoints(database.db, [point('30', -87.632)], 'third.csv', 3);
    clock = 5_000;
    await service();
    expect(bestAt(locator, '30 W Adams St, Chicago, IL')).toBeUndefined();
    clock = 10_000;
    await service();
    expect(bestAt(locator, '30 W Adams St, Chicago, IL')).toEqual([-87.632, 41.8819]);
    expect(await countAddressPoints(database.db)).toBe(3);
  });

  it('a failed build is retried by the next caller', async () => {
    let attempts = 0;
    const service = createLocatorService({
      database,
      log: quiet,
      now: () => 0,
      build: () => (++attempts === 1 ? Promise.reject(new Error('disk')) : createMiniLocator()),
    });
    await expect(service()).rejects.toThrow('disk');
    expect((await service()).info.serviceName).toBe('World');
  });
});
