/**
 * Answers remembered for a short time: each key's answer is loaded at most once per `ttlMs`, concurrent
 * callers share the one load, and the settled answer can be read synchronously while fresh (the lean tile
 * path answers from memory without awaiting). The clock is passed in, so tests move time themselves.
 *
 * A key in use is refreshed ahead of its expiry: once its answer is older than `refreshAfterMs`, the next
 * `get` or `peek` starts one reload in the background and goes on answering from the remembered answer,
 * which the reload replaces when it settles. So a key asked for all the time never expires under its
 * callers, who would otherwise all wait on the same reload every `ttlMs` (one stalled request per waiting
 * caller, the tail of the tile benchmark). An answer is still never used past `ttlMs` after its load began.
 *
 * A key left unused past `ttlMs` is loaded again by the next `get`, which waits for it; when that load
 * finds the same answer, the held answer is taken back (the very object, fresh from the new load), so
 * what callers made from it goes on serving after a quiet spell instead of being made anew: the socket
 * front's replays of every tile of a map, which a client returning after a few idle seconds would
 * otherwise all rebuild at once (bench/README "Tiles", session 41).
 */
import { isDeepStrictEqual } from 'node:util';
export interface TtlMemoOptions<V> {
  ttlMs: number;
  /** When this many keys are held, all are forgotten before a new one is added (bounded memory, no LRU). */
  maxEntries: number;
  now: () => number;
  /** Whether a loaded answer is remembered; one that is not is loaded again by the next caller. */
  keep?: (value: V) => boolean;
  /** Age after which a use starts a background reload; default half of `ttlMs`. `ttlMs` or more: never. */
  refreshAfterMs?: number;
  /**
   * Whether a reload's answer is the same as the one held (default: deeply equal). The same answer keeps
   * the held one, the very object, so what callers made from it and check by identity (the socket
   * front's replays, the tile heads) stays good across reloads that find nothing changed.
   */
  same?: (held: V, loaded: V) => boolean;
}

export interface TtlMemo<V> {
  /** The answer for `key`: the remembered one while fresh, else `load()`'s (a failed load is not kept). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** The settled answer while fresh, synchronously; undefined when there is none yet. */
  peek(key: string): { value: V } | undefined;
  /**
   * `peek` for a caller that asks again and again (the socket front's replays): the settled answer and a
   * check, without a map read, that it is still the key's answer and fresh (starting a background reload
   * as `peek` would). Undefined when there is no settled answer.
   */
  watch(key: string): MemoWatch<V> | undefined;
  /** Forgets every answer (a change this process made): the next `get` of any key loads again. */
  clear(): void;
  /**
   * Forgets the answers `matches` picks (given the key and the settled answer, or undefined while it
   * loads): the next `get` of those keys loads again.
   */
  forget(matches: (key: string, settled: { value: V } | undefined) => boolean): void;
}

/** A settled answer as `watch` gave it. */
export interface MemoWatch<V> {
  readonly value: V;
  /**
   * True while `value` is still the key's answer and fresh at `at` (the memo's clock, read once by a
   * caller that makes several checks): what `peek` would give then.
   */
  holds(at: number): boolean;
}

interface Entry<V> {
  /** When the load began (or a reload that found the same answer): used until `loadedAt + ttlMs`. */
  loadedAt: number;
  answer: Promise<V>;
  settled?: { value: V };
  /** The load that made it, for a refresh ahead of expiry. */
  load: () => Promise<V>;
  /** The background reload of this entry under way, if any; the settling of any other is ignored. */
  refreshing?: Entry<V>;
  /** Set once the entry is no longer the key's (forgotten, replaced, cleared): its watches fail. */
  gone: boolean;
}

export function createTtlMemo<V>({
  ttlMs,
  maxEntries,
  now,
  keep,
  refreshAfterMs = ttlMs / 2,
  same = isDeepStrictEqual,
}: TtlMemoOptions<V>): TtlMemo<V> {
  const entries = new Map<string, Entry<V>>();
  const forget = (key: string, entry: Entry<V>) => {
    if (entries.get(key) === entry) {
      entries.delete(key);
      entry.gone = true;
    }
  };
  const forgetAll = () => {
    for (const entry of entries.values()) entry.gone = true;
    entries.clear();
  };

  /** Starts `load` as the key's entry; the entry counts from now. */
  const start = (key: string, load: () => Promise<V>, at: number): Entry<V> => {
    const entry: Entry<V> = { loadedAt: at, answer: load(), load, gone: false };
    entry.answer.then(
      (value) => {
        if (keep && !keep(value)) forget(key, entry);
        else entry.settled = { value };
      },
      () => forget(key, entry),
    );
    return entry;
  };

  /** A reload in the background: the settled entry keeps answering until the new one has settled. */
  const refresh = (key: string, entry: Entry<V>, at: number) => {
    let next: Entry<V>;
    try {
      next = start(key, entry.load, at);
    } catch {
      return;
    }
    entry.refreshing = next;
    next.answer.then(
      () => {
        // Forgotten, replaced, or taken back by a later load meanwhile: that load's answer stands.
        if (entries.get(key) !== entry || entry.refreshing !== next) return;
        entry.refreshing = undefined;
        if (next.settled && entry.settled && same(entry.settled.value, next.settled.value)) {
          // The same answer: the held entry stays the key's, counted from the reload's start, so its
          // very value (and the watches on it) go on.
          entry.loadedAt = next.loadedAt;
          return;
        }
        entry.gone = true;
        if (next.settled) entries.set(key, next);
        else entries.delete(key); // the new answer is not to be kept (`keep` refused it)
      },
      () => {
        // Keep the old answer until it expires; the next use after that loads again.
        if (entry.refreshing === next) entry.refreshing = undefined;
      },
    );
  };

  /**
   * `get`'s load of a key whose settled answer `expired` is past its ttl, as the key's new entry (callers
   * meanwhile share it). An answer `same` as the expired one takes the expired entry back, counted from
   * this load's start, and is answered as its very value; any other answer, or a failure, ends it.
   */
  const reload = (
    key: string,
    expired: Entry<V> & { settled: { value: V } },
    load: () => Promise<V>,
    at: number,
  ) => {
    const entry = start(key, load, at);
    entry.answer = entry.answer.then(
      (value) => {
        if (entries.get(key) === entry && entry.settled && same(expired.settled.value, value)) {
          entry.gone = true;
          expired.loadedAt = entry.loadedAt;
          expired.refreshing = undefined;
          entries.set(key, expired);
          return expired.settled.value;
        }
        expired.gone = true;
        return value;
      },
      (error: unknown) => {
        expired.gone = true;
        throw error;
      },
    );
    return entry;
  };

  /** Whether `entry` (the key's) is fresh at `at`, starting a refresh when it is settled and old enough. */
  const stillFresh = (key: string, entry: Entry<V>, at: number): boolean => {
    const age = at - entry.loadedAt;
    if (age >= ttlMs) return false;
    if (age >= refreshAfterMs && entry.settled && !entry.refreshing) refresh(key, entry, at);
    return true;
  };

  /** The key's entry while fresh, starting a refresh when it is settled and old enough. */
  const fresh = (key: string): Entry<V> | undefined => {
    const entry = entries.get(key);
    return entry && stillFresh(key, entry, now()) ? entry : undefined;
  };

  return {
    get(key, load) {
      const hit = fresh(key);
      if (hit) return hit.answer;
      const expired = entries.get(key);
      if (expired?.settled) {
        const entry = reload(key, expired as Entry<V> & { settled: { value: V } }, load, now());
        entries.set(key, entry);
        return entry.answer;
      }
      if (entries.size >= maxEntries) forgetAll();
      const entry = start(key, load, now());
      if (expired) expired.gone = true;
      entries.set(key, entry);
      return entry.answer;
    },
    peek(key) {
      return fresh(key)?.settled;
    },
    watch(key) {
      const entry = fresh(key);
      const settled = entry?.settled;
      if (!entry || !settled) return undefined;
      return { value: settled.value, holds: (at) => !entry.gone && stillFresh(key, entry, at) };
    },
    clear() {
      // A reload running now settles into an entry no longer in the map, so it is dropped (`refresh`).
      forgetAll();
    },
    forget(matches) {
      for (const [key, entry] of [...entries]) if (matches(key, entry.settled)) forget(key, entry);
    },
  };
}
