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
      'pairs: its keys are not single fields',
      'park_species: not all of its tables are published',
    ]);
    expect(byLayer.get(0)?.map((r) => r.name)).toEqual(['parks_inspections']);
    expect(byLayer.get(0)?.[0].id).toBe(0);
  });
});
