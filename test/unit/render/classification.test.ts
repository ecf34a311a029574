import { describe, expect, it } from 'vitest';
import { classify, parseClassificationMethod } from '../../../lib/render/classification.js';
import {
  buildClassBreaksRenderer,
  buildUniqueValueRenderer,
  rampColors,
} from '../../../lib/render/renderer-builder.js';
import { rendererSymbol } from '../../../lib/render/renderer-symbols.js';

const VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

describe('classification', () => {
  it('splits the range into equal intervals', () => {
    expect(classify(VALUES, 'esriClassifyEqualInterval', 3)).toEqual([4, 7, 10]);
  });

  it('puts an equal number of values in each quantile', () => {
    expect(classify(VALUES, 'esriClassifyQuantile', 5)).toEqual([2, 4, 6, 8, 10]);
  });

  it('finds the natural gaps between clusters', () => {
    expect(classify([1, 2, 3, 20, 21, 22, 50, 51, 52], 'esriClassifyNaturalBreaks', 3)).toEqual([3, 22, 52]);
  });

  it('breaks every defined interval', () => {
    expect(classify([3, 17, 41], 'esriClassifyDefinedInterval', 0, { interval: 10 })).toEqual([
      10, 20, 30, 40, 41,
    ]);
  });

  it('grows geometrical intervals by a constant ratio', () => {
    const breaks = classify([1, 10, 100, 1000], 'esriClassifyGeometricalInterval', 3);
    expect(breaks.map((b) => Math.round(b))).toEqual([10, 100, 1000]);
  });

  it('centres standard-deviation classes on the mean', () => {
    const breaks = classify([0, 10, 10, 10, 20], 'esriClassifyStandardDeviation', 0);
    // mean 10, sd √40 ≈ 6.32: breaks at 10 ± 3.16, then a whole sd further while inside the data.
    expect(breaks.map((b) => Number(b.toFixed(2)))).toEqual([0.51, 6.84, 13.16, 19.49, 20]);
  });

  it('returns one class for constant data and none for no data', () => {
    expect(classify([5, 5, 5], 'esriClassifyQuantile', 4)).toEqual([5]);
    expect(classify([], 'esriClassifyQuantile', 4)).toEqual([]);
  });

  it('reads method names with either vendor prefix', () => {
    expect(parseClassificationMethod('geoClassifyQuantile')).toBe('esriClassifyQuantile');
    expect(parseClassificationMethod('esriClassifyNaturalBreaks')).toBe('esriClassifyNaturalBreaks');
    expect(() => parseClassificationMethod('byMood')).toThrowError(expect.objectContaining({ code: 400 }));
  });
});

describe('renderer building', () => {
  const ramp = { type: 'algorithmic' as const, fromColor: [0, 0, 0, 255], toColor: [200, 100, 0, 255] };
  const base = { type: 'esriSFS' as const, style: 'esriSFSSolid', color: [0, 0, 0, 255] };

  it('spreads ramp colors from the first color to the last', () => {
    expect(rampColors(ramp, 3)).toEqual([
      [0, 0, 0, 255],
      [100, 50, 0, 255],
      [200, 100, 0, 255],
    ]);
  });

  it('builds a class breaks renderer whose classes select the right symbols', () => {
    const renderer = buildClassBreaksRenderer({
      field: 'v',
      minValue: 1,
      breaks: [4, 7, 10],
      baseSymbol: base,
      colorRamp: ramp,
    });
    expect(renderer.classBreakInfos.map((c) => c.label)).toEqual(['1 - 4', '4 - 7', '7 - 10']);
    expect(rendererSymbol(renderer, { v: 5 })).toEqual({ ...base, color: [100, 50, 0, 255] });
  });

  it('builds a unique value renderer over value tuples', () => {
    const renderer = buildUniqueValueRenderer({
      fields: ['a', 'b'],
      values: [
        ['x', 1],
        ['y', null],
      ],
      baseSymbol: base,
      colorRamp: ramp,
    });
    expect(renderer.uniqueValueInfos?.map((u) => u.value)).toEqual(['x,1', 'y,<Null>']);
    expect(rendererSymbol(renderer, { a: 'y', b: null })).toEqual({ ...base, color: [200, 100, 0, 255] });
  });
});
