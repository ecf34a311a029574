import { asc, eq } from 'drizzle-orm';
import type { Database } from '../client.js';
import { hostedServices } from '../schema/publishing.js';
import { tileCaches } from '../schema/tile-caches.js';

export interface CatalogEntry {
  name: string;
  type: 'FeatureServer' | 'MapServer' | 'VectorTileServer';
  serviceItemId: string;
}

/** Every hosted service that is ready to answer, by name: feature services and tile services. */
export async function readyHostedServices(db: Database): Promise<CatalogEntry[]> {
  const features = await db
    .select({ name: hostedServices.name, serviceItemId: hostedServices.serviceItemId })
    .from(hostedServices)
    .where(eq(hostedServices.status, 'ready'))
    .orderBy(asc(hostedServices.name));
  const tiles = await db
    .select({ name: tileCaches.name, type: tileCaches.serviceType, serviceItemId: tileCaches.serviceItemId })
    .from(tileCaches)
    .where(eq(tileCaches.status, 'ready'))
    .orderBy(asc(tileCaches.name));
  const entries: CatalogEntry[] = [
    ...features.map((f) => ({ ...f, type: 'FeatureServer' as const })),
    ...tiles.map((t) => ({ ...t, type: t.type as CatalogEntry['type'] })),
  ];
  return entries.sort((a, b) => a.name.localeCompare(b.name) || a.type.localeCompare(b.type));
}
