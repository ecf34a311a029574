import { describe, expect, it } from 'vitest';
import { LruMap } from '../../../infra/tile-cache-store.js';

describe('LruMap', () => {
  it('evicts the least recently used entry past its weight', () => {
    const m = new LruMap<number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.get('a');
    m.set('c', 3);
    expect([m.get('a'), m.get('b'), m.get('c')]).toEqual([1, undefined, 3]);
  });

  it('bounds the total weight, not the entry count', () => {
    const m = new LruMap<string>(10);
    m.set('a', 'x', 6);
    m.set('b', 'y', 6);
    expect(m.size).toBe(1);
    expect(m.get('b')).toBe('y');
  });

  it('never keeps an entry heavier than the whole budget', () => {
    const m = new LruMap<string>(10);
    m.set('a', 'x', 11);
    expect(m.get('a')).toBeUndefined();
  });

  it('forgets every key under a prefix', () => {
    const m = new LruMap<number>(10);
    m.set('s1/a', 1);
    m.set('s1/b', 2);
    m.set('s2/a', 3);
    m.deletePrefix('s1/');
    expect([m.get('s1/a'), m.get('s1/b'), m.get('s2/a')]).toEqual([undefined, undefined, 3]);
  });
});

describe('LruMap watch', () => {
  it('is gone once its entry is let go, deleted or replaced, and a use through it keeps it as get does', () => {
    const m = new LruMap<number>(2);
    m.set('a', 1);
    m.set('b', 2);
    const a = m.watch('a');
    const b = m.watch('b');
    expect([a?.value, a?.gone, b?.gone]).toEqual([1, false, false]);
    // A use marked through the watch: b, unused, goes when room is made.
    if (a) a.used = true;
    m.set('c', 3);
    expect([a?.gone, b?.gone, m.get('a'), m.get('b')]).toEqual([false, true, 1, undefined]);
    const c = m.watch('c');
    m.delete('c');
    expect(c?.gone).toBe(true);
    m.set('a', 10);
    expect([a?.gone, m.watch('a')?.value, m.watch('a')?.gone]).toEqual([true, 10, false]);
    m.deletePrefix('a');
    expect(m.watch('a')).toBeUndefined();
  });
});

describe('LruMap making room', () => {
  it('lets the oldest unused entry go first, used ones after the rest, and never the entry just set', () => {
    const m = new LruMap<number>(3);
    m.set('a', 1);
    m.set('b', 2);
    m.set('c', 3);
    for (const k of ['a', 'b', 'c']) m.get(k);
    // All used: each has its second chance, and the oldest of them goes.
    m.set('d', 4);
    expect(m.size).toBe(3);
    expect(m.get('a')).toBeUndefined();
    // b and c were passed (unmarked), d is new: the unmarked b is next, then c; d stays through both.
    m.set('e', 5, 2);
    expect([m.get('b'), m.get('c'), m.get('d'), m.get('e')]).toEqual([undefined, undefined, 4, 5]);
  });

  it('keeps the weight within bounds over many uses and sets', () => {
    const m = new LruMap<number>(50);
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    let kept = 0;
    for (let i = 0; i < 5000; i++) {
      const k = `k${next() % 200}`;
      if (next() % 3 === 0) m.set(k, i, 1 + (next() % 5));
      else if (m.get(k) !== undefined) kept++;
      // Never more than the bound allows (every entry weighs at least 1).
      expect(m.size).toBeLessThanOrEqual(50);
    }
    expect(kept).toBeGreaterThan(0);
  });
});
