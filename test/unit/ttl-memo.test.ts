import { describe, expect, it } from 'vitest';
import { createTtlMemo } from '../../lib/ttl-memo.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createTtlMemo', () => {
  it('loads a key once while its answer is fresh and again after the ttl', async () => {
    let clock = 0;
    let loads = 0;
    const memo = createTtlMemo<number>({ ttlMs: 100, maxEntries: 10, now: () => clock });
    const load = async () => ++loads;
    expect(await memo.get('a', load)).toBe(1);
    clock = 99;
    expect(await memo.get('a', load)).toBe(1);
    clock = 100;
    expect(await memo.get('a', load)).toBe(2);
  });

  it('lets concurrent callers share one load', async () => {
    let loads = 0;
    const memo = createTtlMemo<string>({ ttlMs: 100, maxEntries: 10, now: () => 0 });
    const load = async () => {
      loads++;
      return 'x';
    };
    expect(await Promise.all([memo.get('k', load), memo.get('k', load)])).toEqual(['x', 'x']);
    expect(loads).toBe(1);
  });

  it('reads a settled answer synchronously, and nothing before it settles or after it expires', async () => {
    let clock = 0;
    const memo = createTtlMemo<string | null>({ ttlMs: 10, maxEntries: 10, now: () => clock });
    const pending = memo.get('k', async () => null);
    expect(memo.peek('k')).toBeUndefined();
    await pending;
    await settle();
    expect(memo.peek('k')).toEqual({ value: null });
    clock = 10;
    expect(memo.peek('k')).toBeUndefined();
  });

  it('does not keep a failed load or an answer `keep` refuses', async () => {
    let loads = 0;
    const memo = createTtlMemo<number | undefined>({
      ttlMs: 100,
      maxEntries: 10,
      now: () => 0,
      keep: (v) => v !== undefined,
    });
    await expect(memo.get('f', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await settle();
    expect(await memo.get('f', async () => 7)).toBe(7);
    await memo.get('u', async () => {
      loads++;
      return undefined;
    });
    await settle();
    await memo.get('u', async () => {
      loads++;
      return undefined;
    });
    expect(loads).toBe(2);
  });

  it('forgets every key when full rather than growing', async () => {
    let loads = 0;
    const memo = createTtlMemo<number>({ ttlMs: 100, maxEntries: 2, now: () => 0 });
    const load = async () => ++loads;
    await memo.get('a', load);
    await memo.get('b', load);
    await memo.get('c', load); // clears a and b
    await memo.get('a', load);
    expect(loads).toBe(4);
  });
});

describe('createTtlMemo refresh ahead of expiry', () => {
  it('reloads a key in use in the background and keeps answering at once meanwhile', async () => {
    let clock = 0;
    let loads = 0;
    let release: (() => void) | undefined;
    const memo = createTtlMemo<number>({ ttlMs: 100, maxEntries: 10, now: () => clock });
    const load = () =>
      new Promise<number>((resolve) => {
        const n = ++loads;
        if (n === 1) resolve(n);
        else release = () => resolve(n);
      });
    expect(await memo.get('a', load)).toBe(1);
    await settle();
    clock = 49;
    expect(memo.peek('a')).toEqual({ value: 1 });
    expect(loads).toBe(1); // younger than half the ttl: no reload
    clock = 50;
    expect(memo.peek('a')).toEqual({ value: 1 }); // starts the reload, still answers
    expect(loads).toBe(2);
    clock = 99;
    expect(memo.peek('a')).toEqual({ value: 1 });
    expect(await memo.get('a', load)).toBe(1);
    expect(loads).toBe(2); // one reload, however many uses
    release?.();
    await settle();
    expect(memo.peek('a')).toEqual({ value: 2 });
    // The new answer counts from when its load began (50): fresh until 150, reloaded from 100.
    clock = 149;
    expect(memo.peek('a')).toEqual({ value: 2 });
    expect(loads).toBe(3);
  });

  it('never answers past the ttl when the reload has not settled', async () => {
    let clock = 0;
    let loads = 0;
    const memo = createTtlMemo<string>({ ttlMs: 100, maxEntries: 10, now: () => clock });
    // The first load answers; its reload (the same function) never settles.
    const load = () => (++loads === 1 ? Promise.resolve('old') : new Promise<string>(() => {}));
    await memo.get('k', load);
    await settle();
    clock = 60;
    let calls = 0;
    const other = () => {
      calls++;
      return Promise.resolve('other');
    };
    expect(await memo.get('k', other)).toBe('old');
    expect(loads).toBe(2);
    expect(calls).toBe(0); // the reload reuses the entry's own load, not this caller's
    clock = 100;
    expect(memo.peek('k')).toBeUndefined();
    expect(await memo.get('k', async () => 'new')).toBe('new');
  });

  it('keeps the old answer when a reload fails, and drops the key when `keep` refuses the new one', async () => {
    let clock = 0;
    let next: () => Promise<number | undefined> = async () => 1;
    const memo = createTtlMemo<number | undefined>({
      ttlMs: 100,
      maxEntries: 10,
      now: () => clock,
      keep: (v) => v !== undefined,
    });
    await memo.get('k', () => next());
    await settle();
    next = () => Promise.reject(new Error('down'));
    clock = 50;
    expect(memo.peek('k')).toEqual({ value: 1 });
    await settle();
    clock = 60;
    expect(memo.peek('k')).toEqual({ value: 1 }); // a second reload starts after the failure
    next = async () => undefined;
    await settle();
    clock = 70;
    expect(memo.peek('k')).toEqual({ value: 1 });
    await settle();
    expect(memo.peek('k')).toBeUndefined(); // gone: the next get loads afresh
  });
});

describe('createTtlMemo reloads that find the same answer', () => {
  /** A memo of rows by key whose every load makes a new object from `current`, reloaded from age 50. */
  function rowsMemo(options: { same?: (a: { v: number }, b: { v: number }) => boolean } = {}) {
    let clock = 0;
    const current = { v: 1 };
    const memo = createTtlMemo<{ v: number }>({ ttlMs: 100, maxEntries: 10, now: () => clock, ...options });
    const load = async () => ({ ...current });
    const reloadAt = async (at: number) => {
      clock = at;
      memo.peek('k'); // starts the reload
      await settle();
      return memo.peek('k')?.value;
    };
    return { memo, load, current, reloadAt };
  }

  it('keeps the very object it held when a reload loads an equal one, and takes a changed one', async () => {
    const { memo, load, current, reloadAt } = rowsMemo();
    const first = await memo.get('k', load);
    await settle();
    // Equal: the held object stays, so what was made from it (checked by identity) stays good.
    expect(await reloadAt(50)).toBe(first);
    expect(await reloadAt(100)).toBe(first);
    // The reloads still renew the answer's age: fresh at 149, past the first load's ttl, and reloaded at 150.
    expect(await reloadAt(149)).toBe(first);
    current.v = 2;
    const changed = await reloadAt(150);
    expect(changed).toEqual({ v: 2 });
    expect(changed).not.toBe(first);
  });

  it('takes every reload as new when `same` says so', async () => {
    const { memo, load, reloadAt } = rowsMemo({ same: () => false });
    const first = await memo.get('k', load);
    await settle();
    const reloaded = await reloadAt(50);
    expect(reloaded).toEqual(first);
    expect(reloaded).not.toBe(first);
  });
});

describe('createTtlMemo watch', () => {
  /** A memo whose every load makes a new object from `current`. */
  function watched() {
    const state = { clock: 0, loads: 0 };
    const current = { v: 1 };
    const memo = createTtlMemo<{ v: number }>({ ttlMs: 100, maxEntries: 3, now: () => state.clock });
    const load = async () => {
      state.loads++;
      return { ...current };
    };
    return { memo, load, current, state };
  }

  it('gives nothing before the answer settles, then the answer and a check that holds while it is fresh', async () => {
    const { memo, load, state } = watched();
    const pending = memo.get('k', load);
    expect(memo.watch('k')).toBeUndefined();
    const first = await pending;
    await settle();
    const watch = memo.watch('k');
    expect(watch?.value).toBe(first);
    state.clock = 49;
    expect(watch?.holds(state.clock)).toBe(true);
    expect(state.loads).toBe(1);
    // Half the ttl: the check starts the reload, as peek would, and holds meanwhile.
    state.clock = 50;
    expect(watch?.holds(state.clock)).toBe(true);
    expect(state.loads).toBe(2);
    await settle();
    // The reload found the same answer: the watch goes on holding, counted from the reload (50 + 100).
    state.clock = 149;
    expect(watch?.holds(state.clock)).toBe(true);
    expect(memo.peek('k')?.value).toBe(first);
  });

  it('fails once the answer is past its ttl, reloaded as a changed one, forgotten or cleared', async () => {
    const { memo, load, current, state } = watched();
    await memo.get('k', load);
    await settle();
    // Past the ttl with no reload settled (none was started: nothing used the key after age 50).
    const stale = memo.watch('k');
    state.clock = 100;
    expect(stale?.holds(state.clock)).toBe(false);

    await memo.get('k', load);
    await settle();
    const before = memo.watch('k');
    current.v = 2;
    state.clock = 150;
    expect(before?.holds(state.clock)).toBe(true); // starts the reload
    await settle();
    expect(before?.holds(state.clock)).toBe(false);
    expect(memo.watch('k')?.value).toEqual({ v: 2 });

    const forgotten = memo.watch('k');
    memo.forget((key) => key === 'k');
    expect(forgotten?.holds(state.clock)).toBe(false);

    await memo.get('k', load);
    await settle();
    const cleared = memo.watch('k');
    memo.clear();
    expect(cleared?.holds(state.clock)).toBe(false);

    // Full: adding a fourth key forgets the three held, and their watches fail.
    for (const key of ['a', 'b', 'c']) await memo.get(key, load);
    await settle();
    const full = memo.watch('a');
    expect(full?.holds(state.clock)).toBe(true);
    await memo.get('d', load);
    expect(full?.holds(state.clock)).toBe(false);
  });
});

describe('createTtlMemo after a quiet spell', () => {
  /** A memo whose every load makes a new object from `current` (or fails, or hangs, as `next` says). */
  function quiet() {
    const state = { clock: 0, loads: 0 };
    const current = { v: 1 };
    let next: () => Promise<{ v: number } | undefined> = async () => ({ ...current });
    const memo = createTtlMemo<{ v: number } | undefined>({
      ttlMs: 100,
      maxEntries: 10,
      now: () => state.clock,
      keep: (v) => v !== undefined,
    });
    const load = () => {
      state.loads++;
      return next();
    };
    const setNext = (f: typeof next) => {
      next = f;
    };
    return { memo, load, current, state, setNext };
  }

  it('takes the held answer back when the load after its ttl finds the same one, and its watches hold again', async () => {
    const { memo, load, state } = quiet();
    const first = await memo.get('k', load);
    await settle();
    const watch = memo.watch('k');
    // Unused past the ttl: nothing reloaded it, so it is not answered until loaded again.
    state.clock = 130;
    expect(watch?.holds(state.clock)).toBe(false);
    expect(memo.peek('k')).toBeUndefined();
    const again = await memo.get('k', load);
    expect(state.loads).toBe(2);
    // The very object held before, and the watch made on it holds again, counted from the load (130).
    expect(again).toBe(first);
    expect(watch?.holds(state.clock)).toBe(true);
    state.clock = 229;
    expect(watch?.holds(state.clock)).toBe(true);
    expect(memo.peek('k')?.value).toBe(first);
    state.clock = 230;
    expect(watch?.holds(state.clock)).toBe(false);
  });

  it('ends the held answer when that load finds a changed one, fails, or gives one `keep` refuses', async () => {
    const changed = quiet();
    const first = await changed.memo.get('k', changed.load);
    await settle();
    const before = changed.memo.watch('k');
    changed.current.v = 2;
    changed.state.clock = 100;
    const after = await changed.memo.get('k', changed.load);
    expect(after).toEqual({ v: 2 });
    expect(after).not.toBe(first);
    expect(before?.holds(changed.state.clock)).toBe(false);
    expect(changed.memo.peek('k')?.value).toBe(after);

    const failing = quiet();
    await failing.memo.get('k', failing.load);
    await settle();
    const held = failing.memo.watch('k');
    failing.state.clock = 100;
    failing.setNext(() => Promise.reject(new Error('down')));
    await expect(failing.memo.get('k', failing.load)).rejects.toThrow('down');
    await settle();
    expect(held?.holds(failing.state.clock)).toBe(false);
    expect(failing.memo.peek('k')).toBeUndefined();
    failing.setNext(async () => ({ v: 1 }));
    // Nothing is kept of the failed load: the next get loads again, and a new watch holds.
    expect(await failing.memo.get('k', failing.load)).toEqual({ v: 1 });
    expect(failing.state.loads).toBe(3);
    expect(held?.holds(failing.state.clock)).toBe(false);
    expect(failing.memo.watch('k')?.holds(failing.state.clock)).toBe(true);

    const refused = quiet();
    await refused.memo.get('k', refused.load);
    await settle();
    const kept = refused.memo.watch('k');
    refused.state.clock = 100;
    refused.setNext(async () => undefined);
    expect(await refused.memo.get('k', refused.load)).toBeUndefined();
    await settle();
    expect(kept?.holds(refused.state.clock)).toBe(false);
    expect(refused.memo.peek('k')).toBeUndefined();
  });

  it('lets the callers of that load share it, and ignores a reload from before it that settles after', async () => {
    const { memo, load, state, setNext } = quiet();
    const first = await memo.get('k', load);
    await settle();
    // A reload ahead of expiry starts at 50 and hangs …
    let release!: (v: { v: number }) => void;
    setNext(() => new Promise((r) => (release = r)));
    state.clock = 50;
    expect(memo.peek('k')?.value).toBe(first);
    expect(state.loads).toBe(2);
    // … past the ttl: the next callers load again, once for all of them, and take the held answer back.
    state.clock = 100;
    setNext(async () => ({ v: 1 }));
    const both = await Promise.all([memo.get('k', load), memo.get('k', load)]);
    expect(both).toEqual([first, first]);
    expect(state.loads).toBe(3);
    // The reload from 50 settles with another answer: older than the one taken back, it changes nothing.
    release({ v: 9 });
    await settle();
    expect(memo.peek('k')?.value).toBe(first);
    // And reloads ahead of expiry go on from the load at 100.
    setNext(async () => ({ v: 3 }));
    state.clock = 150;
    expect(memo.peek('k')?.value).toBe(first);
    await settle();
    expect(state.loads).toBe(4);
    expect(memo.peek('k')?.value).toEqual({ v: 3 });
  });

  it('after clear or forget, a load running for an expired answer is not remembered', async () => {
    for (const drop of [
      (memo: ReturnType<typeof quiet>['memo']) => memo.clear(),
      (memo: ReturnType<typeof quiet>['memo']) => memo.forget((key) => key === 'k'),
    ]) {
      const { memo, load, state, setNext } = quiet();
      await memo.get('k', load);
      await settle();
      const watch = memo.watch('k');
      state.clock = 100;
      let release!: (v: { v: number }) => void;
      setNext(() => new Promise((r) => (release = r)));
      const running = memo.get('k', load);
      drop(memo);
      release({ v: 1 });
      expect(await running).toEqual({ v: 1 });
      await settle();
      expect(watch?.holds(state.clock)).toBe(false);
      expect(memo.peek('k')).toBeUndefined();
    }
  });
});

describe('createTtlMemo clear', () => {
  it('forgets every answer, and a load running when it was cleared is not remembered', async () => {
    let loads = 0;
    const memo = createTtlMemo<number>({ ttlMs: 100, maxEntries: 10, now: () => 0 });
    expect(await memo.get('a', async () => ++loads)).toBe(1);
    memo.clear();
    expect(memo.peek('a')).toBeUndefined();
    let release!: (v: number) => void;
    const running = memo.get('b', () => new Promise<number>((r) => (release = r)));
    memo.clear();
    release(7);
    expect(await running).toBe(7);
    expect(memo.peek('b')).toBeUndefined();
    expect(await memo.get('a', async () => ++loads)).toBe(2);
  });
});

describe('createTtlMemo forget', () => {
  it('forgets the settled answers it picks and every load still running, and keeps the rest', async () => {
    const memo = createTtlMemo<string>({ ttlMs: 100, maxEntries: 10, now: () => 0 });
    await memo.get('a', async () => 'svc-1');
    await memo.get('b', async () => 'svc-2');
    let release!: (v: string) => void;
    const running = memo.get('c', () => new Promise<string>((r) => (release = r)));
    const seen: Array<[string, string | undefined]> = [];
    memo.forget((key, settled) => {
      seen.push([key, settled?.value]);
      return !settled || settled.value === 'svc-1';
    });
    expect(seen).toEqual([
      ['a', 'svc-1'],
      ['b', 'svc-2'],
      ['c', undefined],
    ]);
    release('old');
    expect(await running).toBe('old');
    expect(memo.peek('a')).toBeUndefined();
    expect(memo.peek('b')).toEqual({ value: 'svc-2' });
    // The load that was running when it was forgotten is not remembered: the next get loads again.
    expect(memo.peek('c')).toBeUndefined();
    expect(await memo.get('c', async () => 'new')).toBe('new');
  });
});
