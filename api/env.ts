import type { Client as TemporalClient } from '@temporalio/client';
import type { DatabaseHandle } from '../db/client.js';
import type { UserRow } from '../db/repositories/users.js';
import type { Config } from '../infra/config.js';
import type { LocatorSource } from '../infra/locator-service.js';
import type { Logger } from '../infra/logger.js';
import type { ObjectStore } from '../infra/object-store.js';
import type { PasswordHasher } from '../infra/password-hasher.js';
import type { TokenGrant } from './auth.js';
import type { RequestParams } from './params.js';

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
    /** What that token grants (its expiry, its binding), when the request carries a valid one. */
    grant: TokenGrant | undefined;
  };
}
