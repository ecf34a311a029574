/**
 * The lookups every FeatureServer request makes before its query (the token's grant, the service by name
 * with its layers, the caller's access to the service), remembered for a short time so that a map
 * asking query after query does not pay four statements for each (lib/ttl-memo.ts: concurrent callers
 * share one load, an answer in use is reloaded in the background before it expires).
 *
 * How current they are:
 * - A change made through this process (any request that may write: see `mayWrite`) forgets every
 *   remembered answer when it is done, so the next request sees it: sharing, deleting an item,
 *   revoking a token, signing out, a user disabled or given another role, a service definition changed.
 * - A change made by another process (a second API process, a worker finishing an overwrite or an
 *   asynchronous job) is seen within `LOOKUP_TTL_MS`, and at once by a client that followed the job:
 *   reporting a job ended forgets its service (`forgetService`).
 * - Only found answers are remembered: an unknown token, or a service not found or not ready, is looked
 *   up again on every request, so a service is usable as soon as its publish job says completed.
 * - A remembered grant is still refused once its token expires, and its referer or address binding is
 *   checked on every request.
 */
import type { Database } from '../db/client.js';
import {
  findServiceByName,
  type HostedLayerRow,
  type HostedServiceRow,
  listLayers,
} from '../db/repositories/services.js';
import { createTtlMemo } from '../lib/ttl-memo.js';
import { findTokenGrant, type TokenGrant } from './auth.js';
import { createServiceAuthorizer, type ServiceAuthorizer } from './services/service-access.js';

/** How long a remembered lookup answers before it is looked up again (the bound for other processes). */
export const LOOKUP_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

/** A ready hosted service and its layers, in layer id order. */
export interface ReadyService {
  service: HostedServiceRow;
  layers: HostedLayerRow[];
}

export interface RequestLookups {
  /** The token's grant while it is valid at `now`, else undefined. */
  grant(token: string): Promise<TokenGrant | undefined>;
  /** The ready service of that name (any case) with its layers, else undefined. */
  readyService(name: string): Promise<ReadyService | undefined>;
  /** Whether the viewer may use the service (lib/access rules), remembered per service and viewer. */
  authorize: ServiceAuthorizer;
  /** Forgets everything remembered: called after a request of this process that may have changed it. */
  clear(): void;
  /**
   * Forgets the service (and any service lookup still loading): called when this process reports a job
   * on it ended, whoever ran the job, so a client that followed the job reads what the job left.
   */
  forgetService(serviceItemId: string): void;
}

export function createRequestLookups(db: Database, now: () => number, ttlMs = LOOKUP_TTL_MS): RequestLookups {
  const grants = createTtlMemo<TokenGrant | null>({
    ttlMs,
    maxEntries: MAX_ENTRIES,
    now,
    keep: (g) => g !== null,
  });
  const services = createTtlMemo<ReadyService | null>({
    ttlMs,
    maxEntries: MAX_ENTRIES,
    now,
    keep: (s) => s !== null,
  });
  const authorize = createServiceAuthorizer(ttlMs, MAX_ENTRIES, now);
  return {
    async grant(token) {
      const grant = await grants.get(token, async () => (await findTokenGrant(db, token, now())) ?? null);
      return grant && grant.expires > now() ? grant : undefined;
    },
    async readyService(name) {
      const found = await services.get(name.toLowerCase(), async () => {
        const service = await findServiceByName(db, name);
        if (service?.status !== 'ready') return null;
        return { service, layers: await listLayers(db, service.serviceItemId) };
      });
      return found ?? undefined;
    },
    authorize,
    clear() {
      grants.clear();
      services.clear();
      authorize.clear();
    },
    forgetService(serviceItemId) {
      services.forget((_, settled) => !settled || settled.value?.service.serviceItemId === serviceItemId);
    },
  };
}

/**
 * Whether a request may change what the lookups remember. Reads are GET, HEAD and OPTIONS, and the POSTs
 * of the read operations of the services (queries, identify, export, SOAP requests);
 * everything else (the portal's and the admin's POSTs, edits) counts as a possible write.
 */
export function mayWrite(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  // The SOAP and WMS endpoints (`…/services/…` outside `rest/`) only read.
  if (path.includes('/services/') && !path.includes('/rest/')) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !READ_OPERATIONS.has(last);
}

/** The last path segments of operations that only read, asked by POST when their parameters are long. */
const READ_OPERATIONS = new Set([
  'query',
  'queryRelatedRecords',
  'queryAttachments',
  'identify',
  'find',
  'export',
  'generateRenderer',
]);
