/**
 * The MapServer JSON of a hosted feature service seen as a dynamic map service (no cache): its layers
 * and tables, extents and spatial reference from the feature service, and only what is served: image
 * formats of `export`, capabilities Map (export, identify, find, legend), Query and Data (layer query).
 */
import type { HostedServiceRow } from '../../db/repositories/services.js';
import { QUERY_FORMATS, servedMapLayer } from '../../lib/service/engine-capabilities.js';
import type { MapLayer } from '../../soap/handlers/map-context.js';
import { EXPORT_FORMATS } from './map-request-params.js';

export const MAP_CAPABILITIES = 'Map,Query,Data';
export const EXPORT_IMAGE_FORMATS = EXPORT_FORMATS.map((f) => f.toUpperCase()).join(',');
/** What the layer query answers: the feature service's layer query (`f`: json, pjson, geojson, pbf). */
export const MAP_QUERY_FORMATS = QUERY_FORMATS;

/** One layer of a map service, as the service JSON lists it. */
export const mapLayerEntry = (l: MapLayer) => ({
  id: l.id,
  name: l.name,
  parentLayerId: -1,
  defaultVisibility: l.definition.defaultVisibility !== false,
  subLayerIds: null,
  minScale: Number(l.definition.minScale) || 0,
  maxScale: Number(l.definition.maxScale) || 0,
  type: 'Feature Layer',
  geometryType: l.geometryType,
});

/**
 * A layer's or table's resource under the MapServer: its feature layer JSON with the map's
 * capabilities and the engine's query capabilities, without the FeatureServer's edit operations.
 */
export const mapLayerJson = (l: MapLayer) => ({
  ...servedMapLayer(l.definition),
  type: l.isTable ? 'Table' : 'Feature Layer',
  capabilities: MAP_CAPABILITIES,
  supportedQueryFormats: MAP_QUERY_FORMATS,
});

export function dynamicMapJson(service: HostedServiceRow, layers: MapLayer[]): Record<string, unknown> {
  const def = service.definition;
  return {
    currentVersion: 11.1,
    serviceDescription: String(def.serviceDescription ?? ''),
    mapName: 'Layers',
    description: String(def.description ?? ''),
    copyrightText: String(def.copyrightText ?? ''),
    supportsDynamicLayers: false,
    layers: layers.filter((l) => !l.isTable).map(mapLayerEntry),
    tables: layers.filter((l) => l.isTable).map((l) => ({ id: l.id, name: l.name })),
    spatialReference: def.spatialReference,
    singleFusedMapCache: false,
    initialExtent: def.initialExtent ?? def.fullExtent,
    fullExtent: def.fullExtent,
    minScale: 0,
    maxScale: 0,
    units: def.units ?? 'esriMeters',
    supportedImageFormatTypes: EXPORT_IMAGE_FORMATS,
    documentInfo: {
      Title: service.name,
      Author: service.owner,
      Comments: '',
      Subject: '',
      Category: '',
      Keywords: '',
    },
    capabilities: MAP_CAPABILITIES,
    supportedQueryFormats: MAP_QUERY_FORMATS,
    exportTilesAllowed: false,
    // The OGC WMS at …/services/Hosted/{name}/MapServer/WMSServer, as ArcGIS names the extension.
    supportedExtensions: 'WMSServer',
    maxRecordCount: Number(def.maxRecordCount) > 0 ? Number(def.maxRecordCount) : 2000,
    maxImageHeight: 4096,
    maxImageWidth: 4096,
    serviceItemId: service.serviceItemId,
  };
}
