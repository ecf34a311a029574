/**
 * The layer request each table of a multi-table source (GeoPackage, SQLite, feature collection)
 * publishes under: the one `layers` listed for it, or, without that list, the request's single
 * layer for the first table and a plain layer named after the table for the others.
 */
import type { LayerRequest, PublishRequest } from '../../db/schema/publish-request.js';
import { badRequest } from '../../lib/errors.js';

/** Refuses listed ids past the last table of the file. */
export function checkListedTables(request: PublishRequest, tables: number): void {
  if (!request.listedLayers) return;
  for (const l of request.layers) {
    if (l.id >= tables)
      throw badRequest('Invalid publishParameters.', [
        `layers names id ${l.id}, but the file has ${tables} tables (ids 0 to ${tables - 1}).`,
      ]);
  }
}

/** Null: the request lists tables and not this one. */
export function tableRequest(
  request: PublishRequest,
  index: number,
  tableName: string,
  tables: number,
): LayerRequest | null {
  if (request.listedLayers) return request.layers.find((l) => l.id === index) ?? null;
  const first = request.layers[0];
  if (tables === 1) return first;
  if (index === 0) return { ...first, name: first.layerInfo.name ? first.name : tableName };
  // The top-level layerInfo (its fields above all) describes the first table only.
  return { id: index, name: tableName, location: first.location, layerInfo: {} };
}
