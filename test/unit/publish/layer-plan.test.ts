import { describe, expect, it } from 'vitest';
import { planLayer } from '../../../activities/publish/layer-plan.js';
import type { LayerRequest } from '../../../db/schema/publish-request.js';

const sample = {
  headers: ['Branch Name', 'Visitors', 'Lat', 'Lon'],
  rows: [
    ['Austin', '60211', '41.88', '-87.76'],
    ['Uptown', '88017', '41.96', '-87.65'],
    ['Broken', '5', 'n/a', '-87.6'],
  ],
};
const layer = (over: Partial<LayerRequest> = {}): LayerRequest => ({
  id: 0,
  name: 'branches',
  location: { type: 'coordinates' },
  layerInfo: {},
  ...over,
});
const plan = (l: LayerRequest) =>
  planLayer({
    serviceItemId: 'c'.repeat(32),
    layer: l,
    sample,
    source: { kind: 'features' },
    sourceSR: { wkid: 4326 },
  });

describe('planLayer', () => {
  it('finds the coordinate columns by name even when a sample row is broken', () => {
    expect(plan(layer()).location).toEqual({ type: 'coordinates', xIndex: 3, yIndex: 2 });
  });

  it('names fields validly, keeps the header as alias and gives each a physical column', () => {
    const p = plan(layer());
    expect(p.fields.map((f) => [f.name, f.alias, f.type, f.column])).toEqual([
      ['Branch_Name', 'Branch Name', 'esriFieldTypeString', 'a_0'],
      ['Visitors', 'Visitors', 'esriFieldTypeInteger', 'a_1'],
      ['Lat', 'Lat', 'esriFieldTypeString', 'a_2'],
      ['Lon', 'Lon', 'esriFieldTypeDouble', 'a_3'],
    ]);
    expect(p.tableName).toBe(`f_${'c'.repeat(32)}_0`);
  });

  it('takes a domain from layerInfo.fields, checked against the field type', () => {
    const visitors = { type: 'range', name: 'Visitors', range: [0, 100000] };
    const p = plan(layer({ layerInfo: { fields: [{ name: 'Visitors', domain: visitors }] } }));
    expect(p.fields).toEqual([expect.objectContaining({ name: 'Visitors', domain: visitors })]);
    const nullKept = plan(layer({ layerInfo: { fields: [{ name: 'Visitors', domain: null }] } }));
    expect(nullKept.fields[0].domain).toBeUndefined();
    const textCodes = { type: 'codedValue', name: 'V', codedValues: [{ name: 'many', code: 'many' }] };
    expect(() => plan(layer({ layerInfo: { fields: [{ name: 'Visitors', domain: textCodes }] } }))).toThrow(
      /Invalid publishParameters/,
    );
  });

  it('keeps only the fields layerInfo lists, with their names, aliases and types', () => {
    const p = plan(
      layer({
        layerInfo: {
          fields: [
            { name: 'Branch Name', alias: 'Branch', type: 'esriFieldTypeString', length: 50 },
            { name: 'Visitors', type: 'esriFieldTypeDouble' },
          ],
        },
      }),
    );
    expect(p.fields.map((f) => [f.name, f.alias, f.type, f.length])).toEqual([
      ['Branch_Name', 'Branch', 'esriFieldTypeString', 256],
      ['Visitors', 'Visitors', 'esriFieldTypeDouble', undefined],
    ]);
  });

  it('names a missing coordinate column in the error', () => {
    expect(() =>
      plan(layer({ location: { type: 'coordinates', latitudeFieldName: 'y', longitudeFieldName: 'Lon' } })),
    ).toThrow(/Invalid publishParameters/);
  });

  it('publishes a table when the location type is none', () => {
    const p = plan(layer({ location: { type: 'none' } }));
    expect([p.geometryType, p.location]).toEqual([null, { type: 'none' }]);
  });
});
