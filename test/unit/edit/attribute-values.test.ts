import { describe, expect, it } from 'vitest';
import { columnValues, type EditableField, fieldValue } from '../../../lib/edit/attribute-values.js';
import { EditFailure } from '../../../lib/edit/edit-errors.js';

const fields: EditableField[] = [
  { name: 'Name', type: 'esriFieldTypeString', column: 'a_0', length: 5, editable: true },
  { name: 'Visits', type: 'esriFieldTypeSmallInteger', column: 'a_1', editable: true },
  { name: 'Depth', type: 'esriFieldTypeDouble', column: 'a_2', editable: true },
  { name: 'Opened', type: 'esriFieldTypeDate', column: 'a_3', editable: true },
  { name: 'Day', type: 'esriFieldTypeDateOnly', column: 'a_4', editable: true },
  { name: 'Creator', type: 'esriFieldTypeString', column: 'a_5', editable: false },
];

const failure = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof EditFailure) return e.error.description;
    throw e;
  }
  throw new Error('no failure');
};

describe('attribute values checked against field types', () => {
  it('maps names case-insensitively to columns with their SQL types, skipping the object id and system fields', () => {
    const values = columnValues(
      { objectid: 9, name: 'Pier', VISITS: '12', Depth: 2.5, Creator: 'mallory' },
      fields,
      'OBJECTID',
    );
    expect(values).toEqual([
      { column: 'a_0', sqlType: 'text', value: 'Pier' },
      { column: 'a_1', sqlType: 'smallint', value: 12 },
      { column: 'a_2', sqlType: 'double precision', value: 2.5 },
    ]);
  });

  it('dates arrive as epoch milliseconds and leave as ISO instants', () => {
    expect(fieldValue(fields[3], Date.UTC(2020, 4, 1))).toBe('2020-05-01T00:00:00.000Z');
    expect(fieldValue(fields[3], '1588291200000')).toBe('2020-05-01T00:00:00.000Z');
    expect(failure(() => fieldValue(fields[3], 'yesterday'))).toBe(
      'Setting of value for Opened failed: "yesterday" is not a date (epoch milliseconds).',
    );
  });

  it('refuses text longer than the field, integers out of range and non-numbers', () => {
    expect(failure(() => fieldValue(fields[0], 'Harbour'))).toBe(
      "Setting of value for Name failed: the text is longer than the field's length of 5.",
    );
    expect(failure(() => fieldValue(fields[1], 40000))).toBe(
      'Setting of value for Visits failed: 40000 is outside -32768..32767.',
    );
    expect(failure(() => fieldValue(fields[2], 'deep'))).toBe(
      'Setting of value for Depth failed: "deep" is not a number.',
    );
    expect(failure(() => fieldValue(fields[4], '2020-13-45'))).toContain('is not a date written yyyy-mm-dd');
  });

  it('null clears a value; an unknown field fails the edit', () => {
    expect(fieldValue(fields[2], null)).toBeNull();
    expect(failure(() => columnValues({ Colour: 'red' }, fields, 'OBJECTID'))).toBe(
      "Field 'Colour' does not exist in this layer.",
    );
  });
});
