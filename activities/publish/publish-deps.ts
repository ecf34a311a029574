import type { DatabaseHandle } from '../../db/client.js';
import type { ObjectStore } from '../../infra/object-store.js';
import type { OutboundFetch } from '../../infra/outbound-fetch.js';
import type { BoundaryLookup } from '../../lib/geocode/boundary-lookup.js';
import type { Geocoder } from './geocoder.js';
import type { ParseLimits } from './parse-thread.js';

/** What the publish activities use; the worker passes the real ones in. */
export interface PublishDeps {
  database: DatabaseHandle;
  store: ObjectStore;
  now: () => number;
  geocoder: Geocoder;
  /** Fetches URLs given in requests (a geocodeServiceUrl), only from hosts the administrator allowed. */
  outbound: OutboundFetch;
  /** Lookup layers' boundaries; the process's shared lookup (infra/boundary-service.ts) by default. */
  boundaries?: () => Promise<BoundaryLookup>;
  /** Whole-file parsing and archive limits (the configuration's); DEFAULT_PARSE_LIMITS when absent. */
  parseLimits?: ParseLimits;
  /**
   * Rows a part of a large table holds on PostgreSQL (load-layer.ts partBoundsFor; 250,000 when absent):
   * each part's indexes are built while the load fills the next.
   */
  partRows?: number;
}
