import type { DatabaseHandle } from '../../db/client.js';
import type { ObjectStore } from '../../infra/object-store.js';
import type { BoundaryLookup } from '../../lib/geocode/boundary-lookup.js';
import type { Geocoder } from './geocoder.js';
import type { ParseLimits } from './parse-thread.js';

/** What the publish activities use; the worker passes the real ones in. */
export interface PublishDeps {
  database: DatabaseHandle;
  store: ObjectStore;
  now: () => number;
  geocoder: Geocoder;
  /** Lookup layers' boundaries; the process's shared lookup (infra/boundary-service.ts) by default. */
  boundaries?: () => Promise<BoundaryLookup>;
  /** Whole-file parsing and archive limits (the configuration's); DEFAULT_PARSE_LIMITS when absent. */
  parseLimits?: ParseLimits;
}
