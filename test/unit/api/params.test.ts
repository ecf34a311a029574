import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseParams } from '../../../api/params.js';
import { GeoError } from '../../../lib/errors.js';

const limits = () => ({
  tmpDir: mkdtempSync(join(tmpdir(), 'params-')),
  maxUploadBytes: 1024,
  maxFormBytes: 512,
});

describe('request parameters', () => {
  it('looks names up case-insensitively across the query string and a urlencoded body', async () => {
    const req = new Request('http://x/a?itemID=abc&f=json', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'fileType=csv&Token=t1',
    });
    const { params } = await parseParams(req, limits());
    expect(params.get('itemid')).toBe('abc');
    expect(params.get('FILETYPE')).toBe('csv');
    expect(params.get('token')).toBe('t1');
    expect(params.get('missing')).toBeUndefined();
  });

  it('streams a multipart file to a temporary file that cleanup removes', async () => {
    const form = new FormData();
    form.set('title', 'Stations');
    form.set('file', new Blob(['a,b\n1,2\n']), 'stations.csv');
    const l = limits();
    const { params, cleanup } = await parseParams(
      new Request('http://x/', { method: 'POST', body: form }),
      l,
    );
    const file = params.file('FILE');
    expect(params.get('title')).toBe('Stations');
    expect(file?.filename).toBe('stations.csv');
    expect(file?.size).toBe(8);
    expect(readFileSync(file!.path, 'utf8')).toBe('a,b\n1,2\n');
    await cleanup();
    expect(existsSync(file!.path)).toBe(false);
  });

  it('rejects an upload over the limit with 413 and leaves no temporary file', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(4096)]), 'big.bin');
    const l = limits();
    const attempt = parseParams(new Request('http://x/', { method: 'POST', body: form }), l);
    await expect(attempt).rejects.toBeInstanceOf(GeoError);
    await expect(attempt).rejects.toMatchObject({ code: 413 });
    expect(readdirSync(l.tmpDir)).toEqual([]);
  });

  it('rejects a urlencoded body over the form limit', async () => {
    const req = new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `text=${'a'.repeat(600)}`,
    });
    await expect(parseParams(req, limits())).rejects.toMatchObject({ code: 413 });
  });

  it('rejects a multipart body without a boundary as a bad request', async () => {
    const req = new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'garbage',
    });
    await expect(parseParams(req, limits())).rejects.toMatchObject({ code: 400 });
  });
});
