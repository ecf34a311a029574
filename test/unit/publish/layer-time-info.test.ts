import { describe, expect, it } from 'vitest';
import { timeFieldsOf, timeInfoResource } from '../../../activities/publish/layer-time-info.js';
import type { LayerPlan } from '../../../db/schema/publish-request.js';
import { GeoError } from '../../../lib/errors.js';

const field = (name: string, type: LayerPlan['fields'][number]['type'], i: number) => ({
  name,
  alias: name,
  type,
  sourceIndex: i,
  column: `a_${i}`,
  locationType: 'unknown',
});
const plan: LayerPlan = {
  id: 0,
  name: 'Events',
  tableName: `f_${'e'.repeat(32)}_0`,
  headers: ['Name', 'Starts', 'Ends'],
  fields: [
    field('Name', 'esriFieldTypeString', 0),
    field('Starts', 'esriFieldTypeDate', 1),
    field('Ends', 'esriFieldTypeDate', 2),
  ],
  geometryType: 'esriGeometryPoint',
  location: { type: 'coordinates', xIndex: 3, yIndex: 4 },
  source: { kind: 'features' },
  sourceSR: { wkid: 4326 },
  decimalComma: false,
};
const problem = (run: () => unknown): string => {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(GeoError);
    return (e as GeoError).details.join(' ');
  }
  throw new Error('expected an error');
};

describe('timeInfo from layerInfo', () => {
  it('finds the start and end fields in any case, with their columns', () => {
    expect(timeFieldsOf(plan, { timeInfo: { startTimeField: 'starts', endTimeField: 'ENDS' } })).toEqual({
      start: { name: 'Starts', column: 'a_1' },
      end: { name: 'Ends', column: 'a_2' },
    });
    expect(timeFieldsOf(plan, { timeInfo: { startTimeField: 'Starts' } })?.end).toBeNull();
    expect(timeFieldsOf(plan, {})).toBeNull();
  });

  it('fails the publish for a missing or non-date field', () => {
    expect(problem(() => timeFieldsOf(plan, { timeInfo: { startTimeField: 'When' } }))).toMatch(
      /not a field of layer 'Events'/,
    );
    expect(problem(() => timeFieldsOf(plan, { timeInfo: { startTimeField: 'Name' } }))).toMatch(
      /esriFieldTypeString, not a date/,
    );
    expect(problem(() => timeFieldsOf(plan, { timeInfo: { endTimeField: 'Ends' } }))).toMatch(
      /startTimeField/,
    );
  });

  it('serves the field names and the extent of the data, in UTC', () => {
    const fields = timeFieldsOf(plan, { timeInfo: { startTimeField: 'Starts', endTimeField: 'Ends' } })!;
    expect(timeInfoResource(fields, [0, 86400000])).toEqual({
      startTimeField: 'Starts',
      endTimeField: 'Ends',
      trackIdField: null,
      timeExtent: [0, 86400000],
      timeReference: null,
      hasLiveData: false,
    });
  });
});
