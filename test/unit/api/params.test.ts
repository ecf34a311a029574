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
  maxAnonymousBytes: 512,
  maxFields: 20,
});

/** An upload operation whose caller signs in with the token `good`. */
const uploads = { acceptsFiles: true, signsIn: async (token: string) => token === 'good' };

describe('request parameters', () => {
  it('looks names up case-insensitively across the query string and a urlencoded body', async () => {
    const req = new Request('http://x/a?itemID=abc&f=json', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'fileType=csv&Token=t1',
    });
    const { params } = await parseParams(req, limits(), uploads);
    expect(params.get('itemid')).toBe('abc');
    expect(params.get('FILETYPE')).toBe('csv');
    expect(params.get('token')).toBe('t1');
    expect(params.get('missing')).toBeUndefined();
  });

  it('streams a multipart file to a temporary file that cleanup removes', async () => {
    const form = new FormData();
    form.set('title', 'Stations');
    form.set('token', 'good');
    form.set('file', new Blob(['a,b\n1,2\n']), 'stations.csv');
    const l = limits();
    const { params, cleanup } = await parseParams(
      new Request('http://x/', { method: 'POST', body: form }),
      l,
      uploads,
    );
    const file = params.file('FILE');
    expect(params.get('title')).toBe('Stations');
    expect(file?.filename).toBe('stations.csv');
    expect(file?.size).toBe(8);
    expect(readFileSync(file!.path, 'utf8')).toBe('a,b\n1,2\n');
    await cleanup();
    expect(existsSync(file!.path)).toBe(false);
  });

  it('removes every temporary file of a repeated file part, not only the last one kept', async () => {
    const form = new FormData();
    form.set('token', 'good');
    form.append('file', new Blob(['first\n']), 'a.csv');
    form.append('file', new Blob(['second\n']), 'b.csv');
    form.append('FILE', new Blob(['third\n']), 'c.csv');
    const l = limits();
    const { params, cleanup } = await parseParams(
      new Request('http://x/', { method: 'POST', body: form }),
      l,
      uploads,
    );
    expect(readFileSync(params.file('file')!.path, 'utf8')).toBe('third\n');
    expect(readdirSync(l.tmpDir).length).toBe(3);
    await cleanup();
    expect(readdirSync(l.tmpDir)).toEqual([]);
  });

  it('rejects an upload over the limit with 413 and leaves no temporary file', async () => {
    const form = new FormData();
    form.set('token', 'good');
    form.set('file', new Blob([new Uint8Array(4096)]), 'big.bin');
    const l = limits();
    const attempt = parseParams(new Request('http://x/', { method: 'POST', body: form }), l, uploads);
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
    await expect(parseParams(req, limits(), uploads)).rejects.toMatchObject({ code: 413 });
  });

  it('rejects a multipart body without a boundary as a bad request', async () => {
    const req = new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'garbage',
    });
    await expect(parseParams(req, limits(), uploads)).rejects.toMatchObject({ code: 400 });
  });
});

describe('request body limits', () => {
  const anonymousLimits = () => ({ ...limits(), maxFormBytes: 4096, maxAnonymousBytes: 1024 });
  const urlencoded = (body: string, url = 'http://x/') =>
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  const other = { acceptsFiles: false, signsIn: async (token: string) => token === 'good' };

  it('refuses a body over the anonymous budget from a caller without a token, naming the variable', async () => {
    await expect(
      parseParams(urlencoded(`where=${'a'.repeat(2000)}`), anonymousLimits(), other),
    ).rejects.toMatchObject({
      code: 413,
      details: [
        'Requests without a valid token may send at most 1024 bytes of form data (ANONYMOUS_BODY_MAX_BYTES).',
      ],
    });
  });

  it('takes a larger body once the token in the body itself signs the caller in', async () => {
    const { params } = await parseParams(
      urlencoded(`token=good&where=${'a'.repeat(2000)}`),
      anonymousLimits(),
      other,
    );
    expect(params.get('where')?.length).toBe(2000);
  });

  it('takes a larger body when the token comes in a header', async () => {
    const { params } = await parseParams(urlencoded(`where=${'a'.repeat(2000)}`), anonymousLimits(), {
      ...other,
      token: 'good',
    });
    expect(params.get('where')?.length).toBe(2000);
  });

  it('refuses a larger body whose token does not sign in', async () => {
    await expect(
      parseParams(urlencoded(`token=bad&where=${'a'.repeat(2000)}`), anonymousLimits(), other),
    ).rejects.toMatchObject({ code: 413 });
  });

  it('refuses a body over the signed-in limit even with a valid token', async () => {
    await expect(
      parseParams(urlencoded(`token=good&where=${'a'.repeat(5000)}`), anonymousLimits(), other),
    ).rejects.toMatchObject({
      code: 413,
      details: ['Requests may send at most 4096 bytes of form data (FORM_MAX_BYTES).'],
    });
  });

  it('refuses more parameters than allowed, in the query string or the body', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `p${i}=1`).join('&');
    await expect(parseParams(urlencoded(many), limits(), other)).rejects.toMatchObject({
      code: 400,
      details: ['A request may carry at most 20 parameters (FORM_MAX_FIELDS).'],
    });
    await expect(parseParams(urlencoded('', `http://x/?${many}`), limits(), other)).rejects.toMatchObject({
      code: 400,
    });
    const form = new FormData();
    for (let i = 0; i < 21; i++) form.set(`p${i}`, '1');
    await expect(
      parseParams(new Request('http://x/', { method: 'POST', body: form }), limits(), other),
    ).rejects.toMatchObject({
      code: 400,
      details: ['A request may carry at most 20 parameters (FORM_MAX_FIELDS).'],
    });
  });

  it('refuses a file part where no file is expected and stores nothing', async () => {
    const form = new FormData();
    form.set('token', 'good');
    form.set('file', new Blob(['a,b\n']), 'x.csv');
    const l = limits();
    await expect(
      parseParams(new Request('http://x/', { method: 'POST', body: form }), l, other),
    ).rejects.toMatchObject({ code: 400, message: 'This operation does not accept files.' });
    expect(readdirSync(l.tmpDir)).toEqual([]);
  });

  it('refuses files from a caller without a token (499) or with a refused one (498), removing them', async () => {
    for (const [token, code] of [
      [undefined, 499],
      ['bad', 498],
    ] as const) {
      const form = new FormData();
      if (token) form.set('token', token);
      form.set('file', new Blob(['a,b\n']), 'x.csv');
      const l = limits();
      await expect(
        parseParams(new Request('http://x/', { method: 'POST', body: form }), l, uploads),
      ).rejects.toMatchObject({ code });
      expect(readdirSync(l.tmpDir)).toEqual([]);
    }
  });

  it('takes the token after the file, as ArcGIS clients send it', async () => {
    const form = new FormData();
    form.set('file', new Blob(['a,b\n']), 'x.csv');
    form.set('token', 'good');
    const l = limits();
    const { params, cleanup } = await parseParams(
      new Request('http://x/', { method: 'POST', body: form }),
      l,
      uploads,
    );
    expect(params.file('file')?.size).toBe(4);
    await cleanup();
    expect(readdirSync(l.tmpDir)).toEqual([]);
  });

  it('refuses multipart text fields over the anonymous budget without a token', async () => {
    const form = new FormData();
    form.set('where', 'a'.repeat(400));
    form.set('outFields', 'b'.repeat(400));
    await expect(
      parseParams(
        new Request('http://x/', { method: 'POST', body: form }),
        { ...limits(), maxAnonymousBytes: 600 },
        other,
      ),
    ).rejects.toMatchObject({ code: 413 });
  });
});
