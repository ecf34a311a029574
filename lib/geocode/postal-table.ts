import type { PostalRecord } from './gazetteer-types.js';
import { postalKey } from './text-normalizer.js';

/** Postal codes by their compact key; a Canadian full code also finds its forward sortation area. */
export class PostalTable {
  private readonly byKey = new Map<string, PostalRecord[]>();

  constructor(postals: readonly PostalRecord[]) {
    this.add(postals);
  }

  get size(): number {
    return this.byKey.size;
  }

  add(postals: readonly PostalRecord[]): void {
    for (const postal of postals) {
      const key = postalKey(postal.postal);
      const list = this.byKey.get(key);
      if (list) list.push(postal);
      else this.byKey.set(key, [postal]);
    }
  }

  /** Records for a postal code as typed: exact, then the ZIP of a ZIP+4, then a Canadian FSA. */
  find(text: string, countryCode?: string): PostalRecord[] {
    const key = postalKey(text);
    const inCountry = (p: PostalRecord) => !countryCode || p.countryCode === countryCode;
    const tries = [key];
    if (/^\d{9}$/.test(key)) tries.push(key.slice(0, 5));
    if (/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(key)) tries.push(key.slice(0, 3));
    for (const k of tries) {
      const found = (this.byKey.get(k) ?? []).filter(inCountry);
      if (found.length > 0) return found;
    }
    return [];
  }
}
