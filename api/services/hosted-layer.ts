/** The REST services' answers for a service or layer the URL names that does not exist. */
import type { Database } from '../../db/client.js';
import { findLayer, type HostedLayerRow, type HostedServiceRow } from '../../db/repositories/services.js';
import { GeoError } from '../../lib/errors.js';

/** The answer for a service name that does not exist or is not ready; shared by every service router. */
export const serviceNotFound = () =>
  new GeoError({ code: 400, message: 'Invalid URL', details: ['Service not found or not started.'] });

/** The layer with the id in the URL of a service already found. */
export async function layerOfService(
  db: Database,
  service: HostedServiceRow,
  layerId: string,
): Promise<HostedLayerRow> {
  const id = layerNumber(layerId);
  const layer = id >= 0 ? await findLayer(db, service.serviceItemId, id) : undefined;
  if (!layer) throw layerNotFound(layerId);
  return layer;
}

/** The layer with the id in the URL among a service's layers already read. */
export function layerOfList(layers: readonly HostedLayerRow[], layerId: string): HostedLayerRow {
  const id = layerNumber(layerId);
  const layer = id >= 0 ? layers.find((l) => l.layerId === id) : undefined;
  if (!layer) throw layerNotFound(layerId);
  return layer;
}

const layerNumber = (layerId: string) => (/^\d{1,3}$/.test(layerId) ? Number(layerId) : -1);

const layerNotFound = (layerId: string) =>
  new GeoError({ code: 400, message: 'Invalid URL', details: [`Layer ${layerId} does not exist.`] });
