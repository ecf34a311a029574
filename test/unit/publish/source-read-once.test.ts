import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readingSourceOnce } from '../../../activities/publish/source-read-once.js';
import type { ObjectStore } from '../../../infra/object-store.js';

/** An in-memory store that counts the reads it serves. */
function countingStore(objects: Record<string, string>) {
  const reads: string[] = [];
  const bytes = (key: string) => Buffer.from(objects[key] ?? '', 'utf8');
  const store = {
    bucket: 'b',
    getBuffer: async (key: string) => {
      reads.push(`getBuffer ${key}`);
      return bytes(key);
    },
    getRange: async (key: string, offset: number, length: number) => {
      reads.push(`getRange ${key}`);
      return bytes(key).subarray(offset, offset + length);
    },
    getStreamFrom: async (key: string, offset: number) => {
      reads.push(`getStreamFrom ${key}`);
      return Readable.from([bytes(key).subarray(offset)]);
    },
  } as unknown as ObjectStore;
  return { store, reads };
}

async function text(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(parts).toString('utf8');
}

describe('a small publish reading its source once', () => {
  it('serves the sample and the load of the source from one read of the whole object', async () => {
    const { store, reads } = countingStore({ 'src.csv': 'id,name\n1,a\n2,b\n' });
    const once = readingSourceOnce(store, 'src.csv');
    expect((await once.getRange('src.csv', 0, 7)).toString('utf8')).toBe('id,name');
    expect(await text(await once.getStreamFrom('src.csv', 8))).toBe('1,a\n2,b\n');
    expect((await once.getBuffer('src.csv')).toString('utf8')).toBe('id,name\n1,a\n2,b\n');
    expect(await text(await once.getStreamFrom('src.csv', 99))).toBe('');
    expect(reads).toEqual(['getBuffer src.csv']);
  });

  it('passes reads of any other object to the store', async () => {
    const { store, reads } = countingStore({ 'src.csv': 'x', 'other.gpkg': 'abcdef' });
    const once = readingSourceOnce(store, 'src.csv');
    expect((await once.getRange('other.gpkg', 2, 2)).toString('utf8')).toBe('cd');
    expect(reads).toEqual(['getRange other.gpkg']);
  });
});
