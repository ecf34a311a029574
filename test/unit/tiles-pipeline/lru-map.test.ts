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
