// Every activity group, built from real dependencies passed in by the worker.
import type { LocatorSource } from '../infra/locator-service.js';
import { createOutboundFetch, type OutboundFetch } from '../infra/outbound-fetch.js';
import { createAppendActivities } from './append/append-activities.js';
import { heartbeatingActivities } from './heartbeat.js';
import { createAnalyzeActivities } from './publish/analyze-source.js';
import { createGazetteerGeocoder } from './publish/gazetteer-geocoder.js';
import { createPublishActivities } from './publish/publish-activities.js';
import type { PublishDeps } from './publish/publish-deps.js';
import { createSelfCheckActivities, type SelfCheckDeps } from './self-check.js';
import { createServiceJobActivities } from './service-jobs/service-job-activities.js';
import { createTileActivities } from './tiles/tile-activities.js';
import type { TileDeps } from './tiles/tile-deps.js';
import { createTilePackageActivities } from './tiles/tile-package-activities.js';

/**
 * `locator`: the process's shared locator (the runtime's); the publish geocoder runs on it. `outbound`:
 * the configured outbound fetch (infra/temporal.ts passes it); without one no URL is fetched at all.
 */
export type ActivityDeps = SelfCheckDeps &
  Pick<TileDeps, 'maxTiles' | 'drawThreads'> &
  Partial<Pick<PublishDeps, 'geocoder' | 'parseLimits' | 'partRows'>> & {
    locator?: LocatorSource;
    outbound?: OutboundFetch;
  };

const FETCH_NOTHING = createOutboundFetch({
  allowedHosts: [],
  connectTimeoutMs: 1,
  readTimeoutMs: 1,
  maxResponseBytes: 0,
});

/** Every activity heartbeats from a timer while it runs (see heartbeat.ts). */
export function createActivities(deps: ActivityDeps) {
  return heartbeatingActivities({
    ...createSelfCheckActivities(deps),
    ...createPublishActivities({
      ...deps,
      geocoder: deps.geocoder ?? createGazetteerGeocoder(deps.locator),
      outbound: deps.outbound ?? FETCH_NOTHING,
    }),
    ...createAppendActivities(deps),
    ...createServiceJobActivities(deps),
    ...createTileActivities(deps),
    ...createTilePackageActivities(deps),
    ...createAnalyzeActivities(deps),
  });
}

export type Activities = ReturnType<typeof createActivities>;
