/**
 * What the query engine needs to know of a hosted layer and its service, read from their stored rows
 * (db/repositories/services.ts): the layer's catalog of fields and columns, and the spatial reference
 * its shapes are stored in. Every surface (FeatureServer, SOAP, the tile pipeline) describes a layer
 * through here.
 */
import type { EsriGeometryType, SpatialReference } from '../geometry/types.js';
import { WEB_MERCATOR } from '../geometry/types.js';
import { type CatalogField, createFieldCatalog } from './field-catalog.js';
import { type EsriFieldType, isEsriFieldType } from './field-types.js';
import type { LayerCatalog } from './layer-catalog.js';
import { effectiveMaxRecordCount } from './query-limits.js';

/** The stored parts of a hosted layer the catalog is made from. */
export interface StoredLayer {
  tableName: string;
  definition: Record<string, unknown>;
  columns: readonly { name: string; column: string }[];
}

/** The spatial reference a hosted service stores its shapes in; Web Mercator unless it says otherwise. */
export function storageSpatialReference(service: { definition: Record<string, unknown> }): SpatialReference {
  return (service.definition.spatialReference as SpatialReference | undefined) ?? { ...WEB_MERCATOR };
}

export function layerCatalog(layer: StoredLayer): LayerCatalog {
  const def = layer.definition as {
    fields?: { name: string; type: string; alias?: string; length?: number }[];
    geometryType?: string;
    hasZ?: unknown;
    hasM?: unknown;
    maxRecordCount?: number;
    standardMaxRecordCount?: number;
    tileMaxRecordCount?: number;
    timeInfo?: { startTimeField?: unknown; endTimeField?: unknown };
  };
  const columnOf = new Map(layer.columns.map((c) => [c.name, c.column]));
  const fields: CatalogField[] = (def.fields ?? [])
    .filter((f) => columnOf.has(f.name) && isEsriFieldType(f.type))
    .map((f) => ({
      name: f.name,
      column: columnOf.get(f.name)!,
      type: f.type as EsriFieldType,
      ...(f.alias ? { alias: f.alias } : {}),
      ...(f.length ? { length: f.length } : {}),
    }));
  return {
    table: layer.tableName,
    objectIdField: 'OBJECTID',
    fields: createFieldCatalog(fields),
    maxRecordCount: effectiveMaxRecordCount(
      typeof def.maxRecordCount === 'number' ? def.maxRecordCount : 2000,
    ),
    resultTypeMaxRecordCount: {
      standard: effectiveMaxRecordCount(
        typeof def.standardMaxRecordCount === 'number' ? def.standardMaxRecordCount : 32000,
      ),
      tile: effectiveMaxRecordCount(
        typeof def.tileMaxRecordCount === 'number' ? def.tileMaxRecordCount : 8000,
      ),
    },
    hasGeometry: Boolean(def.geometryType),
    ...(def.geometryType ? { geometryType: def.geometryType as EsriGeometryType } : {}),
    ...(def.geometryType && def.hasZ === true ? { hasZ: true } : {}),
    ...(def.geometryType && def.hasM === true ? { hasM: true } : {}),
    ...(typeof def.timeInfo?.startTimeField === 'string'
      ? {
          timeInfo: {
            startField: def.timeInfo.startTimeField,
            endField: typeof def.timeInfo.endTimeField === 'string' ? def.timeInfo.endTimeField : null,
          },
        }
      : {}),
  };
}
