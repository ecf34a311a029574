import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import { parseLayerDefs } from '../../../lib/service/layer-defs.js';

describe('parseLayerDefs', () => {
  it('splits the simple form on semicolons outside quoted literals', () => {
    expect(parseLayerDefs("0:POP > 1000;2:NAME = 'a;b' AND X = 1")).toEqual([
      { layerId: 0, where: 'POP > 1000' },
      { layerId: 2, where: "NAME = 'a;b' AND X = 1" },
    ]);
  });

  it('keeps a colon inside the where clause of the simple form', () => {
    expect(parseLayerDefs("1:T = '12:30'")).toEqual([{ layerId: 1, where: "T = '12:30'" }]);
  });

  it('reads the JSON object and array forms', () => {
    expect(parseLayerDefs('{"0":"A = 1","3":"B = 2"}')).toEqual([
      { layerId: 0, where: 'A = 1' },
      { layerId: 3, where: 'B = 2' },
    ]);
    expect(parseLayerDefs('[{"layerId":2,"where":"C > 0","outFields":"C,D"},{"layerId":"4"}]')).toEqual([
      { layerId: 2, where: 'C > 0', outFields: 'C,D' },
      { layerId: 4, where: undefined, outFields: undefined },
    ]);
  });

  it('refuses layers named twice, bad ids, unknown keys and malformed text', () => {
    expect(problem(() => parseLayerDefs('0:A=1;0:B=2'))).toMatch(/named twice/);
    expect(problem(() => parseLayerDefs('x:A=1'))).toMatch(/not a layer id/);
    expect(problem(() => parseLayerDefs('[{"layerId":0,"groupBy":"A"}]'))).toMatch(/groupBy/);
    expect(problem(() => parseLayerDefs('[{"where":"A=1"}]'))).toMatch(/no layerId/);
    expect(problem(() => parseLayerDefs('{"0":5}'))).toMatch(/where must be a string/);
    expect(problem(() => parseLayerDefs('A = 1'))).toMatch(/layerId:where/);
    expect(problem(() => parseLayerDefs('['))).toMatch(/not valid JSON/);
    expect(problem(() => parseLayerDefs('[]'))).toMatch(/no layer is named/);
  });
});

/** The detail of the 400 a call throws: each refusal names its problem there. */
function problem(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    if (e instanceof GeoError) return e.toBody().details.join(' ');
    throw e;
  }
  throw new Error('no error thrown');
}
