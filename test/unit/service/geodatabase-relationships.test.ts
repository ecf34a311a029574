import { describe, expect, it } from 'vitest';
import { geodatabaseRelationships } from '../../../lib/service/geodatabase-relationships.js';

// The shape of GDAL's `ogrinfo -json` relationships, as gdal3.js prints them for related.gdb.zip.
const classes = {
  parks_inspections: {
    type: 'Composite',
    cardinality: 'OneToMany',
    left_table_name: 'parks',
    right_table_name: 'inspections',
    left_table_fields: ['park_id'],
    right_table_fields: ['park_ref'],
  },
  park_species: {
    type: 'Association',
    cardinality: 'ManyToMany',
    left_table_name: 'parks',
    right_table_name: 'species',
    left_table_fields: ['park_id'],
    right_table_fields: ['code'],
    mapping_table_name: 'park_species',
    left_mapping_table_fields: ['park'],
    right_mapping_table_fields: ['species_code'],
  },
};
const tables = [
  { layerId: 0, table: 'Parks' },
  { layerId: 1, table: 'inspections' },
  { layerId: 2, table: 'species' },
  { layerId: 3, table: 'park_species' },
];

describe('file geodatabase relationship classes', () => {
  it('become both sides of a relationship, numbered in the order of the class names', () => {
    const { byLayer, leftOut } = geodatabaseRelationships(classes, tables);
    expect(leftOut).toEqual([]);
    expect(byLayer.get(0)).toEqual([
      {
        id: 0,
        name: 'park_species',
        relatedTableId: 2,
        cardinality: 'esriRelCardinalityManyToMany',
        role: 'esriRelRoleOrigin',
        keyField: 'park_id',
        composite: false,
        relationshipTableId: 3,
        keyFieldInRelationshipTable: 'park',
      },
      {
        id: 1,
        name: 'parks_inspections',
        relatedTableId: 1,
        cardinality: 'esriRelCardinalityOneToMany',
        role: 'esriRelRoleOrigin',
        keyField: 'park_id',
        composite: true,
      },
    ]);
    expect(byLayer.get(1)).toEqual([
      {
        id: 1,
        name: 'parks_inspections',
        relatedTableId: 0,
        cardinality: 'esriRelCardinalityOneToMany',
        role: 'esriRelRoleDestination',
        keyField: 'park_ref',
        composite: true,
      },
    ]);
    expect(byLayer.get(2)?.[0]).toMatchObject({
      id: 0,
      role: 'esriRelRoleDestination',
      keyField: 'code',
      relationshipTableId: 3,
      keyFieldInRelationshipTable: 'species_code',
    });
    expect(byLayer.has(3)).toBe(false);
  });

  it('leaves out, with the reason, classes whose tables are not all published or whose keys are compound', () => {
    const { byLayer, leftOut } = geodatabaseRelationships(
      { ...classes, pairs: { ...classes.parks_inspections, left_table_fields: ['a', 'b'] } },
      tables.filter((t) => t.layerId !== 3),
    );
    expect(leftOut).toEqual([
      "Relationship class 'pairs' is left out: its keys are compound (a relationship relates one key field on each side).",
      "Relationship class 'park_species' is left out: its table 'park_species' is not published.",
    ]);
    expect(byLayer.get(0)?.map((r) => r.name)).toEqual(['parks_inspections']);
    expect(byLayer.get(0)?.[0].id).toBe(0);
  });

  it('names every table a class misses, and an unknown cardinality', () => {
    const { byLayer, leftOut } = geodatabaseRelationships(
      { ...classes, odd: { ...classes.parks_inspections, cardinality: 'ManyToOne' } },
      tables.filter((t) => t.layerId === 1),
    );
    expect(leftOut).toEqual([
      "Relationship class 'odd' is left out: its cardinality ManyToOne is not one-to-one, one-to-many or many-to-many.",
      "Relationship class 'park_species' is left out: its tables 'parks', 'species', 'park_species' are not published.",
      "Relationship class 'parks_inspections' is left out: its table 'parks' is not published.",
    ]);
    expect(byLayer.size).toBe(0);
  });

  it('lists a reflexive class twice on its layer, one entry per role with its own id', () => {
    const reinspections = {
      type: 'Association',
      cardinality: 'OneToMany',
      left_table_name: 'inspections',
      right_table_name: 'inspections',
      left_table_fields: ['inspection_id'],
      right_table_fields: ['follows'],
    };
    const { byLayer, leftOut } = geodatabaseRelationships({ ...classes, reinspections }, tables);
    expect(leftOut).toEqual([]);
    const own = { name: 'reinspections', relatedTableId: 1, cardinality: 'esriRelCardinalityOneToMany' };
    expect(byLayer.get(1)).toEqual([
      expect.objectContaining({ id: 1, name: 'parks_inspections', relatedTableId: 0 }),
      { id: 2, ...own, role: 'esriRelRoleOrigin', keyField: 'inspection_id', composite: false },
      { id: 3, ...own, role: 'esriRelRoleDestination', keyField: 'follows', composite: false },
    ]);
    // Classes after it take the ids after both of its entries.
    const later = geodatabaseRelationships({ a_self: reinspections, b: classes.parks_inspections }, tables);
    expect(later.byLayer.get(0)?.[0]).toMatchObject({ id: 2, name: 'b' });
  });
});
