import { describe, expect, it } from 'vitest';
import { inferFields, localeConventions, parseCellValue } from '../../../lib/ingest/index.js';

describe('localeConventions', () => {
  it('reads the decimal mark and the short-date order of a locale from CLDR', () => {
    expect(localeConventions('de')).toMatchObject({ decimalComma: true, dateOrder: 'dmy' });
    expect(localeConventions('fr-FR')).toMatchObject({ decimalComma: true, dateOrder: 'dmy' });
    expect(localeConventions('en-US')).toMatchObject({ decimalComma: false, dateOrder: 'mdy' });
    expect(localeConventions('en_GB')).toMatchObject({
      locale: 'en-GB',
      decimalComma: false,
      dateOrder: 'dmy',
    });
    expect(localeConventions('ja')).toMatchObject({ decimalComma: false, dateOrder: 'ymd' });
  });

  it('answers null for text that is not a locale tag', () => {
    expect(localeConventions('not a locale!')).toBeNull();
  });
});

describe('inference in a locale', () => {
  const sample = {
    names: ['opened', 'price'],
    columns: [
      ['03/05/2024', '11/04/2024'],
      ['3,5', '12,25'],
    ],
  };

  it('reads short dates that fit both orders in the locale order, and decimal commas', () => {
    const [opened, price] = inferFields(sample, { decimalComma: true, dateOrder: 'dmy' });
    expect(opened).toMatchObject({ type: 'esriFieldTypeDate', dateFormat: 'dmy' });
    expect(price.type).toBe('esriFieldTypeDouble');
    const parsed = parseCellValue('03/05/2024', opened, {});
    expect(parsed.ok && new Date(parsed.value as number).toISOString()).toBe('2024-05-03T00:00:00.000Z');
    expect(parseCellValue('12,25', price, { decimalComma: true })).toEqual({ ok: true, value: 12.25 });
  });

  it('keeps month first without a locale, and lets a value that fits one order only decide', () => {
    expect(inferFields(sample)[0].dateFormat).toBe('mdy');
    const settled = { names: ['d'], columns: [['03/05/2024', '03/25/2024']] };
    expect(inferFields(settled, { dateOrder: 'dmy' })[0].dateFormat).toBe('mdy');
  });
});
