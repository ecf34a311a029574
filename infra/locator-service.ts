/**
 * The process's one embedded locator: the shipped gazetteers (built on first use, ≈ 4.3 s of CPU and 122 MB) plus
 * the address points administrators stored in the database. The API and the publish activities share it,
 * so a process that runs both (the launcher) builds it once.
 */

import type { DatabaseHandle } from '../db/client.js';
import { addressPointsAfter } from '../db/repositories/address-points.js';
import type { Locator } from '../lib/geocode/locator.js';
import { createPackageLocator } from './gazetteer/package-locator.js';
import type { Logger } from './logger.js';

export interface LocatorRequest {
  /** Read the points stored since the last catch-up now, not after the refresh interval. */
  refresh?: boolean;
}

/** The shared locator; `refresh` after storing address points makes them searchable at once. */
export type LocatorSource = (request?: LocatorRequest) => Promise<Locator>;

export interface LocatorServiceOptions {
  database: DatabaseHandle;
  log: Logger;
  now: () => number;
  /** Builds the base locator; the shipped-package locator unless a test passes a small one. */
  build?: () => Promise<Locator>;
  /** Another process (a worker) may store points: catch up with the table at most this often. */
  refreshIntervalMs?: number;
}

const PAGE = 10_000;

export function createLocatorService(options: LocatorServiceOptions): LocatorSource {
  const { database, log, now } = options;
  const build = options.build ?? (() => createPackageLocator());
  const interval = options.refreshIntervalMs ?? 10_000;
  let ready: Promise<Locator> | undefined;
  let lastId = 0;
  let lastRefresh = 0;
  // Catch-ups run one after another, so no point is added twice.
  let catchingUp: Promise<void> = Promise.resolve();

  const catchUp = (locator: Locator): Promise<void> => {
    const work = async () => {
      lastRefresh = now();
      for (;;) {
        const rows = await addressPointsAfter(database.db, lastId, PAGE);
        if (rows.length === 0) return;
        locator.index.addAddressPoints(rows);
        lastId = rows[rows.length - 1].id;
        if (rows.length < PAGE) return;
      }
    };
    const run = catchingUp.then(work, work);
    catchingUp = run.catch(() => {});
    return run;
  };

  const start = async (): Promise<Locator> => {
    const started = now();
    const locator = await build();
    await catchUp(locator);
    log.info('locator ready', { ms: now() - started, addressPoints: locator.index.points.size });
    return locator;
  };

  return async (request = {}) => {
    ready ??= start().catch((e) => {
      ready = undefined;
      throw e;
    });
    const locator = await ready;
    if (request.refresh) await catchUp(locator);
    else if (now() - lastRefresh >= interval) {
      // A periodic catch-up that fails must not fail the geocoding that triggered it.
      await catchUp(locator).catch((e) => log.warn('address points catch-up failed', { err: e }));
    }
    return locator;
  };
}
