import { describe, expect, it } from 'vitest';
import { detectDelimiter, detectQualifier } from '../../../lib/ingest/delimited-text.js';
import { decode, decoderFor, detectEncoding, isValidUtf8 } from '../../../lib/ingest/text-encoding.js';
import { fixtureBytes, fixtureText } from './read-fixture.js';

describe('detectDelimiter', () => {
  it.each([
    ['transit-stations.csv', ','],
    ['french-cities-semicolon.csv', ';'],
    ['tab-separated.tsv', '\t'],
    ['pipe-separated.txt', '|'],
  ])('finds the delimiter of %s', (name, delimiter) => {
    expect(detectDelimiter(fixtureText(name))).toBe(delimiter);
  });

  it('does not count delimiters inside quoted fields', () => {
    expect(detectDelimiter('a;b\n"1,2,3";4\n"5,6";7\n')).toBe(';');
  });

  it('works on a sample cut in the middle of a line', () => {
    const text = fixtureText('french-cities-semicolon.csv');
    expect(detectDelimiter(text.slice(0, 60))).toBe(';');
  });

  it('falls back to a comma for a single column', () => {
    expect(detectDelimiter('name\nalpha\nbeta\n')).toBe(',');
  });
});

describe('detectQualifier', () => {
  it('is a double quote by default and when fields are wrapped in them', () => {
    expect(detectQualifier('a,b\n1,2\n')).toBe('"');
    expect(detectQualifier(fixtureText('transit-stations.csv'))).toBe('"');
  });

  it("is a single quote when only single quotes wrap fields, not for O'Hare", () => {
    expect(detectQualifier("id,name\n1,'Clark, Lake'\n2,'Howard'\n")).toBe("'");
  });
});

describe('detectEncoding and decode', () => {
  it('finds plain UTF-8', () => {
    expect(detectEncoding(new TextEncoder().encode('José,Málaga\n'))).toBe('utf-8');
  });

  it('finds a UTF-8 byte-order mark and decodes without it', () => {
    const bytes = fixtureBytes('cities-utf8-bom.csv');
    expect(detectEncoding(bytes)).toBe('utf-8-bom');
    expect(decode(bytes).startsWith('Name,City')).toBe(true);
  });

  it('takes invalid UTF-8 as Latin-1 and decodes windows-1252 punctuation', () => {
    const bytes = fixtureBytes('cities-windows-1252.csv');
    expect(detectEncoding(bytes)).toBe('latin1');
    expect(decode(bytes)).toContain('José,Málaga,“quoted” €5');
  });

  it('finds and decodes UTF-16 little-endian from its byte-order mark', () => {
    const bytes = fixtureBytes('cities-utf16le.csv');
    expect(detectEncoding(bytes)).toBe('utf-16le');
    expect(decode(bytes)).toContain('François,Besançon');
  });

  it('accepts a multi-byte character cut off by the end of the sample', () => {
    const bytes = new TextEncoder().encode('abc€');
    expect(isValidUtf8(bytes.subarray(0, 5))).toBe(true);
  });

  it('rejects overlong encodings and surrogates', () => {
    expect(isValidUtf8(new Uint8Array([0xc0, 0xaf]))).toBe(false);
    expect(isValidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(false);
  });

  it('decodes a stream of chunks split inside a character', () => {
    const bytes = new TextEncoder().encode('Besançon');
    const decoder = decoderFor('utf-8');
    const text = decoder.decode(bytes.subarray(0, 5), { stream: true }) + decoder.decode(bytes.subarray(5));
    expect(text).toBe('Besançon');
  });
});
