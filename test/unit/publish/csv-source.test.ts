import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecords, RecordSplitter, sampleFromBytes } from '../../../activities/publish/csv-source.js';

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
