import type { DatabaseHandle } from '../../db/client.js';
import type { ObjectStore } from '../../infra/object-store.js';

/** What the tile activities use; the worker passes the real ones in. */
export interface TileDeps {
  database: DatabaseHandle;
  store: ObjectStore;
  now: () => number;
}
