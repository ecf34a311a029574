import { describe, expect, it } from 'vitest';
import {
  checkedValue,
  columnValues,
  defaultColumnValues,
  type EditableField,
  fieldRulesProblem,
} from '../../../lib/edit/attribute-values.js';
import { EditFailure } from '../../../lib/edit/edit-errors.js';
import { fieldDomainOf } from '../../../lib/edit/field-domains.js';

// Domains as the layer JSON stores them (GeoPackage constraints, the admin API).
const kinds = {
  type: 'codedValue',
  name: 'Kinds',
  codedValues: [
    { name: 'Pier', code: 'pier' },
    { name: 'Lock', code: 'lock' },
  ],
};
const grades = {
  type: 'codedValue',
  name: 'Grades',
  codedValues: [
    { name: 'Low', code: 1 },
    { name: 'High', code: 3 },
  ],
};
const depths = { type: 'range', name: 'Depths', range: [0.5, 12] };
const opened = { type: 'range', name: 'Opened', range: [Date.UTC(2000, 0, 1), Date.UTC(2030, 0, 1)] };

const field = (
  name: string,
  type: EditableField['type'],
  domain: unknown,
  extra: Partial<EditableField> = {},
) =>
  ({ name, type, column: 'a_0', editable: true, domain: fieldDomainOf(domain), ...extra }) as EditableField;

const failure = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof EditFailure) return e.error;
    throw e;
  }
  throw new Error('no failure');
};

describe('field domains on edited values', () => {
  it('a coded-value domain takes its codes, compared in the field type (text "3" is the integer 3)', () => {
    expect(checkedValue(field('Kind', 'esriFieldTypeString', kinds), 'lock')).toBe('lock');
    expect(checkedValue(field('Grade', 'esriFieldTypeInteger', grades), '3')).toBe(3);
    expect(failure(() => checkedValue(field('Kind', 'esriFieldTypeString', kinds), 'Lock'))).toEqual({
      code: 1016,
      description: `Setting of value for Kind failed: "Lock" is not one of the coded values of domain 'Kinds'.`,
    });
    expect(failure(() => checkedValue(field('Grade', 'esriFieldTypeInteger', grades), 2)).code).toBe(1016);
  });

  it('a range domain takes values between its bounds, both included', () => {
    const depth = field('Depth', 'esriFieldTypeDouble', depths);
    expect(checkedValue(depth, 0.5)).toBe(0.5);
    expect(checkedValue(depth, 12)).toBe(12);
    expect(failure(() => checkedValue(depth, 12.25))).toEqual({
      code: 1016,
      description:
        "Setting of value for Depth failed: 12.25 is outside the range 0.5..12 of domain 'Depths'.",
    });
    expect(failure(() => checkedValue(depth, 0.4)).code).toBe(1016);
  });

  it('a range over a date field compares instants in epoch milliseconds', () => {
    const date = field('Opened', 'esriFieldTypeDate', opened);
    expect(checkedValue(date, Date.UTC(2020, 4, 1))).toBe('2020-05-01T00:00:00.000Z');
    expect(failure(() => checkedValue(date, Date.UTC(1999, 11, 31))).code).toBe(1016);
  });

  it('null follows nullable, whatever the domain', () => {
    expect(checkedValue(field('Kind', 'esriFieldTypeString', kinds), null)).toBeNull();
    expect(
      failure(() => checkedValue(field('Kind', 'esriFieldTypeString', kinds, { nullable: false }), null)),
    ).toEqual({
      code: 1001,
      description: 'Field: Kind is not nullable. Cannot set null value.',
    });
  });

  it('columnValues applies the domains of the fields it is given', () => {
    const fields = [
      field('Kind', 'esriFieldTypeString', kinds),
      field('Depth', 'esriFieldTypeDouble', depths),
    ];
    expect(columnValues({ kind: 'pier', depth: 3 }, fields, 'OBJECTID').map((v) => v.value)).toEqual([
      'pier',
      3,
    ]);
    expect(failure(() => columnValues({ Depth: 20 }, fields, 'OBJECTID')).code).toBe(1016);
  });

  it('an add gets the defaults of the fields it leaves out and fails without a required one', () => {
    const fields = [
      field('Kind', 'esriFieldTypeString', kinds, { defaultValue: 'pier' }),
      field('Depth', 'esriFieldTypeDouble', null, { nullable: false }),
      field('Note', 'esriFieldTypeString', null),
    ];
    expect(defaultColumnValues({ Depth: 2 }, fields)).toEqual([
      { column: 'a_0', sqlType: 'text', value: 'pier' },
    ]);
    expect(failure(() => defaultColumnValues({ Kind: 'lock' }, fields)).code).toBe(1001);
  });

  it('a domain or default the field type cannot hold is a problem of the definition', () => {
    expect(fieldRulesProblem(field('Kind', 'esriFieldTypeString', depths))).toBe(
      "A range domain needs a numeric or date field; 'Kind' is esriFieldTypeString.",
    );
    expect(fieldRulesProblem(field('Grade', 'esriFieldTypeInteger', kinds))).toBe(
      `A coded value of 'Grade': Setting of value for Grade failed: "pier" is not an integer.`,
    );
    expect(fieldRulesProblem(field('Depth', 'esriFieldTypeDouble', depths, { defaultValue: 40 }))).toMatch(
      /^The defaultValue of 'Depth': .*40 is outside the range 0.5..12/,
    );
    expect(fieldRulesProblem(field('Depth', 'esriFieldTypeDouble', depths, { defaultValue: 4 }))).toBeNull();
  });
});
