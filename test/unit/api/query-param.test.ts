import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseParams, queryParam } from '../../../api/params.js';

// The lean tile path reads the token with queryParam; it must read what the full parser reads.
describe('queryParam', () => {
  const queries = ['token=a', 'TOKEN=a&token=b', 'Token=x%20y&f=json', 'f=json', 'token=&Token=c'];
  for (const query of queries) {
    it(`reads the token of '${query}' as the full parameter parser does`, async () => {
      const { params } = await parseParams(
        new Request(`http://x/tile?${query}`),
        {
          tmpDir: mkdtempSync(join(tmpdir(), 'query-param-')),
          maxUploadBytes: 1024,
          maxFormBytes: 512,
          maxAnonymousBytes: 512,
          maxFields: 20,
        },
        { acceptsFiles: false, signsIn: async () => false },
      );
      expect(queryParam(query, 'token')).toBe(params.get('token'));
    });
  }

  it('lets the last spelling win', () => {
    expect(queryParam('token=a&TOKEN=b', 'Token')).toBe('b');
  });
});
