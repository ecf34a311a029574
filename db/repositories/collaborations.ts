import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { collaborations, collaborationWorkspaces } from '../schema/collaborations.js';

export type CollaborationRow = typeof collaborations.$inferSelect;
export type WorkspaceRow = typeof collaborationWorkspaces.$inferSelect;

/** A collaboration and its initial workspace, written together or not at all. */
export async function insertCollaboration(
  db: Database,
  collaboration: typeof collaborations.$inferInsert,
  workspace: Omit<typeof collaborationWorkspaces.$inferInsert, 'collaborationId'>,
): Promise<{ collaboration: CollaborationRow; workspace: WorkspaceRow }> {
  return db.transaction(async (tx) => {
    const [c] = await tx.insert(collaborations).values(collaboration).returning();
    const [w] = await tx
      .insert(collaborationWorkspaces)
      .values({ ...workspace, collaborationId: c!.id })
      .returning();
    return { collaboration: c!, workspace: w! };
  });
}

export async function listCollaborations(
  db: Database,
  offset: number,
  limit: number,
): Promise<{ total: number; rows: CollaborationRow[] }> {
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(collaborations);
  const rows = await db
    .select()
    .from(collaborations)
    .orderBy(asc(collaborations.created), asc(collaborations.id))
    .offset(offset)
    .limit(limit);
  return { total: n, rows };
}

export async function findCollaboration(db: Database, id: string): Promise<CollaborationRow | undefined> {
  const rows = await db.select().from(collaborations).where(eq(collaborations.id, id)).limit(1);
  return rows[0];
}

export async function workspacesOf(db: Database, collaborationId: string): Promise<WorkspaceRow[]> {
  return db
    .select()
    .from(collaborationWorkspaces)
    .where(eq(collaborationWorkspaces.collaborationId, collaborationId))
    .orderBy(asc(collaborationWorkspaces.created), asc(collaborationWorkspaces.id));
}
