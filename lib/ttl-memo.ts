/**
 * Answers remembered for a short time: each key's answer is loaded at most once per `ttlMs`, concurrent
 * callers share the one load, and the settled answer can be read synchronously while fresh (the lean tile
 * path answers from memory without awaiting). The clock is passed in, so tests move time themselves.
 */
export interface TtlMemoOptions<V> {
  ttlMs: number;
  /** When this many keys are held, all are forgotten before a new one is added (bounded memory, no LRU). */
  maxEntries: number;
  now: () => number;
  /** Whether a loaded answer is remembered; one that is not is loaded again by the next caller. */
  keep?: (value: V) => boolean;
}

export interface TtlMemo<V> {
  /** The answer for `key`: the remembered one while fresh, else `load()`'s (a failed load is not kept). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** The settled answer while fresh, synchronously; undefined when there is none yet. */
  peek(key: string): { value: V } | undefined;
}

interface Entry<V> {
  until: number;
  answer: Promise<V>;
  settled?: { value: V };
}

export function createTtlMemo<V>({ ttlMs, maxEntries, now, keep }: TtlMemoOptions<V>): TtlMemo<V> {
  const entries = new Map<string, Entry<V>>();
  const fresh = (key: string): Entry<V> | undefined => {
    const entry = entries.get(key);
    return entry && entry.until > now() ? entry : undefined;
  };
  const forget = (key: string, entry: Entry<V>) => {
    if (entries.get(key) === entry) entries.delete(key);
  };
  return {
    get(key, load) {
      const hit = fresh(key);
      if (hit) return hit.answer;
      if (entries.size >= maxEntries) entries.clear();
      const entry: Entry<V> = { until: now() + ttlMs, answer: load() };
      entry.answer.then(
        (value) => {
          if (keep && !keep(value)) forget(key, entry);
          else entry.settled = { value };
        },
        () => forget(key, entry),
      );
      entries.set(key, entry);
      return entry.answer;
    },
    peek(key) {
      return fresh(key)?.settled;
    },
  };
}
