import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  coordinateReader,
  plainDecimal,
  plainDecimalBytes,
  tenByteKey,
} from '../../../activities/publish/cell-encoders.js';

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
  it('is one number per text of eight digits and two other characters, and -1 for any other', () => {
    const keys = new Map<number, string>();
    fc.assert(
      fc.property(tenChars, (s) => {
        const key = tenByteKey(Buffer.from(`,${s}`, 'latin1'), 1);
        const digits = s.replaceAll(/[^0-9]/g, '').length;
        if (digits !== 8) {
          expect(key).toBe(-1);
          return;
        }
        expect(Number.isSafeInteger(key) && key >= 0).toBe(true);
        const before = keys.get(key);
        if (before !== undefined) expect(before).toBe(s);
        keys.set(key, s);
      }),
      { numRuns: 20000 },
    );
    expect(tenByteKey(Buffer.from('2024-03-02'), 0)).not.toBe(tenByteKey(Buffer.from('20240-3-02'), 0));
    expect(tenByteKey(Buffer.from('2024-03-02'), 0)).not.toBe(tenByteKey(Buffer.from('2024/03/02'), 0));
  });
});
