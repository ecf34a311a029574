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
    expect(parseSearchQuery(undefined)).toEqual({
      words: [],
      fields: new Map(),
      not: { words: [], fields: new Map() },
      ranges: new Map(),
    });
    expect(parseSearchQuery('*').words).toEqual([]);
  });

  it('excludes terms after NOT, inside NOT (…) and with a leading minus', () => {
    const q = parseSearchQuery('parks NOT owner:ann -type:"Web Map" NOT (tags:draft OR old) -stale title:x');
    expect(q.words).toEqual(['parks']);
    expect(Object.fromEntries(q.fields)).toEqual({ title: ['x'] });
    expect(q.not.words).toEqual(['old', 'stale']);
    expect(Object.fromEntries(q.not.fields)).toEqual({ owner: ['ann'], type: ['Web Map'], tags: ['draft'] });
  });

  it('reads inclusive ranges of epoch milliseconds', () => {
    const q = parseSearchQuery('created:[0000001249084800000 TO 0000001249548000000] modified:[5 TO *]');
    expect(Object.fromEntries(q.ranges)).toEqual({
      created: [{ from: '0000001249084800000', to: '0000001249548000000' }],
      modified: [{ from: '5', to: '*' }],
    });
  });

  it('refuses a field the surface does not know, naming it', () => {
    let details: string[] = [];
    try {
      parseSearchQuery('colour:red', ['owner', 'title']);
    } catch (e) {
      details = (e as { details: string[] }).details;
    }
    expect(details.join(' ')).toMatch(/Field 'colour' cannot be searched here; use owner, title\./);
  });
});
