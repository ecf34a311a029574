import { describe, expect, it } from 'vitest';
import { allowedEdits, boundedEditDistance } from '../../../lib/geocode/edit-distance.js';
import { foldText, nameKey, postalKey } from '../../../lib/geocode/text-normalizer.js';
import { TrigramIndex } from '../../../lib/geocode/trigram-index.js';

describe('text normalization', () => {
  it('folds case and accents so Zürich and ZURICH compare equal', () => {
    expect(foldText('Zürich')).toBe('zurich');
    expect(foldText('ZURICH')).toBe('zurich');
  });

  it('folds letters that decomposition leaves whole (ß, ø, æ, ł)', () => {
    expect(foldText('Straße')).toBe('strasse');
    expect(foldText('Tromsø')).toBe('tromso');
    expect(foldText('Łódź')).toBe('lodz');
  });

  it('turns punctuation into single spaces and drops apostrophes', () => {
    expect(foldText("  Provence-Alpes-Côte d'Azur ")).toBe('provence alpes cote dazur');
  });

  it('gives Street, St. and Saint the same key, so abbreviations match both ways', () => {
    expect(nameKey('123 Main Street')).toBe(nameKey('123 main st.'));
    expect(nameKey('Saint-Louis')).toBe(nameKey('St. Louis'));
  });

  it('spells directions and avenue types canonically', () => {
    expect(nameKey('North Michigan Avenue')).toBe('n michigan ave');
  });

  it('compacts postal codes to upper case without spaces or dashes', () => {
    expect(postalKey('m5v 3l9')).toBe('M5V3L9');
    expect(postalKey('60601-1234')).toBe('606011234');
  });
});

describe('bounded edit distance', () => {
  it('counts an adjacent transposition as one edit', () => {
    expect(boundedEditDistance('chciago', 'chicago', 2)).toBe(1);
  });

  it('counts a dropped letter as one edit', () => {
    expect(boundedEditDistance('chicgo', 'chicago', 2)).toBe(1);
  });

  it('stops at the bound and returns bound + 1', () => {
    expect(boundedEditDistance('paris', 'london', 2)).toBe(3);
  });

  it('allows no edits in very short names and more in long ones', () => {
    expect(allowedEdits(3)).toBe(0);
    expect(allowedEdits(7)).toBe(1);
    expect(allowedEdits(12)).toBe(2);
  });
});

describe('trigram index', () => {
  const keys = ['chicago', 'chico', 'cicero', 'springfield'];
  const index = new TrigramIndex(keys);

  it('finds a misspelt key among others, nearest first', () => {
    const hits = index.search('chicgo');
    expect(keys[hits[0].id]).toBe('chicago');
    expect(hits[0].distance).toBe(1);
  });

  it('finds nothing for a name far from every key', () => {
    expect(index.search('london')).toEqual([]);
  });

  it('finds a long name with two slips', () => {
    expect(index.search('sprngfeld').map((h) => keys[h.id])).toEqual(['springfield']);
  });
});
