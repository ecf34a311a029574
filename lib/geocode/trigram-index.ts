import { allowedEdits, boundedEditDistance } from './edit-distance.js';
import { pushTo } from './multimap.js';

export interface FuzzyHit {
  /** Position of the key in the array the index was built from. */
  id: number;
  distance: number;
}

const trigramsOf = (key: string): string[] => {
  const padded = `  ${key} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return [...grams];
};

/**
 * Trigram postings over a fixed list of keys, to find keys within a few edits of a query without
 * scanning them all. One edit changes at most three trigrams, so a key within k edits shares at least
 * |trigrams(query)| − 3k of them; only those keys get the exact (bounded) edit-distance check.
 */
export class TrigramIndex {
  private readonly postings = new Map<string, Uint32Array>();
  private readonly counts: Uint16Array;

  constructor(private readonly keys: readonly string[]) {
    const lists = new Map<string, number[]>();
    keys.forEach((key, id) => {
      for (const gram of trigramsOf(key)) {
        pushTo(lists, gram, id);
      }
    });
    for (const [gram, list] of lists) this.postings.set(gram, Uint32Array.from(list));
    this.counts = new Uint16Array(keys.length);
  }

  /** Keys within the edits allowed for the query's length, nearest first. */
  search(query: string, maxEdits = allowedEdits(query.length)): FuzzyHit[] {
    if (maxEdits === 0) return [];
    const grams = trigramsOf(query);
    const needed = Math.max(1, grams.length - 3 * maxEdits);
    const touched: number[] = [];
    for (const gram of grams) {
      const list = this.postings.get(gram);
      if (!list) continue;
      for (const id of list) {
        if (this.counts[id] === 0) touched.push(id);
        this.counts[id]++;
      }
    }
    const hits: FuzzyHit[] = [];
    for (const id of touched) {
      if (this.counts[id] >= needed) {
        const distance = boundedEditDistance(query, this.keys[id], maxEdits);
        if (distance <= maxEdits) hits.push({ id, distance });
      }
      this.counts[id] = 0;
    }
    return hits.sort((a, b) => a.distance - b.distance);
  }
}
