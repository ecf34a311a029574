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
