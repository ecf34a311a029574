import type { Database } from '../client.js';
import { portals } from '../schema/portal.js';

export type PortalRow = typeof portals.$inferSelect;

/** The installation's organization, created on first start; concurrent first starts agree on one row. */
export async function ensurePortal(db: Database, id: string, name: string, now: number): Promise<PortalRow> {
  await db
    .insert(portals)
    .values({ id, name, created: now, modified: now })
    .onConflictDoNothing({ target: portals.singleton });
  const rows = await db.select().from(portals).limit(2);
  if (rows.length !== 1) throw new Error(`expected exactly one portal row, found ${rows.length}`);
  return rows[0]!;
}
