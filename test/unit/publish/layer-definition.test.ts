import { describe, expect, it } from 'vitest';
import {
  buildLayerDefinition,
  buildServiceDefinition,
} from '../../../activities/publish/layer-definition.js';
import type { LayerPlan, ServiceProperties } from '../../../db/schema/publish-request.js';

const service: ServiceProperties = {
  description: 'Libraries',
  copyrightText: 'City',
  maxRecordCount: -1,
  hasStaticData: false,
  capabilities: 'Query',
  hasAttachments: false,
  editorTrackingInfo: {},
  buildInitialCache: false,
  outputType: '',
};
const plan: LayerPlan = {
  id: 0,
  name: 'Branches',
  tableName: `f_${'b'.repeat(32)}_0`,
  headers: ['Name'],
  fields: [
    {
      name: 'Name',
      alias: 'Branch name',
      type: 'esriFieldTypeString',
      length: 256,
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
const sr = { wkid: 102100, latestWkid: 3857 };
const build = (overrides: Partial<Parameters<typeof buildLayerDefinition>[0]> = {}) =>
  buildLayerDefinition({
    plan,
    layerInfo: {},
    service,
    serviceItemId: 'b'.repeat(32),
    spatialReference: sr,
    extent: [1, 2, 3, 4],
    ...overrides,
  });

describe('buildLayerDefinition', () => {
  it('puts the object id field first and keeps field aliases and lengths', () => {
    const def = build();
    expect(def.fields).toEqual([
      expect.objectContaining({ name: 'OBJECTID', type: 'esriFieldTypeOID' }),
      expect.objectContaining({
        name: 'Name',
        alias: 'Branch name',
        length: 256,
        sqlType: 'sqlTypeNVarchar',
      }),
    ]);
    expect(def.extent).toEqual({ xmin: 1, ymin: 2, xmax: 3, ymax: 4, spatialReference: sr });
  });

  it('gives a point layer a simple marker renderer', () => {
    const def = build() as { drawingInfo: { renderer: { type: string; symbol: { type: string } } } };
    expect(def.drawingInfo.renderer.type).toBe('simple');
    expect(def.drawingInfo.renderer.symbol.type).toBe('esriSMS');
  });

  it('lets layerInfo set presentation keys but not what the data decides', () => {
    const def = build({
      layerInfo: { displayField: 'Name', minScale: 5000, geometryType: 'esriGeometryPolygon', fields: [] },
    });
    expect(def.displayField).toBe('Name');
    expect(def.minScale).toBe(5000);
    expect(def.geometryType).toBe('esriGeometryPoint');
    expect(def.fields).toHaveLength(2);
  });

  it('drops layerInfo keys that would claim what the server does not do', () => {
    const def = build({
      layerInfo: {
        supportsApplyEditsWithGlobalIds: true,
        supportedQueryFormats: 'JSON, geoJSON, PBF, esriCompressedShapeBuffer',
        advancedQueryCapabilities: { supportsQueryWithResultType: true },
        htmlPopupType: 'esriServerHTMLPopupTypeAsHTMLText',
        timeInfo: { startTimeField: 'Name' },
        displayField: 'NoSuchField',
        description: 'Branch libraries',
      },
    });
    expect(def.supportsApplyEditsWithGlobalIds).toBe(false);
    expect(def.supportedQueryFormats).toBe('JSON, geoJSON, PBF');
    expect((def.advancedQueryCapabilities as Record<string, boolean>).supportsQueryWithResultType).toBe(
      false,
    );
    expect(def.htmlPopupType).toBe('esriServerHTMLPopupTypeNone');
    expect(def).not.toHaveProperty('timeInfo');
    expect(def.displayField).toBe('Name');
    expect(def.description).toBe('Branch libraries');
  });

  it('says centroids are returned for polygon layers only', () => {
    const centroids = (d: Record<string, unknown>) =>
      (d.advancedQueryCapabilities as Record<string, boolean>).supportsReturningGeometryCentroid;
    expect(centroids(build())).toBe(false);
    expect(centroids(build({ plan: { ...plan, geometryType: 'esriGeometryPolygon' } }))).toBe(true);
  });

  it('uses 2000 features per query when maxRecordCount is -1, and a positive value as given', () => {
    expect(build().maxRecordCount).toBe(2000);
    expect(build({ service: { ...service, maxRecordCount: 250 } }).maxRecordCount).toBe(250);
    expect(
      build({ layerInfo: { maxRecordCount: -1 }, service: { ...service, maxRecordCount: 250 } })
        .maxRecordCount,
    ).toBe(250);
  });

  it('makes a layer without geometry a Table', () => {
    const def = build({ plan: { ...plan, geometryType: null, location: { type: 'none' } } });
    expect(def.type).toBe('Table');
    expect(def).not.toHaveProperty('geometryType');
  });
});

describe('buildServiceDefinition', () => {
  it('lists feature layers under layers and tables under tables', () => {
    const def = buildServiceDefinition({
      serviceItemId: 'b'.repeat(32),
      name: 'svc',
      service,
      spatialReference: sr,
      extent: null,
      layers: [
        build(),
        build({ plan: { ...plan, id: 1, name: 'T', geometryType: null, location: { type: 'none' } } }),
      ],
    });
    expect((def.layers as { id: number }[]).map((l) => l.id)).toEqual([0]);
    expect((def.tables as { id: number }[]).map((l) => l.id)).toEqual([1]);
    expect(def.units).toBe('esriMeters');
  });
});
