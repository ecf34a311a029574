import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  byteCellEncoder,
  cellEncoder,
  coordinateReader,
  plainDecimal,
  plainDecimalBytes,
  tenByteDigits,
} from '../../../activities/publish/cell-encoders.js';
import { CopyBinaryWriter } from '../../../activities/publish/copy-binary.js';
import type { PlannedField } from '../../../db/schema/publish-request.js';

/** A plain decimal as a file writes it: a sign or not, 1-15 integer digits, and 0-17 fraction digits. */
const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[1-9][0-9]{0,14}$|^0$/),
    fc.option(fc.stringMatching(/^[0-9]{1,17}$/), { nil: undefined }),
  )
  .map(([negative, int, frac]) => `${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);

const bytesOf = (s: string) => new TextEncoder().encode(`,${s},`);

describe('the fast number readers', () => {
  it('read a plain decimal as Number() does, sign included, however many digits it has', () => {
    fc.assert(
      fc.property(decimalText, (s) => {
        const expected = Number(s);
        expect(plainDecimal(s, 46)).toBe(expected);
        expect(plainDecimal(s.replace('.', ','), 44)).toBe(expected);
        // The byte reader declines past 2^53 (NaN: the string route reads those); what it reads is exact.
        const b = plainDecimalBytes(bytesOf(s), 1, s.length + 1, 46);
        if (!Number.isNaN(b)) expect(b).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('keep the sign of a negative decimal with more digits than a double holds', () => {
    // 17 significant digits: past 2^53, read by Number() (the sign was once applied twice there).
    expect(plainDecimal('-13092079.162597656', 46)).toBe(-13092079.162597656);
    expect(plainDecimal('-87,62823456789012345', 44)).toBe(-Number('87.62823456789012345'));
    const read = coordinateReader(false, Number);
    expect(read('-13092079.162597656')).toBe(-13092079.162597656);
    expect(read('-0.12345678901234567')).toBe(-Number('0.12345678901234567'));
  });
});

/** Ten ASCII characters, mostly digits with a few separators (dates and near-dates). */
const tenChars = fc
  .array(fc.constantFrom(...'0123456789012345678901234567890123456789-/. T:a'), {
    minLength: 10,
    maxLength: 10,
  })
  .map((cs) => cs.join(''));

describe('the key of a ten-character date', () => {
  /** The digits and shape tenByteDigits gives, as one text ('' for -1). */
  const keyOf = (b: Buffer, start: number) => {
    const shape = new Int32Array([-7]);
    const digits = tenByteDigits(b, start, shape);
    if (digits < 0) return '';
    expect(Number.isInteger(digits) && digits >= 0 && digits < 2 ** 31).toBe(true);
    expect(shape[0] >= 0 && shape[0] < 2 ** 31).toBe(true);
    return `${digits}/${shape[0]}`;
  };

  it('is one pair of small integers per text of eight digits and two other characters, and -1 for any other', () => {
    const keys = new Map<string, string>();
    fc.assert(
      fc.property(tenChars, (s) => {
        const key = keyOf(Buffer.from(`,${s}`, 'latin1'), 1);
        const digits = s.replaceAll(/[^0-9]/g, '').length;
        if (digits !== 8) {
          expect(key).toBe('');
          return;
        }
        expect(key).toBe(`${Number(s.replaceAll(/[^0-9]/g, ''))}/${key.split('/')[1]}`);
        const before = keys.get(key);
        if (before !== undefined) expect(before).toBe(s);
        keys.set(key, s);
      }),
      { numRuns: 20000 },
    );
    expect(keyOf(Buffer.from('2024-03-02'), 0)).not.toBe(keyOf(Buffer.from('20240-3-02'), 0));
    expect(keyOf(Buffer.from('2024-03-02'), 0)).not.toBe(keyOf(Buffer.from('2024/03/02'), 0));
    expect(keyOf(Buffer.from('2024-03-02'), 0)).toBe(keyOf(Buffer.from('x2024-03-02').subarray(1), 0));
    expect(keyOf(Buffer.from('2024-03-0\u00e9'), 0)).toBe('');
  });
});

describe('the byte encoder of a date field', () => {
  const date = (dateFormat: PlannedField['dateFormat']): PlannedField => ({
    name: 'opened',
    alias: 'opened',
    type: 'esriFieldTypeDate',
    sourceIndex: 0,
    column: 'a_0',
    locationType: 'unknown',
    dateFormat,
  });

  /** What an encoder writes for a text (its COPY bytes, or its refusal). */
  const written = (encode: (w: CopyBinaryWriter) => string | null) => {
    const w = new CopyBinaryWriter(64);
    const start = w.pos;
    const reason = encode(w);
    return reason ?? Buffer.from(w.finish().subarray(start)).toString('hex');
  };

  it('writes what the text encoder writes, over more distinct dates than it remembers, in several shapes', () => {
    for (const format of ['iso', 'ymd', 'mdy'] as const) {
      const field = date(format);
      const options = { decimalComma: false };
      const text = cellEncoder(field, options);
      const bytes = byteCellEncoder(field, options, cellEncoder(field, options));
      // 80,000 distinct days and then the first ones again (past the 65,536 remembered), as
      // 2024-03-02, 2024/03/02 and 03/02/2024, with impossible months and days among them, and a
      // ten-character text of another shape now and then.
      const texts: string[] = [];
      for (let i = 0; i < 80_000; i++) {
        const y = 1900 + (i % 200);
        const m = String(1 + (Math.floor(i / 200) % 13)).padStart(2, '0');
        const d = String(1 + (Math.floor(i / 2600) % 32)).padStart(2, '0');
        texts.push(i % 3 === 0 ? `${y}-${m}-${d}` : i % 3 === 1 ? `${y}/${m}/${d}` : `${m}/${d}/${y}`);
        // The same eight digits in other shapes, one after another.
        if (i % 101 === 0) texts.push(`${y}-${m}-${d}`, `${y}/${m}/${d}`, `${y}.${m}.${d}`, `${y}${m}${d}--`);
        if (i % 997 === 0) texts.push(`${y}${m}${d}ab`, `${y}-${m}-${d}`.replace('-', '\u00e9').slice(0, 10));
      }
      texts.push(...texts.slice(0, 5_000));
      let differ = 0;
      let refused = 0;
      for (const t of texts) {
        const buf = Buffer.from(`,${t},`, 'latin1');
        const a = written((w) => text(t, w));
        const b = written((w) => bytes(buf, 1, buf.length - 1, w));
        if (a !== b) differ++;
        if (!/^[0-9a-f]+$/.test(a)) refused++;
      }
      expect(differ).toBe(0);
      // Some texts are refused (month 13, day 32, another shape) and some stored: both kinds compared.
      expect(refused).toBeGreaterThan(1000);
      expect(texts.length - refused).toBeGreaterThan(20_000);
    }
  });
});
