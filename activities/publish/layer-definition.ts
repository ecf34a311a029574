/**
 * The layer and service resources of a hosted feature service, built once when a layer is loaded
 * and stored as JSON: the FeatureServer endpoints serve them as they are. Of the publisher's
 * layerInfo only the keys this server honours are taken (LAYER_INFO_KEYS); everything a layer claims
 * to support (supports* flags, advancedQueryCapabilities, supportedQueryFormats) is decided here, by
 * what the query engine does, never copied from a request.
 */

import type { LayerPlan, ServiceProperties } from '../../db/schema/publish-request.js';
import {
  editFieldsInfoOf,
  type TrackingField,
  trackingFieldResource,
  trackingFieldsFor,
} from '../../lib/edit/editor-tracking.js';
import type { Bounds, EsriGeometryType, SpatialReference } from '../../lib/geometry/types.js';
import { sqlTypeOf } from '../../lib/ingest/index.js';
import { effectiveMaxRecordCount } from '../../lib/query/query-limits.js';
import { readRelationships } from '../../lib/service/relationships.js';

export const OBJECT_ID_FIELD = 'OBJECTID';
export const CURRENT_VERSION = 11.2;
/** What maxRecordCount -1 ("use the standard") means for a hosted layer. */
export const DEFAULT_MAX_RECORD_COUNT = 2000;

/**
 * The layerInfo keys a publisher may set, each honoured where it is read: descriptions, drawing and
 * visibility, paging size, capabilities, attachments and editor tracking (the edit routes and
 * ownership rules read them from the layer), templates. timeInfo is checked and rebuilt separately
 * (layer-time-info.ts), relationships are checked (lib/service/relationships.ts). Any other key (a
 * capability flag, types, an HTML popup type)
 * is dropped: analyze hands back a whole layer resource, which clients send back as layerInfo.
 */
const LAYER_INFO_KEYS = new Set([
  'name',
  'description',
  'copyrightText',
  'displayField',
  'drawingInfo',
  'defaultVisibility',
  'minScale',
  'maxScale',
  'maxRecordCount',
  'capabilities',
  'hasAttachments',
  'editorTrackingInfo',
  'templates',
]);

const BLUE = [0, 122, 194, 255];

export function defaultDrawingInfo(geometryType: EsriGeometryType | null): Record<string, unknown> | null {
  if (!geometryType) return null;
  const outline = { type: 'esriSLS', style: 'esriSLSSolid', color: [255, 255, 255, 255], width: 0.75 };
  const symbol =
    geometryType === 'esriGeometryPolyline'
      ? { type: 'esriSLS', style: 'esriSLSSolid', color: BLUE, width: 1.5 }
      : geometryType === 'esriGeometryPolygon'
        ? { type: 'esriSFS', style: 'esriSFSSolid', color: [0, 122, 194, 128], outline }
        : {
            type: 'esriSMS',
            style: 'esriSMSCircle',
            color: BLUE,
            size: 6,
            angle: 0,
            xoffset: 0,
            yoffset: 0,
            outline,
          };
  return {
    renderer: { type: 'simple', symbol, label: '', description: '' },
    transparency: 0,
    labelingInfo: null,
  };
}

const TOOLS: Record<string, string> = {
  esriGeometryPoint: 'esriFeatureEditToolPoint',
  esriGeometryMultipoint: 'esriFeatureEditToolMultipoint',
  esriGeometryPolyline: 'esriFeatureEditToolLine',
  esriGeometryPolygon: 'esriFeatureEditToolPolygon',
};

export const envelope = (b: Bounds | null, sr: SpatialReference) =>
  b
    ? { xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3], spatialReference: sr }
    : { xmin: 'NaN', ymin: 'NaN', xmax: 'NaN', ymax: 'NaN', spatialReference: sr };

export interface LayerDefinitionInput {
  plan: LayerPlan;
  layerInfo: Record<string, unknown>;
  service: ServiceProperties;
  serviceItemId: string;
  spatialReference: SpatialReference;
  extent: Bounds | null;
  /** A time-aware layer's timeInfo resource (layer-time-info.ts). */
  timeInfo?: Record<string, unknown>;
}

/** The editor tracking fields a layer gets when its service enables editor tracking; none otherwise. */
export function editorTrackingFieldsOf(plan: LayerPlan, service: ServiceProperties): TrackingField[] {
  if (service.editorTrackingInfo.enableEditorTracking !== true) return [];
  return trackingFieldsFor(
    plan.fields.map((f) => f.name),
    plan.fields.map((f) => f.column),
  );
}

export function buildLayerDefinition(input: LayerDefinitionInput): Record<string, unknown> {
  const { plan, service, spatialReference } = input;
  const tracking = editorTrackingFieldsOf(plan, service);
  const g = plan.geometryType;
  const maxRecordCount = service.maxRecordCount > 0 ? service.maxRecordCount : DEFAULT_MAX_RECORD_COUNT;
  const fields = [
    {
      name: OBJECT_ID_FIELD,
      type: 'esriFieldTypeOID',
      alias: OBJECT_ID_FIELD,
      sqlType: 'sqlTypeOther',
      nullable: false,
      editable: false,
      domain: null,
      defaultValue: null,
    },
    ...plan.fields.map((f) => ({
      name: f.name,
      type: f.type,
      alias: f.alias,
      sqlType: sqlTypeOf(f.type),
      ...(f.type === 'esriFieldTypeString'
        ? { length: f.length ?? 256 }
        : f.type === 'esriFieldTypeDate'
          ? { length: 8 }
          : {}),
      nullable: f.nullable ?? true,
      editable: true,
      domain: f.domain ?? null,
      defaultValue: null,
      ...(f.locationType && f.locationType !== 'unknown' ? { locationType: f.locationType } : {}),
    })),
    ...tracking.map(trackingFieldResource),
  ];
  const displayField = plan.fields.find((f) => f.type === 'esriFieldTypeString')?.name ?? OBJECT_ID_FIELD;
  const base: Record<string, unknown> = {
    currentVersion: CURRENT_VERSION,
    id: plan.id,
    name: plan.name,
    type: g ? 'Feature Layer' : 'Table',
    serviceItemId: input.serviceItemId,
    displayField,
    description: service.description,
    copyrightText: service.copyrightText,
    defaultVisibility: true,
    editingInfo: { lastEditDate: null },
    isDataVersioned: false,
    supportsAppend: true,
    supportedAppendFormats: 'csv,excel,geojson,shapefile,featureCollection,sqlite,geoPackage,filegdb',
    supportsCalculate: true,
    supportsTruncate: true,
    supportsAttachmentsByUploadId: false,
    supportsRollbackOnFailureParameter: true,
    supportsStatistics: true,
    supportsAdvancedQueries: true,
    supportsValidateSql: false,
    supportsCoordinatesQuantization: true,
    supportsApplyEditsWithGlobalIds: false,
    advancedQueryCapabilities: {
      supportsPagination: true,
      supportsPaginationOnAggregatedQueries: true,
      supportsQueryRelatedPagination: false,
      supportsQueryWithDistance: true,
      supportsReturningQueryExtent: true,
      supportsStatistics: true,
      supportsPercentileStatistics: true,
      supportsHavingClause: true,
      supportsCountDistinct: true,
      supportsOrderBy: true,
      supportsDistinct: true,
      supportsQueryWithResultType: false,
      supportsSqlExpression: false,
      supportsAdvancedQueryRelated: false,
      supportsReturningGeometryCentroid: g === 'esriGeometryPolygon',
      supportsQueryWithDatumTransformation: false,
      supportsQuantizationEditMode: true,
    },
    useStandardizedQueries: true,
    ...(g
      ? {
          geometryType: g,
          extent: envelope(input.extent, spatialReference),
          drawingInfo: defaultDrawingInfo(g),
        }
      : {}),
    minScale: 0,
    maxScale: 0,
    allowGeometryUpdates: true,
    hasAttachments: service.hasAttachments,
    htmlPopupType: 'esriServerHTMLPopupTypeNone',
    // The z and m the source declares and the stored shapes keep (sources read x/y only say none).
    hasM: Boolean(g && 'hasM' in plan.source && plan.source.hasM),
    hasZ: Boolean(g && 'hasZ' in plan.source && plan.source.hasZ),
    objectIdField: OBJECT_ID_FIELD,
    uniqueIdField: { name: OBJECT_ID_FIELD, isSystemMaintained: true },
    globalIdField: '',
    typeIdField: '',
    fields,
    relationships: [],
    indexes: [],
    types: [],
    templates: [
      {
        name: plan.name,
        description: '',
        drawingTool: (g && TOOLS[g]) ?? 'esriFeatureEditToolNone',
        prototype: { attributes: {} },
      },
    ],
    supportedQueryFormats: 'JSON, geoJSON, PBF',
    hasStaticData: service.hasStaticData,
    maxRecordCount,
    standardMaxRecordCount: 32000,
    tileMaxRecordCount: 8000,
    maxRecordCountFactor: 1,
    capabilities: service.capabilities,
    ...(service.editorTrackingInfo.enableEditorTracking !== undefined
      ? { editorTrackingInfo: service.editorTrackingInfo }
      : {}),
    ...(tracking.length > 0 ? { editFieldsInfo: editFieldsInfoOf(tracking) } : {}),
  };
  for (const [key, value] of Object.entries(input.layerInfo)) {
    if (LAYER_INFO_KEYS.has(key) && value !== undefined && value !== null && value !== '') base[key] = value;
  }
  if (!fields.some((f) => f.name === base.displayField)) base.displayField = displayField;
  if (input.timeInfo) base.timeInfo = input.timeInfo;
  // Relationships a publisher declares (ArcGIS's layer JSON form) are checked against the layer's fields.
  base.relationships = readRelationships(input.layerInfo.relationships, fields, `layer ${plan.id}`);
  if (typeof base.maxRecordCount !== 'number' || base.maxRecordCount <= 0)
    base.maxRecordCount = maxRecordCount;
  base.maxRecordCount = effectiveMaxRecordCount(base.maxRecordCount as number);
  return base;
}

export interface ServiceDefinitionInput {
  serviceItemId: string;
  name: string;
  service: ServiceProperties;
  spatialReference: SpatialReference;
  extent: Bounds | null;
  layers: Record<string, unknown>[];
}

export function buildServiceDefinition(input: ServiceDefinitionInput): Record<string, unknown> {
  const { service, spatialReference } = input;
  const sublayer = (l: Record<string, unknown>) => ({
    id: l.id,
    name: l.name,
    parentLayerId: -1,
    defaultVisibility: l.defaultVisibility ?? true,
    subLayerIds: null,
    minScale: l.minScale ?? 0,
    maxScale: l.maxScale ?? 0,
    ...(l.geometryType ? { geometryType: l.geometryType } : {}),
  });
  const geographic = spatialReference.wkid === 4326 || spatialReference.latestWkid === 4326;
  return {
    currentVersion: CURRENT_VERSION,
    serviceItemId: input.serviceItemId,
    serviceDescription: service.description,
    hasVersionedData: false,
    supportsDisconnectedEditing: false,
    supportsRelationshipsResource: false,
    syncEnabled: false,
    hasStaticData: service.hasStaticData,
    maxRecordCount: service.maxRecordCount > 0 ? service.maxRecordCount : DEFAULT_MAX_RECORD_COUNT,
    supportedQueryFormats: 'JSON, geoJSON, PBF',
    capabilities: service.capabilities,
    description: service.description,
    copyrightText: service.copyrightText,
    spatialReference,
    initialExtent: envelope(input.extent, spatialReference),
    fullExtent: envelope(input.extent, spatialReference),
    allowGeometryUpdates: true,
    units: geographic ? 'esriDecimalDegrees' : 'esriMeters',
    size: -1,
    enableZDefaults: false,
    editorTrackingInfo: service.editorTrackingInfo,
    layers: input.layers.filter((l) => l.type !== 'Table').map(sublayer),
    tables: input.layers.filter((l) => l.type === 'Table').map(sublayer),
  };
}
