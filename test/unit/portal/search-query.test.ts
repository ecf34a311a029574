import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../../api/portal/search-query.js';

describe('parseSearchQuery', () => {
  it('splits free words from field terms', () => {
    const q = parseSearchQuery('rivers owner:ann type:CSV');
    expect(q.words).toEqual(['rivers']);
    expect(Object.fromEntries(q.fields)).toEqual({ owner: ['ann'], type: ['CSV'] });
  });

  it('reads quoted values and phrases as one value', () => {
    const q = parseSearchQuery('"water quality" type:"Feature Service"');
    expect(q.words).toEqual(['water quality']);
    expect(q.fields.get('type')).toEqual(['Feature Service']);
  });

  it('drops the boolean words and parentheses query builders add', () => {
    const q = parseSearchQuery('(owner:"ann") AND (type:"Web Map" OR type:"CSV")');
    expect(q.words).toEqual([]);
    expect(q.fields.get('type')).toEqual(['Web Map', 'CSV']);
  });

  it('lower-cases field names', () => {
    expect(parseSearchQuery('Owner:ann').fields.get('owner')).toEqual(['ann']);
  });

  it('reads an empty or missing query as matching everything', () => {
    expect(parseSearchQuery(undefined)).toEqual({ words: [], fields: new Map() });
    expect(parseSearchQuery('*').words).toEqual([]);
  });
});
