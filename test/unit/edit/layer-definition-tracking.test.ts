import { describe, expect, it } from 'vitest';
import { buildLayerDefinition } from '../../../activities/publish/layer-definition.js';
import type { LayerPlan, ServiceProperties } from '../../../db/schema/publish-request.js';
import { editLayerOf } from '../../../lib/edit/edit-layer.js';

const service = (editorTrackingInfo: Record<string, boolean>): ServiceProperties => ({
  description: '',
  copyrightText: '',
  maxRecordCount: -1,
  hasStaticData: false,
  capabilities: 'Query,Editing',
  hasAttachments: true,
  editorTrackingInfo,
  buildInitialCache: false,
  outputType: '',
});

const plan: LayerPlan = {
  id: 0,
  name: 'Stations',
  tableName: `f_${'c'.repeat(32)}_0`,
  headers: ['Name'],
  fields: [
    {
      name: 'Name',
      alias: 'Name',
      type: 'esriFieldTypeString',
      length: 64,
      sourceIndex: 0,
      column: 'a_0',
      locationType: 'unknown',
    },
  ],
  geometryType: 'esriGeometryPoint',
  location: { type: 'coordinates', xIndex: 1, yIndex: 2 },
  source: { kind: 'features' },
  sourceSR: { wkid: 4326 },
  decimalComma: false,
};

const build = (info: Record<string, boolean>) =>
  buildLayerDefinition({
    plan,
    layerInfo: {},
    service: service(info),
    serviceItemId: 'c'.repeat(32),
    spatialReference: { wkid: 102100, latestWkid: 3857 },
    extent: null,
  });

describe('editor tracking in the layer resource', () => {
  it('adds the four tracking fields, not editable, and names them in editFieldsInfo', () => {
    const def = build({ enableEditorTracking: true });
    const fields = def.fields as { name: string; type: string; editable: boolean }[];
    expect(fields.slice(2).map((f) => [f.name, f.type, f.editable])).toEqual([
      ['CreationDate', 'esriFieldTypeDate', false],
      ['Creator', 'esriFieldTypeString', false],
      ['EditDate', 'esriFieldTypeDate', false],
      ['Editor', 'esriFieldTypeString', false],
    ]);
    expect(def.editFieldsInfo).toEqual({
      creationDateField: 'CreationDate',
      creatorField: 'Creator',
      editDateField: 'EditDate',
      editorField: 'Editor',
    });
  });

  it('without editor tracking the layer has neither', () => {
    const def = build({ enableEditorTracking: false });
    expect((def.fields as unknown[]).length).toBe(2);
    expect(def.editFieldsInfo).toBeUndefined();
  });

  it('the edit code finds the tracking columns through editFieldsInfo', () => {
    const def = build({ enableEditorTracking: true });
    const layer = editLayerOf(0, plan.tableName, def, [
      { name: 'OBJECTID', column: 'objectid' },
      { name: 'Name', column: 'a_0' },
      { name: 'CreationDate', column: 'a_1' },
      { name: 'Creator', column: 'a_2' },
      { name: 'EditDate', column: 'a_3' },
      { name: 'Editor', column: 'a_4' },
    ]);
    expect(layer.tracking.creatorField).toEqual({ name: 'Creator', column: 'a_2' });
    expect(layer.fields.find((f) => f.name === 'Editor')?.editable).toBe(false);
    expect(layer.capabilities).toMatchObject({ create: true, update: true, delete: true });
    expect(layer.hasAttachments).toBe(true);
  });
});
