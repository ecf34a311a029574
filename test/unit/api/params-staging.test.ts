/**
 * File parts staged in the object store while they arrive (api/params.ts FileStaging): the staged
 * object holds exactly the part's bytes, beside the temporary file; it is removed when the request ends
 * unless the route adopts it, and a part refused or cut off leaves no object.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FileStaging, parseParams } from '../../../api/params.js';
import type { ObjectUpload } from '../../../infra/object-store.js';

const limits = () => ({
  tmpDir: mkdtempSync(join(tmpdir(), 'staging-')),
  maxUploadBytes: 64 * 1024,
  maxFormBytes: 512,
  maxAnonymousBytes: 512,
  maxFields: 20,
});

/** A store that keeps ended uploads in `objects` and records every upload's fate. */
function recordingStaging() {
  const objects = new Map<string, Buffer>();
  const aborted: string[] = [];
  const opened: string[] = [];
  let n = 0;
  const staging: FileStaging = {
    store: {
      upload(key): ObjectUpload {
        opened.push(key);
        const chunks: Buffer[] = [];
        return {
          write: async (chunk) => {
            chunks.push(Buffer.from(chunk));
          },
          end: async () => {
            objects.set(key, Buffer.concat(chunks));
          },
          abort: async () => {
            aborted.push(key);
          },
        };
      },
      remove: async (key) => {
        objects.delete(key);
      },
    },
    target: (field) => (field === 'file' ? { id: `job-${++n}`, key: `publish/job-${n}/source` } : undefined),
  };
  return { staging, objects, aborted, opened };
}

const access = (stage: FileStaging) => ({
  acceptsFiles: true,
  signsIn: async (token: string) => token === 'good',
  stage,
});

const post = (form: FormData) => new Request('http://x/', { method: 'POST', body: form });

/** A multipart body that stops (with an error) after `cut` bytes of its file part. */
function cutRequest(fileBytes: Buffer, cut: number): Request {
  const boundary = 'xXxBoundaryxXx';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\ngood\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n` +
      'Content-Type: text/csv\r\n\r\n',
  );
  const sent = Buffer.concat([head, fileBytes.subarray(0, cut)]);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(sent);
      setTimeout(() => controller.error(new Error('the client went away')), 10);
    },
  });
  return new Request('http://x/', {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('file parts staged in the object store', () => {
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => `${i},${(i * 7) % 13}\n`).join(''));

  it('stores the part as it arrives, beside its temporary file, and removes it when not adopted', async () => {
    const { staging, objects } = recordingStaging();
    const form = new FormData();
    form.set('token', 'good');
    form.set('file', new Blob([bytes]), 'points.csv');
    const { params, cleanup } = await parseParams(post(form), limits(), access(staging));
    const file = params.file('file')!;
    expect(file.staged).toMatchObject({ id: 'job-1', key: 'publish/job-1/source' });
    expect(objects.get('publish/job-1/source')?.equals(bytes)).toBe(true);
    expect(readFileSync(file.path).equals(bytes)).toBe(true);
    await cleanup();
    expect(objects.size).toBe(0);
  });

  it('keeps an adopted object when the request ends', async () => {
    const { staging, objects } = recordingStaging();
    const form = new FormData();
    form.set('token', 'good');
    form.set('file', new Blob([bytes]), 'points.csv');
    const l = limits();
    const { params, cleanup } = await parseParams(post(form), l, access(staging));
    params.file('file')!.staged!.adopt();
    await cleanup();
    expect([...objects.keys()]).toEqual(['publish/job-1/source']);
    expect(readdirSync(l.tmpDir)).toEqual([]);
  });

  it('stages a part sent before its token, as ArcGIS clients send it, and only the fields it names', async () => {
    const { staging, objects, opened } = recordingStaging();
    const form = new FormData();
    form.set('thumbnail', new Blob([Buffer.from('png')]), 'thumb.png');
    form.set('file', new Blob([bytes]), 'points.csv');
    form.set('token', 'good');
    const { params } = await parseParams(post(form), limits(), access(staging));
    expect(opened).toEqual(['publish/job-1/source']);
    expect(params.file('thumbnail')?.staged).toBeUndefined();
    expect(objects.get(params.file('file')!.staged!.key)?.equals(bytes)).toBe(true);
  });

  it('leaves no object for a part refused with its token, over the size limit or cut off', async () => {
    const refused = recordingStaging();
    const form = new FormData();
    form.set('file', new Blob([bytes]), 'points.csv');
    form.set('token', 'bad');
    await expect(parseParams(post(form), limits(), access(refused.staging))).rejects.toMatchObject({
      code: 498,
    });
    expect(refused.objects.size).toBe(0);

    const large = recordingStaging();
    const big = new FormData();
    big.set('token', 'good');
    big.set('file', new Blob([Buffer.alloc(70 * 1024, 'x')]), 'big.csv');
    const l = limits();
    await expect(parseParams(post(big), l, access(large.staging))).rejects.toMatchObject({ code: 413 });
    expect(large.objects.size).toBe(0);
    expect(large.aborted).toEqual(['publish/job-1/source']);
    expect(readdirSync(l.tmpDir)).toEqual([]);

    const cut = recordingStaging();
    await expect(parseParams(cutRequest(bytes, 5000), limits(), access(cut.staging))).rejects.toMatchObject({
      code: 400,
    });
    expect(cut.objects.size).toBe(0);
    expect(cut.aborted).toEqual(['publish/job-1/source']);
  });
});
