/** Finds a hosted layer by the id in the URL, and describes the layer to lib/query. */
import type { Database } from '../../db/client.js';
import { findLayer, type HostedLayerRow, type HostedServiceRow } from '../../db/repositories/services.js';
import { GeoError } from '../../lib/errors.js';
import type { EsriGeometryType, SpatialReference } from '../../lib/geometry/types.js';
import { type CatalogField, createFieldCatalog } from '../../lib/query/field-catalog.js';
import { type EsriFieldType, isEsriFieldType } from '../../lib/query/field-types.js';
import type { LayerCatalog } from '../../lib/query/layer-catalog.js';

/** The answer for a service name that does not exist or is not ready; shared by every service router. */
export const serviceNotFound = () =>
  new GeoError({ code: 400, message: 'Invalid URL', details: ['Service not found or not started.'] });

/** The layer with the id in the URL of a service already found. */
export async function layerOfService(
  db: Database,
  service: HostedServiceRow,
  layerId: string,
): Promise<HostedLayerRow> {
  const id = /^\d{1,3}$/.test(layerId) ? Number(layerId) : -1;
  const layer = id >= 0 ? await findLayer(db, service.serviceItemId, id) : undefined;
  if (!layer)
    throw new GeoError({ code: 400, message: 'Invalid URL', details: [`Layer ${layerId} does not exist.`] });
  return layer;
}

export function storageSpatialReference(service: HostedServiceRow): SpatialReference {
  return (
    (service.definition.spatialReference as SpatialReference | undefined) ?? {
      wkid: 102100,
      latestWkid: 3857,
    }
  );
}

export function layerCatalog(layer: HostedLayerRow): LayerCatalog {
  const def = layer.definition as {
    fields?: { name: string; type: string; alias?: string; length?: number }[];
    geometryType?: string;
    maxRecordCount?: number;
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
    maxRecordCount: typeof def.maxRecordCount === 'number' ? def.maxRecordCount : 2000,
    hasGeometry: Boolean(def.geometryType),
    ...(def.geometryType ? { geometryType: def.geometryType as EsriGeometryType } : {}),
  };
}
