/**
 * The hosted service and layer a FeatureServer request addresses. The router's access check finds the
 * service (with its layers, remembered briefly: api/request-lookups.ts) and keeps them on the context;
 * the routes read them from there.
 */
import type { Context } from 'hono';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import type { AppEnv } from '../env.js';
import { layerOfList, layerOfService, serviceNotFound } from './hosted-layer.js';

export function requestService(c: Context<AppEnv>): HostedServiceRow {
  const service = c.get('hostedService');
  if (!service) throw serviceNotFound();
  return service;
}

export async function requestLayer(
  c: Context<AppEnv>,
): Promise<{ service: HostedServiceRow; layer: HostedLayerRow }> {
  const service = requestService(c);
  const layerId = c.req.param('layer') ?? '';
  const layers = c.get('hostedLayers');
  if (layers) return { service, layer: layerOfList(layers, layerId) };
  return { service, layer: await layerOfService(c.get('deps').database.db, service, layerId) };
}
