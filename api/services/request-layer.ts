/**
 * The hosted service and layer a FeatureServer request addresses. The router's access check finds the
 * service once and keeps it on the context; the routes read it from there, so each request looks the
 * service and its layer up once.
 */
import type { Context } from 'hono';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import type { AppEnv } from '../env.js';
import { layerOfService, serviceNotFound } from './hosted-layer.js';

export function requestService(c: Context<AppEnv>): HostedServiceRow {
  const service = c.get('hostedService');
  if (!service) throw serviceNotFound();
  return service;
}

export async function requestLayer(
  c: Context<AppEnv>,
): Promise<{ service: HostedServiceRow; layer: HostedLayerRow }> {
  const service = requestService(c);
  return {
    service,
    layer: await layerOfService(c.get('deps').database.db, service, c.req.param('layer') ?? ''),
  };
}
