import { hostname } from 'node:os';
import type { DatabaseHandle } from '../db/client.js';
import { selfChecks } from '../db/schema/self-checks.js';
import type { ObjectStore } from '../infra/object-store.js';

export interface SelfCheckDeps {
  database: DatabaseHandle;
  store: ObjectStore;
  now: () => number;
}

export function createSelfCheckActivities({ database, store, now }: SelfCheckDeps) {
  return {
    /** Deterministic key: a retry overwrites the same object. */
    async writeSelfCheckObject(checkId: string): Promise<string> {
      const key = `system/self-check/${checkId}.json`;
      const body = JSON.stringify({ checkId, writtenAt: now() });
      await store.put(key, Buffer.from(body), undefined, 'application/json');
      return key;
    },
    async recordSelfCheck(checkId: string, objectKey: string): Promise<string> {
      const workerIdentity = `${process.pid}@${hostname()}`;
      await database.db
        .insert(selfChecks)
        .values({ id: checkId, objectKey, workerIdentity, created: now() })
        .onConflictDoNothing();
      return workerIdentity;
    },
  };
}

export type SelfCheckActivities = ReturnType<typeof createSelfCheckActivities>;
