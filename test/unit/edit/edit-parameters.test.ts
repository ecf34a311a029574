import { describe, expect, it } from 'vitest';
import {
  readFeatures,
  readLayerEdits,
  readObjectIdList,
  readServiceEdits,
} from '../../../lib/edit/edit-parameters.js';

describe('edit parameters', () => {
  it('features are a JSON array of {attributes, geometry}', () => {
    expect(
      readFeatures('features', '[{"attributes":{"A":1},"geometry":{"x":1,"y":2}},{"attributes":{}}]'),
    ).toEqual([{ attributes: { A: 1 }, geometry: { x: 1, y: 2 } }, { attributes: {} }]);
    expect(() => readFeatures('features', '{"attributes":')).toThrow('Unable to complete operation.');
    expect(() => readFeatures('features', '[1]')).toThrow();
  });

  it('deletes take a comma list or a JSON array and drop duplicates', () => {
    expect(readObjectIdList('deletes', '3, 1,3')).toEqual([3, 1]);
    expect(readObjectIdList('deletes', '[4,5]')).toEqual([4, 5]);
    expect(() => readObjectIdList('deletes', '1 OR 1=1')).toThrow();
  });

  it('applyEdits reads adds, updates and deletes; the service form reads them per layer', () => {
    expect(readLayerEdits({ deletes: '2' })).toEqual({ adds: [], updates: [], deletes: [2] });
    expect(readServiceEdits('[{"id":1,"deletes":[7],"adds":[{"attributes":{"A":1}}]}]')).toEqual([
      { id: 1, adds: [{ attributes: { A: 1 } }], updates: [], deletes: [7] },
    ]);
    expect(() => readServiceEdits('[{"id":1},{"id":1}]')).toThrow();
  });
});
