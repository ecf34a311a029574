/** Attachment metadata rows; the bytes are in the object store under `objectKey`. */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SqlFragment } from '../../lib/query/sql-chunks.js';
import type { Database } from '../client.js';
import { featureAttachments } from '../schema/attachments.js';
import type { EditTransaction } from './feature-edits.js';
import { toSql } from './feature-query.js';

export type AttachmentRow = typeof featureAttachments.$inferSelect;
export type NewAttachment = Omit<typeof featureAttachments.$inferInsert, 'id'>;

export async function insertAttachment(db: Database, row: NewAttachment): Promise<AttachmentRow> {
  const [inserted] = await db.insert(featureAttachments).values(row).returning();
  return inserted;
}

const ofLayer = (serviceItemId: string, layerId: number) =>
  and(eq(featureAttachments.serviceItemId, serviceItemId), eq(featureAttachments.layerId, layerId));

/**
 * The attachments of the listed features (all features of the layer when `objectIds` is null), and of
 * those only the ones `where` holds for (a condition compiled over feature_attachments' own columns,
 * its values bound).
 */
export async function listAttachments(
  db: Database,
  serviceItemId: string,
  layerId: number,
  objectIds: readonly number[] | null,
  where?: SqlFragment | null,
): Promise<AttachmentRow[]> {
  if (objectIds && objectIds.length === 0) return [];
  return db
    .select()
    .from(featureAttachments)
    .where(
      and(
        ofLayer(serviceItemId, layerId),
        objectIds ? inArray(featureAttachments.objectId, [...objectIds]) : undefined,
        where ? toSql(where) : undefined,
      ),
    )
    .orderBy(asc(featureAttachments.objectId), asc(featureAttachments.id));
}

export async function findAttachment(
  db: Database,
  serviceItemId: string,
  layerId: number,
  objectId: number,
  attachmentId: number,
): Promise<AttachmentRow | undefined> {
  const rows = await db
    .select()
    .from(featureAttachments)
    .where(
      and(
        ofLayer(serviceItemId, layerId),
        eq(featureAttachments.objectId, objectId),
        eq(featureAttachments.id, attachmentId),
      ),
    )
    .limit(1);
  return rows[0];
}

export async function replaceAttachment(
  db: Database,
  id: number,
  changes: Pick<AttachmentRow, 'name' | 'contentType' | 'size' | 'objectKey' | 'keywords'>,
): Promise<void> {
  await db.update(featureAttachments).set(changes).where(eq(featureAttachments.id, id));
}

/** Deletes the listed attachments of one feature; returns the rows deleted. */
export async function deleteAttachmentRows(
  db: Database,
  serviceItemId: string,
  layerId: number,
  objectId: number,
  attachmentIds: readonly number[],
): Promise<AttachmentRow[]> {
  if (attachmentIds.length === 0) return [];
  return db
    .delete(featureAttachments)
    .where(
      and(
        ofLayer(serviceItemId, layerId),
        eq(featureAttachments.objectId, objectId),
        inArray(featureAttachments.id, [...attachmentIds]),
      ),
    )
    .returning();
}

/** Within a feature edit: the deleted features' attachment rows go too; returns their object keys. */
export async function deleteAttachmentsOfFeatures(
  tx: EditTransaction,
  serviceItemId: string,
  layerId: number,
  objectIds: readonly number[],
): Promise<string[]> {
  if (objectIds.length === 0) return [];
  const rows = await tx.rows<{ object_key: string }>(
    sql`delete from feature_attachments
        where service_item_id = ${serviceItemId} and layer_id = ${layerId}
          and object_id = any(${`{${objectIds.join(',')}}`}::integer[])
        returning object_key`,
  );
  return rows.map((r) => r.object_key);
}

/** The attachments of a layer with these attachment ids, in id order. */
export async function attachmentsByIds(
  db: Database,
  serviceItemId: string,
  layerId: number,
  attachmentIds: readonly number[],
): Promise<AttachmentRow[]> {
  if (attachmentIds.length === 0) return [];
  return db
    .select()
    .from(featureAttachments)
    .where(and(ofLayer(serviceItemId, layerId), inArray(featureAttachments.id, [...attachmentIds])))
    .orderBy(asc(featureAttachments.id));
}
