import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import {
  physicalIndexName,
  planAddToLayer,
  planDeleteFromLayer,
  planUpdateLayer,
  type StoredLayerSchema,
} from '../../../lib/service/definition-changes.js';

const TABLE = `f_${'a'.repeat(32)}_0`;
const layer = (): StoredLayerSchema => ({
  layerId: 0,
  tableName: TABLE,
  definition: {
    geometryType: 'esriGeometryPoint',
    displayField: 'Name',
    capabilities: 'Query',
    fields: [
      { name: 'OBJECTID', type: 'esriFieldTypeOID' },
      { name: 'Name', type: 'esriFieldTypeString', length: 50, alias: 'Name', nullable: true },
      { name: 'Pop', type: 'esriFieldTypeInteger', alias: 'Pop', nullable: true },
    ],
    indexes: [],
    editingInfo: { lastEditDate: 5 },
  },
  columns: [
    { name: 'Name', column: 'a_0' },
    { name: 'Pop', column: 'a_1' },
  ],
});

describe('admin definition plans', () => {
  it('adds a field on the next free column and an index over physical columns', () => {
    const plan = planAddToLayer(
      layer(),
      {
        fields: [{ name: 'Rank', type: 'esriFieldTypeSmallInteger', nullable: false }],
        indexes: [{ name: 'by_rank', fields: 'rank,Name', isAscending: false }],
      },
      100,
    );
    expect(plan.columns.at(-1)).toEqual({ name: 'Rank', column: 'a_2' });
    expect(plan.ops).toEqual([
      { kind: 'addColumn', column: 'a_2', sqlType: 'smallint' },
      { kind: 'notNull', column: 'a_2', field: 'Rank', required: true },
      {
        kind: 'createIndex',
        name: physicalIndexName(TABLE, 'by_rank'),
        columns: ['a_2', 'a_0'],
        unique: false,
        descending: true,
      },
    ]);
    expect(plan.definition.indexes).toEqual([
      { name: 'by_rank', fields: 'Rank,Name', isAscending: false, isUnique: false, description: '' },
    ]);
    expect(plan.definition.editingInfo).toEqual({ lastEditDate: 100, schemaLastEditDate: 100 });
  });

  it('names physical indexes within PostgreSQL identifier limits, the same for any case', () => {
    const name = physicalIndexName(TABLE, 'By_Rank');
    expect(name).toBe(physicalIndexName(TABLE, 'by_rank'));
    expect(name).toMatch(/^f_a{32}_0_ix_[0-9a-f]{8}$/);
    expect(name.length).toBeLessThanOrEqual(63);
  });

  it('refuses a field name taken in another case and a type without a column', () => {
    const add = (field: Record<string, unknown>) =>
      problem(() => planAddToLayer(layer(), { fields: [field] }, 1));
    expect(add({ name: 'name', type: 'esriFieldTypeString' })).toBe(
      "The layer already has a field named 'name'.",
    );
    expect(add({ name: 'G', type: 'esriFieldTypeGeometry' })).toMatch(
      /esriFieldTypeGeometry' cannot be added/,
    );
  });

  it('deleting a field drops its column and indexes and moves the display field to OBJECTID', () => {
    const base = planAddToLayer(layer(), { indexes: [{ name: 'n', fields: 'Name' }] }, 1);
    const plan = planDeleteFromLayer(
      { ...layer(), definition: base.definition, columns: base.columns },
      { fields: [{ name: 'Name' }] },
      2,
    );
    expect(plan.ops).toEqual([
      { kind: 'dropIndex', name: physicalIndexName(TABLE, 'n') },
      { kind: 'dropColumn', column: 'a_0' },
    ]);
    expect(plan.definition.displayField).toBe('OBJECTID');
    expect(plan.definition.indexes).toEqual([]);
    expect(plan.columns).toEqual([{ name: 'Pop', column: 'a_1' }]);
  });

  it('updates properties, refusing unknown ones, and marks drawing changes', () => {
    const plan = planUpdateLayer(
      layer(),
      { capabilities: 'query,editing', maxRecordCount: 10, drawingInfo: { renderer: { type: 'simple' } } },
      3,
    );
    expect(plan.definition.capabilities).toBe('query,editing');
    expect(plan.definition.maxRecordCount).toBe(10);
    expect(plan.drawingChanged).toBe(true);
    expect(problem(() => planUpdateLayer(layer(), { timeInfo: {} }, 3))).toMatch(
      /'timeInfo' cannot be changed/,
    );
    const retype = { fields: [{ name: 'Pop', type: 'esriFieldTypeDouble' }] };
    expect(problem(() => planUpdateLayer(layer(), retype, 3))).toBe("The type of 'Pop' cannot be changed.");
  });

  it('turning editor tracking on adds the four tracking fields after the data columns', () => {
    const plan = planUpdateLayer(layer(), { editorTrackingInfo: { enableEditorTracking: true } }, 4);
    expect(plan.columns.slice(2)).toEqual([
      { name: 'CreationDate', column: 'a_2' },
      { name: 'Creator', column: 'a_3' },
      { name: 'EditDate', column: 'a_4' },
      { name: 'Editor', column: 'a_5' },
    ]);
    expect(plan.ops.filter((o) => o.kind === 'fillTracking')).toEqual([
      { kind: 'fillTracking', column: 'a_2', value: 'now' },
      { kind: 'fillTracking', column: 'a_3', value: 'owner' },
      { kind: 'fillTracking', column: 'a_4', value: 'now' },
      { kind: 'fillTracking', column: 'a_5', value: 'owner' },
    ]);
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
