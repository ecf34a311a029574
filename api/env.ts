import type { Client as TemporalClient } from '@temporalio/client';
import type { DatabaseHandle } from '../db/client.js';
import type { HostedServiceRow } from '../db/repositories/services.js';
import type { UserRow } from '../db/repositories/users.js';
import type { Config } from '../infra/config.js';
import type { LocatorSource } from '../infra/locator-service.js';
import type { Logger } from '../infra/logger.js';
import type { ObjectStore } from '../infra/object-store.js';
import type { PasswordHasher } from '../infra/password-hasher.js';
import type { ServedTiles } from '../infra/served-tiles.js';
import type { TokenGrant } from './auth.js';
import type { RequestParams } from './params.js';
import type { ItemDeletionHook } from './portal/item-removal.js';
import type { ReadyService, RequestLookups } from './request-lookups.js';

/** Everything a router needs, passed in by the entry point; routers keep no module-level state. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  store: ObjectStore;
  temporal: () => Promise<TemporalClient>;
  log: Logger;
  now: () => number;
  portalId: string;
  portalName: string;
  /** The process's shared embedded locator (GeocodeServer and publish geocoding). */
  locator: LocatorSource;
  /** The process's one tile reader and cache-row memo, shared by every tile route and SOAP. */
  tiles: ServedTiles;
  /** Run before any item is deleted (see api/item-deletion-hooks.ts). */
  itemDeletionHooks: readonly ItemDeletionHook[];
  /** Hashes and checks passwords with bounded concurrency (sign-in, password changes, createUser). */
  passwords: PasswordHasher;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    params: RequestParams;
    user: UserRow | undefined;
    /** The token the request authenticated with, so it can be passed on (e.g. to federated servers). */
    token: string | undefined;
    /** The ready hosted service a FeatureServer request addresses, found once by the router's access check. */
    hostedService: HostedServiceRow | undefined;
    /** That service's layers, when the access check found them with it (request-lookups.ts). */
    hostedLayers: ReadyService['layers'] | undefined;
    /** The app's remembered token, service and access lookups (request-lookups.ts). */
    lookups: RequestLookups;
    /** What that token grants (its expiry, its binding), when the request carries a valid one. */
    grant: TokenGrant | undefined;
  };
}
