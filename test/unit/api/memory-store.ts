/** Test support: an object store held in a Map, with what the analyze route and activity use. */
import type { ObjectStore } from '../../../infra/object-store.js';

/** The object store as a Map: only what analyze uses. */
export function memoryStore(objects: Map<string, Buffer>): ObjectStore {
  const get = (key: string) => {
    const b = objects.get(key);
    if (!b) throw Object.assign(new Error(`no object ${key}`), { code: 'NoSuchKey' });
    return b;
  };
  return {
    bucket: 'memory',
    async put(key, body) {
      if (typeof body === 'string' || Buffer.isBuffer(body)) objects.set(key, Buffer.from(body));
      else {
        const chunks: Buffer[] = [];
        for await (const c of body) chunks.push(c as Buffer);
        objects.set(key, Buffer.concat(chunks));
      }
    },
    getBuffer: async (key) => get(key),
    getRange: async (key, offset, length) => get(key).subarray(offset, offset + length),
    remove: async (key) => {
      objects.delete(key);
    },
  } as Partial<ObjectStore> as ObjectStore;
}

/**
 * A stand-in for the Temporal client that runs the real analyze activity in process over `store`, as
 * the worker would: for router tests of routes that analyze (the upload routes' limits, say).
 */
export async function analyzeInProcess(store: ObjectStore) {
  const { createAnalyzeActivities } = await import('../../../activities/publish/analyze-source.js');
  const activities = createAnalyzeActivities({ store });
  return async () => ({
    workflow: {
      start: async (
        _name: string,
        options: { args: [{ analysis: Parameters<typeof activities.analyzeSource>[0] }] },
      ) => ({
        result: () => activities.analyzeSource(options.args[0].analysis),
        terminate: async () => {},
      }),
    },
  });
}
