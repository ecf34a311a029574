/** Finds a ready hosted service and layer by the names in the URL, and describes the layer to lib/query. */

import type { Database } from '../../db/client.js';
import {
  findLayer,
  findServiceByName,
  type HostedLayerRow,
  type HostedServiceRow,
  listLayers,
} from '../../db/repositories/services.js';
import { GeoError } from '../../lib/errors.js';
import type { EsriGeometryType, SpatialReference } from '../../lib/geometry/types.js';
import { type CatalogField, createFieldCatalog } from '../../lib/query/field-catalog.js';
import { type EsriFieldType, isEsriFieldType } from '../../lib/query/field-types.js';
import type { LayerCatalog } from '../../lib/query/layer-catalog.js';
import { effectiveMaxRecordCount } from '../../lib/query/query-limits.js';

/** The answer for a service name that does not exist or is not ready; shared by every service router. */
export const serviceNotFound = () =>
  new GeoError({ code: 400, message: 'Invalid URL', details: ['Service not found or not started.'] });

export async function readyService(
  db: Database,
  name: string,
): Promise<{ service: HostedServiceRow; layers: HostedLayerRow[] }> {
  const service = await findServiceByName(db, name);
  if (service?.status !== 'ready') throw serviceNotFound();
  return { service, layers: await listLayers(db, service.serviceItemId) };
}

export async function readyLayer(
  db: Database,
  name: string,
  layerId: string,
): Promise<{ service: HostedServiceRow; layer: HostedLayerRow }> {
  const service = await findServiceByName(db, name);
  if (service?.status !== 'ready') throw serviceNotFound();
  const id = /^\d{1,3}$/.test(layerId) ? Number(layerId) : -1;
  const layer = id >= 0 ? await findLayer(db, service.serviceItemId, id) : undefined;
  if (!layer)
    throw new GeoError({ code: 400, message: 'Invalid URL', details: [`Layer ${layerId} does not exist.`] });
  return { service, layer };
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
    maxRecordCount: effectiveMaxRecordCount(
      typeof def.maxRecordCount === 'number' ? def.maxRecordCount : 2000,
    ),
    hasGeometry: Boolean(def.geometryType),
    ...(def.geometryType ? { geometryType: def.geometryType as EsriGeometryType } : {}),
  };
}
