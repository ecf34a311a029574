import { allowedEdits, boundedEditDistance } from './edit-distance.js';

export interface FuzzyHit {
  /** Position of the key in the array the index was built from. */
  id: number;
  distance: number;
}

const CHAR_RANGE = 0x10000;

/** Distinct trigrams of a padded key, each packed into one number (three UTF-16 units). */
function trigramCodes(key: string): number[] {
  const padded = `  ${key} `;
  const codes: number[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) {
    const code =
      (padded.charCodeAt(i) * CHAR_RANGE + padded.charCodeAt(i + 1)) * CHAR_RANGE + padded.charCodeAt(i + 2);
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

/**
 * Trigram postings over a fixed list of keys, to find keys within a few edits of a query without
 * scanning them all. One edit (a transposition of two letters included) changes at most four trigrams,
 * so a key within k edits shares at least |trigrams(query)| − 4k of them; only those keys get the exact
 * (bounded) edit-distance check.
 * Postings sit in one flat array (offsets per trigram) rather than a million small arrays.
 */
export class TrigramIndex {
  private readonly slotOfCode = new Map<number, number>();
  private readonly offsets: Uint32Array;
  private readonly postings: Uint32Array;
  private readonly counts: Uint16Array;
  /** Key lengths (capped at 255), to skip keys too long or short to be within reach before counting. */
  private readonly lengths: Uint8Array;

  constructor(private readonly keys: readonly string[]) {
    const sizes: number[] = [];
    for (const key of keys) {
      for (const code of trigramCodes(key)) {
        const slot = this.slotOfCode.get(code);
        if (slot === undefined) {
          this.slotOfCode.set(code, sizes.length);
          sizes.push(1);
        } else sizes[slot]++;
      }
    }
    this.offsets = new Uint32Array(sizes.length + 1);
    for (let i = 0; i < sizes.length; i++) this.offsets[i + 1] = this.offsets[i] + sizes[i];
    this.postings = new Uint32Array(this.offsets[sizes.length]);
    const fill = this.offsets.slice(0, sizes.length);
    keys.forEach((key, id) => {
      for (const code of trigramCodes(key)) {
        const slot = this.slotOfCode.get(code) as number;
        this.postings[fill[slot]++] = id;
      }
    });
    this.counts = new Uint16Array(keys.length);
    this.lengths = new Uint8Array(keys.length);
    keys.forEach((key, id) => {
      this.lengths[id] = Math.min(key.length, 255);
    });
  }

  /** Keys within the edits allowed for the query's length, nearest first. */
  search(query: string, maxEdits = allowedEdits(query.length)): FuzzyHit[] {
    if (maxEdits === 0) return [];
    const codes = trigramCodes(query);
    const needed = Math.max(1, codes.length - 4 * maxEdits);
    // Rarest trigrams first: a key sharing `needed` of them must hold one of the first
    // (present − needed + 1), so only those postings are scanned; the rest are probed per candidate.
    const slots = codes
      .map((code) => this.slotOfCode.get(code))
      .filter((slot): slot is number => slot !== undefined)
      .sort((a, b) => this.sizeOf(a) - this.sizeOf(b));
    if (slots.length < needed) return [];
    const prefix = slots.length - needed + 1;
    const touched: number[] = [];
    const minLength = query.length - maxEdits;
    const maxLength = query.length + maxEdits;
    for (const slot of slots.slice(0, prefix)) {
      for (let p = this.offsets[slot]; p < this.offsets[slot + 1]; p++) {
        const id = this.postings[p];
        const length = this.lengths[id];
        if (length < minLength || (length > maxLength && length < 255)) continue;
        if (this.counts[id] === 0) touched.push(id);
        this.counts[id]++;
      }
    }
    const hits: FuzzyHit[] = [];
    for (const id of touched) {
      let shared = this.counts[id];
      this.counts[id] = 0;
      for (let i = prefix; i < slots.length && shared < needed; i++) {
        if (shared + (slots.length - i) < needed) break;
        if (this.holds(slots[i], id)) shared++;
      }
      if (shared < needed || Math.abs(this.keys[id].length - query.length) > maxEdits) continue;
      const distance = boundedEditDistance(query, this.keys[id], maxEdits);
      if (distance <= maxEdits) hits.push({ id, distance });
    }
    return hits.sort((a, b) => a.distance - b.distance);
  }

  private sizeOf(slot: number): number {
    return this.offsets[slot + 1] - this.offsets[slot];
  }

  /** Whether a trigram's postings (ascending ids) hold a key: binary search. */
  private holds(slot: number, id: number): boolean {
    let lo = this.offsets[slot];
    let hi = this.offsets[slot + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = this.postings[mid];
      if (value === id) return true;
      if (value < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}
