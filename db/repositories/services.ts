import { and, eq, sql } from 'drizzle-orm';
import { normalizeItemId as canonical } from '../../lib/access/items.js';
import type { Database } from '../client.js';
import { hostedLayers, hostedServices } from '../schema/publishing.js';

export type HostedServiceRow = typeof hostedServices.$inferSelect;
export type HostedLayerRow = typeof hostedLayers.$inferSelect;
export type NewHostedLayer = typeof hostedLayers.$inferInsert;

export async function insertService(db: Database, row: typeof hostedServices.$inferInsert): Promise<void> {
  await db.insert(hostedServices).values(row);
}

/** Service names are unique regardless of case, as on ArcGIS Server. */
export async function findServiceByName(db: Database, name: string): Promise<HostedServiceRow | undefined> {
  const rows = await db
    .select()
    .from(hostedServices)
    .where(sql`lower(${hostedServices.name}) = ${name.toLowerCase()}`)
    .limit(1);
  return rows[0];
}

export async function findService(
  db: Database,
  serviceItemId: string,
): Promise<HostedServiceRow | undefined> {
  const rows = await db
    .select()
    .from(hostedServices)
    .where(eq(hostedServices.serviceItemId, canonical(serviceItemId)))
    .limit(1);
  return rows[0];
}

export async function updateService(
  db: Database,
  serviceItemId: string,
  changes: Partial<typeof hostedServices.$inferInsert>,
): Promise<void> {
  await db.update(hostedServices).set(changes).where(eq(hostedServices.serviceItemId, serviceItemId));
}

/** Removes the service row and, by cascade, its layer rows; the caller drops the feature tables. */
export async function deleteService(db: Database, serviceItemId: string): Promise<void> {
  await db.delete(hostedServices).where(eq(hostedServices.serviceItemId, serviceItemId));
}

/** Writes a layer's row; writing it again (a retried activity) replaces it. */
export async function upsertLayer(db: Database, row: NewHostedLayer): Promise<void> {
  await db
    .insert(hostedLayers)
    .values(row)
    .onConflictDoUpdate({
      target: [hostedLayers.serviceItemId, hostedLayers.layerId],
      set: {
        tableName: row.tableName,
        definition: row.definition,
        columns: row.columns,
        featureCount: row.featureCount,
      },
    });
}

export async function listLayers(db: Database, serviceItemId: string): Promise<HostedLayerRow[]> {
  const rows = await db.select().from(hostedLayers).where(eq(hostedLayers.serviceItemId, serviceItemId));
  return rows.sort((a, b) => a.layerId - b.layerId);
}

export async function findLayer(
  db: Database,
  serviceItemId: string,
  layerId: number,
): Promise<HostedLayerRow | undefined> {
  const rows = await db
    .select()
    .from(hostedLayers)
    .where(and(eq(hostedLayers.serviceItemId, serviceItemId), eq(hostedLayers.layerId, layerId)))
    .limit(1);
  return rows[0];
}
