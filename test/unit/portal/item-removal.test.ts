import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../../api/env.js';
import { deleteItemEverywhere, type ItemDeletionHook } from '../../../api/portal/item-removal.js';
import type { ItemRow } from '../../../db/repositories/items.js';

// The order of deletion is the contract other parts rely on: hooks first (while the row still exists),
// then the stored objects, then the row. The store and database here only record the calls made.
function recordingDeps(log: string[], hooks: ItemDeletionHook[]): AppDeps {
  const database = {
    db: {
      // No relationships, so no composite deletions come first.
      select: () => ({ from: () => ({ where: async () => [] }) }),
      delete: () => ({
        where: async () => {
          log.push('row');
        },
      }),
    },
  };
  const store = {
    removePrefix: async (prefix: string) => {
      log.push(`objects ${prefix}`);
      return 1;
    },
  };
  return { database, store, itemDeletionHooks: hooks } as unknown as AppDeps;
}

const item = (id: string) => ({ id, type: id.startsWith('fail') ? 'Broken' : 'Feature Service' }) as ItemRow;

describe('deleteItemEverywhere', () => {
  const log: string[] = [];
  const hook: ItemDeletionHook = async (i) => {
    if (i.type === 'Broken') throw new Error('tables could not be dropped');
    log.push(`hook ${i.id}`);
  };

  it('runs the app deletion hooks, then removes the objects, then the row', async () => {
    log.length = 0;
    await deleteItemEverywhere(recordingDeps(log, [hook]), item('abc'));
    expect(log).toEqual(['hook abc', 'objects items/abc/', 'row']);
  });

  it('leaves the objects and the row alone when a hook fails', async () => {
    log.length = 0;
    await expect(deleteItemEverywhere(recordingDeps(log, [hook]), item('fail1'))).rejects.toThrow(
      /could not be dropped/,
    );
    expect(log).toEqual([]);
  });
});
