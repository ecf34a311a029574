import { describe, expect, it } from 'vitest';
import { classValue, legendClasses, rendererSymbol } from '../../../lib/render/renderer-symbols.js';
import type { ClassBreaksRenderer, EsriSymbol, UniqueValueRenderer } from '../../../lib/render/types.js';

const sms = (r: number): EsriSymbol => ({
  type: 'esriSMS',
  style: 'esriSMSCircle',
  color: [r, 0, 0, 255],
  size: 8,
});
const [A, B, C, D] = [sms(1), sms(2), sms(3), sms(4)];

describe('unique value renderer', () => {
  const renderer: UniqueValueRenderer = {
    type: 'uniqueValue',
    field1: 'kind',
    defaultSymbol: D,
    defaultLabel: 'Other',
    uniqueValueInfos: [
      { value: 'school', symbol: A, label: 'Schools' },
      { value: '12', symbol: B },
      { value: '<Null>', symbol: C, label: 'Unknown' },
    ],
  };

  it('picks the symbol whose value matches the field', () => {
    expect(rendererSymbol(renderer, { kind: 'school' })).toBe(A);
  });

  it('matches numbers by their string form', () => {
    expect(rendererSymbol(renderer, { kind: 12 })).toBe(B);
  });

  it('matches a null value to the <Null> class', () => {
    expect(rendererSymbol(renderer, { kind: null })).toBe(C);
  });

  it('falls back to the default symbol', () => {
    expect(rendererSymbol(renderer, { kind: 'park' })).toBe(D);
  });

  it('joins several fields with the field delimiter', () => {
    const two: UniqueValueRenderer = {
      type: 'uniqueValue',
      field1: 'a',
      field2: 'b',
      fieldDelimiter: '|',
      uniqueValueInfos: [{ value: 'x|1', symbol: A }],
    };
    expect(rendererSymbol(two, { a: 'x', b: 1 })).toBe(A);
    expect(rendererSymbol(two, { a: 'x', b: 2 })).toBeUndefined();
  });

  it('reads classes from unique value groups', () => {
    const grouped: UniqueValueRenderer = {
      type: 'uniqueValue',
      field1: 'a',
      uniqueValueGroups: [{ classes: [{ label: 'AB', symbol: B, values: [['a'], ['b']] }] }],
    };
    expect(rendererSymbol(grouped, { a: 'b' })).toBe(B);
  });

  it('lists legend classes in order with the default last', () => {
    expect(legendClasses(renderer).map((c) => c.label)).toEqual(['Schools', '12', 'Unknown', 'Other']);
  });
});

describe('class breaks renderer', () => {
  const renderer: ClassBreaksRenderer = {
    type: 'classBreaks',
    field: 'pop',
    minValue: 0,
    defaultSymbol: D,
    classBreakInfos: [
      { classMaxValue: 100, symbol: B, label: 'mid' },
      { classMaxValue: 10, symbol: A, label: 'low' },
      { classMaxValue: 1000, symbol: C },
    ],
  };

  it('includes the minimum in the first class', () => {
    expect(rendererSymbol(renderer, { pop: 0 })).toBe(A);
  });

  it('puts a value equal to a class maximum in that class', () => {
    expect(rendererSymbol(renderer, { pop: 10 })).toBe(A);
    expect(rendererSymbol(renderer, { pop: 10.5 })).toBe(B);
  });

  it('gives values out of every class the default symbol', () => {
    expect(rendererSymbol(renderer, { pop: 5000 })).toBe(D);
    expect(rendererSymbol(renderer, { pop: -1 })).toBe(D);
    expect(rendererSymbol(renderer, { pop: null })).toBe(D);
  });

  it('normalizes by a field before classifying', () => {
    const byArea: ClassBreaksRenderer = {
      ...renderer,
      normalizationType: 'esriNormalizeByField',
      normalizationField: 'area',
    };
    expect(classValue(byArea, { pop: 500, area: 5 })).toBe(100);
    expect(rendererSymbol(byArea, { pop: 500, area: 5 })).toBe(B);
  });

  it('labels classes without a label by their range', () => {
    expect(legendClasses(renderer).map((c) => c.label)).toEqual([
      'low',
      'mid',
      '100 - 1000',
      '<all other values>',
    ]);
  });
});
