import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseRecords,
  RecordSplitter,
  sampleFromBytes,
  sliceEnds,
} from '../../../activities/publish/csv-source.js';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'publish', name));
const bytes = (text: string) => new TextEncoder().encode(text);
const dialect = { encoding: 'utf-8' as const, delimiter: ',', qualifier: '"', newline: '\n' as const };

describe('RecordSplitter', () => {
  it('keeps a line feed inside a qualified field within its record across chunk boundaries', () => {
    const splitter = new RecordSplitter(34);
    const first = splitter.push(bytes('a,"multi\nli'));
    const second = splitter.push(bytes('ne",c\nnext,row,x\npartial'));
    expect(first.length).toBe(0);
    expect(parseRecords(second, dialect)).toEqual([
      ['a', 'multi\nline', 'c'],
      ['next', 'row', 'x'],
    ]);
    expect(new TextDecoder().decode(splitter.rest())).toBe('partial');
  });
});

/** Record ends (one past each line feed outside the qualifier) found by a plain scan of the whole text. */
function recordEnds(data: Uint8Array): number[] {
  const ends: number[] = [];
  let quoted = false;
  data.forEach((b, i) => {
    if (b === 34) quoted = !quoted;
    else if (b === 10 && !quoted) ends.push(i + 1);
  });
  return ends;
}

/** A deterministic file of records, some quoted with commas, quotes and line breaks inside. */
function records(count: number, seed: number, withQuotes: boolean): Uint8Array {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  let text = '';
  for (let i = 0; i < count; i++) {
    const r = next() % 10;
    const name = withQuotes && r < 3 ? `"a ""q"", b\nline ${next() % 1000}"` : `name ${next() % 100000}`;
    text += `${i},${name},${'x'.repeat(next() % 40)}\n`;
    if (r === 9) text += '\n';
  }
  return new TextEncoder().encode(text);
}

describe('RecordSplitter.pushParts', () => {
  it('ends records where a plain scan of the whole text does, whatever the chunks', () => {
    for (const withQuotes of [false, true]) {
      const data = records(2000, withQuotes ? 7 : 11, withQuotes);
      const ends = recordEnds(data);
      for (const chunk of [1, 7, 64, 1000, 4096, data.length]) {
        const splitter = new RecordSplitter(34);
        const out: Uint8Array[] = [];
        const wrong: number[] = [];
        let delivered = 0;
        let e = 0;
        for (let at = 0; at < data.length; at += chunk) {
          for (const p of splitter.pushParts(data.subarray(at, at + chunk))) {
            out.push(p);
            delivered += p.length;
          }
          // Everything up to the last record end in what was pushed, and no more.
          const seen = Math.min(at + chunk, data.length);
          while (e < ends.length && ends[e] <= seen) e++;
          if (delivered !== (e > 0 ? ends[e - 1] : 0)) wrong.push(at);
        }
        out.push(splitter.rest());
        expect(wrong).toEqual([]);
        expect(Buffer.concat(out).equals(data)).toBe(true);
      }
    }
  });
});

describe('sliceEnds', () => {
  it('cuts a batch at the first record end at least a slice after the last cut, and at its end', () => {
    for (const withQuotes of [false, true]) {
      const data = records(3000, withQuotes ? 3 : 5, withQuotes);
      const ends = recordEnds(data);
      for (const sliceBytes of [1, 100, 4096, data.length, data.length * 2]) {
        const cuts = [...sliceEnds(data, 34, sliceBytes)];
        const expected: number[] = [];
        let at = 0;
        for (const e of ends) {
          if (e - at >= sliceBytes && e < data.length) {
            expected.push(e);
            at = e;
          }
        }
        expected.push(data.length);
        expect(cuts).toEqual(expected);
      }
    }
  });

  it('ends the last slice at the end of a batch whose last record has no line break', () => {
    const data = new TextEncoder().encode('a,1\nb,2\nc,3');
    expect([...sliceEnds(data, 34, 2)]).toEqual([4, 8, 11]);
    expect([...sliceEnds(new Uint8Array(0), 34, 2)]).toEqual([]);
  });
});

describe('sampleFromBytes', () => {
  it('skips a UTF-8 byte-order mark and reports where the data rows start', () => {
    const sample = sampleFromBytes(fixture('villes-semicolon-bom.csv'), true);
    expect(sample.dialect).toMatchObject({ encoding: 'utf-8-bom', delimiter: ';', qualifier: '"' });
    expect(sample.headers[0]).toBe('Nom');
    expect(sample.dataOffset).toBe(3 + 'Nom;Ville;Population;Surface;Latitude;Longitude\n'.length);
    expect(sample.rows).toHaveLength(6);
  });

  it('decodes Latin-1 text as such', () => {
    const sample = sampleFromBytes(fixture('villes-semicolon-latin1.csv'), true);
    expect(sample.dialect.encoding).toBe('latin1');
    expect(sample.rows[1][0]).toBe('Hôtel de Ville');
  });

  it('drops the last record of a cut sample, which may be incomplete', () => {
    const sample = sampleFromBytes(bytes('a,b\n1,2\n3,4\n5,'), false);
    expect(sample.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('measures the bytes a data record takes, without the header, the BOM or a cut last record', () => {
    // Two whole records of 8 and 14 bytes after a 3-byte BOM and a 7-byte header; the cut one not counted.
    const sample = sampleFromBytes(bytes('\ufeffid,name\n1,alpha\n22,beta-gamma\n333,de'), false);
    expect(sample.rows).toHaveLength(2);
    expect(sample.bytesPerRecord).toBe((8 + 14) / 2);
    expect(sampleFromBytes(bytes('id,name\n'), true).bytesPerRecord).toBeUndefined();
  });

  it('honours a delimiter the publisher names over the detected one', () => {
    const sample = sampleFromBytes(bytes('a;b,c\n1;2,3\n'), true, { delimiter: ',' });
    expect(sample.headers).toEqual(['a;b', 'c']);
  });

  it('refuses UTF-16 text with advice', () => {
    expect(() => sampleFromBytes(new Uint8Array([0xff, 0xfe, 0x61, 0x00]), true)).toThrow(/Unable to read/);
  });
});

describe('parseRecords', () => {
  it('reads unquoted and quoted batches alike, skipping blank lines', () => {
    const plain = parseRecords(bytes('a,b\n\n1,2\n , \n3,4\n'), dialect);
    const quoted = parseRecords(bytes('"a",b\n\n1,2\n , \n3,4\n'), dialect);
    expect(plain).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(quoted).toEqual(plain);
  });

  it('splits CRLF records without leaving carriage returns in the last field', () => {
    expect(parseRecords(bytes('a;b\r\n1;2\r\n'), { ...dialect, delimiter: ';', newline: '\r\n' })).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});
