import { describe, expect, it } from 'vitest';
import { idsJsonText } from '../../../lib/query/ids-json.js';

async function* batchesOf(ids: number[], size: number) {
  for (let i = 0; i < ids.length; i += size) yield ids.slice(i, i + size);
}

const text = async (chunks: AsyncIterable<string>) => {
  let all = '';
  for await (const c of chunks) all += c;
  return all;
};

describe('the streamed returnIdsOnly answer', () => {
  const cases: [string, number[], number][] = [
    ['no ids', [], 3],
    ['one id', [7], 3],
    ['ids in uneven batches', [1, 2, 5, 9, 10, 11, 400000], 3],
    ['ids in one batch', [3, 4], 100],
  ];
  for (const [name, ids, size] of cases) {
    it(`writes exactly what JSON.stringify writes, compact and pretty: ${name}`, async () => {
      const body = { objectIdFieldName: 'OBJECTID', objectIds: ids };
      expect(await text(idsJsonText('OBJECTID', batchesOf(ids, size), { pretty: false }))).toBe(
        JSON.stringify(body),
      );
      expect(await text(idsJsonText('OBJECTID', batchesOf(ids, size), { pretty: true }))).toBe(
        JSON.stringify(body, null, 2),
      );
    });
  }

  it('wraps the answer for JSONP and escapes the field name', async () => {
    const out = await text(idsJsonText('F"ID', batchesOf([1, 2], 1), { pretty: false, callback: 'cb' }));
    expect(out).toBe(`cb(${JSON.stringify({ objectIdFieldName: 'F"ID', objectIds: [1, 2] })});`);
  });

  it('skips empty batches without writing a stray separator', async () => {
    async function* withEmpty() {
      yield [];
      yield [1];
      yield [];
      yield [2, 3];
    }
    expect(JSON.parse(await text(idsJsonText('OID', withEmpty(), { pretty: false })))).toEqual({
      objectIdFieldName: 'OID',
      objectIds: [1, 2, 3],
    });
  });

  it('writes 10 million ids with the heap growing by less than 50 MB', async () => {
    const N = 10_000_000;
    const BATCH = 10_000;
    async function* source() {
      for (let start = 1; start <= N; start += BATCH) {
        const ids = new Array<number>(BATCH);
        for (let i = 0; i < BATCH; i++) ids[i] = start + i;
        yield ids;
      }
    }
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let bytes = 0;
    let chunks = 0;
    let tail = '';
    for await (const chunk of idsJsonText('OBJECTID', source(), { pretty: false })) {
      bytes += chunk.length;
      chunks++;
      tail = chunk;
      if (chunks % 50 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    // The digits of 1..10^7: 9·1 + 90·2 + 900·3 + ... + 9,000,000·7, plus 8 for 10,000,000 itself.
    let digits = 8;
    for (let d = 1; d <= 7; d++) digits += 9 * 10 ** (d - 1) * d;
    const frame = '{"objectIdFieldName":"OBJECTID","objectIds":[]}'.length;
    expect(bytes).toBe(frame + digits + (N - 1));
    expect(tail).toBe(']}');
    expect(chunks).toBe(N / BATCH + 2);
    expect(peak - before).toBeLessThan(50 * 1024 ** 2);
  }, 120_000);
});
