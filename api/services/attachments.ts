/**
 * Attachments of hosted features: files in the object store under the service item's prefix, their
 * metadata in `feature_attachments`. A feature's attachments are read by whoever may see the feature
 * and changed by whoever may update it (capabilities and ownership access control, as for edits).
 */

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { serviceEditor as editorOf } from '../../db/repositories/access.js';
import {
  type AttachmentRow,
  deleteAttachmentRows,
  findAttachment,
  insertAttachment,
  listAttachments,
  replaceAttachment,
} from '../../db/repositories/attachments.js';
import { inEditTransaction, readFeatures } from '../../db/repositories/feature-edits.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import type { UserRow } from '../../db/repositories/users.js';
import { type EditKind, operationNotSupported } from '../../lib/edit/capabilities.js';
import { type EditLayer, editLayerOf } from '../../lib/edit/edit-layer.js';
import { notOwnerDescription, ownershipRule } from '../../lib/edit/ownership.js';
import { badRequest, forbidden, GeoError } from '../../lib/errors.js';
import type { AppDeps } from '../env.js';
import type { UploadedFile } from '../params.js';
import { contentTypeOf, itemPrefix } from '../portal/item-data.js';

export interface AttachmentInfo {
  id: number;
  globalId: string;
  parentObjectId: number;
  name: string;
  contentType: string;
  size: number;
  keywords: string;
}

export const attachmentInfo = (a: AttachmentRow): AttachmentInfo => ({
  id: a.id,
  globalId: a.globalId,
  parentObjectId: a.objectId,
  name: a.name,
  contentType: a.contentType,
  size: a.size,
  keywords: a.keywords,
});

export interface AttachmentScope {
  deps: AppDeps;
  service: HostedServiceRow;
  layer: HostedLayerRow;
  model: EditLayer;
  user: UserRow | undefined;
}

export function attachmentScope(
  deps: AppDeps,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  user: UserRow | undefined,
): AttachmentScope {
  const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
  if (!model.hasAttachments)
    throw new GeoError({
      code: 400,
      message: 'Requested operation is not supported by this service.',
      details: [`Layer ${layer.layerId} does not have attachments.`],
    });
  return { deps, service, layer, model, user };
}

const featureMissing = (objectId: number) =>
  new GeoError({
    code: 404,
    message: 'Feature not found.',
    details: [`No feature has object id ${objectId}.`],
  });

/**
 * Checks that the feature exists and that the caller may see it (`read`) or change its attachments
 * (`create` for adding, `update` for changing and deleting).
 */
async function checkFeature(
  scope: AttachmentScope,
  objectId: number,
  need: 'read' | EditKind,
): Promise<void> {
  const { model } = scope;
  if (need === 'create' && !(model.capabilities.create || model.capabilities.update))
    throw operationNotSupported(model.capabilities.text);
  if (need === 'update' && !model.capabilities.update) throw operationNotSupported(model.capabilities.text);
  const editor = await editorOf(scope.deps.database.db, scope.service, scope.user);
  const existing = await inEditTransaction(scope.deps.database, (tx) =>
    readFeatures(tx, model.table, [objectId], model.tracking.creatorField?.column),
  );
  const feature = existing.get(objectId);
  const see = ownershipRule(model.trackingInfo, editor, 'query');
  if (!feature || (see && !see(feature.creator))) throw featureMissing(objectId);
  if (need === 'read') return;
  const update = ownershipRule(model.trackingInfo, editor, 'update');
  if (update && !update(feature.creator)) throw forbidden(notOwnerDescription('update', objectId));
}

export async function featureAttachments(
  scope: AttachmentScope,
  objectId: number,
): Promise<AttachmentInfo[]> {
  await checkFeature(scope, objectId, 'read');
  const rows = await listAttachments(
    scope.deps.database.db,
    scope.service.serviceItemId,
    scope.layer.layerId,
    [objectId],
  );
  return rows.map(attachmentInfo);
}

export async function attachmentContent(
  scope: AttachmentScope,
  objectId: number,
  attachmentId: number,
): Promise<{ row: AttachmentRow; body: ReadableStream }> {
  await checkFeature(scope, objectId, 'read');
  const row = await findAttachment(
    scope.deps.database.db,
    scope.service.serviceItemId,
    scope.layer.layerId,
    objectId,
    attachmentId,
  );
  if (!row)
    throw new GeoError({
      code: 404,
      message: 'Attachment not found.',
      details: [`Feature ${objectId} has no attachment ${attachmentId}.`],
    });
  const stream = await scope.deps.store.getStream(row.objectKey);
  return { row, body: Readable.toWeb(stream) as ReadableStream };
}

const attachmentKey = (serviceItemId: string, globalId: string) =>
  `${itemPrefix(serviceItemId)}attachments/${globalId}`;

async function storeFile(scope: AttachmentScope, file: UploadedFile | undefined) {
  if (!file) throw badRequest('Unable to complete operation.', ["The 'attachment' file is missing."]);
  const globalId = `{${randomUUID().toUpperCase()}}`;
  const key = attachmentKey(scope.service.serviceItemId, globalId.slice(1, -1));
  const contentType = contentTypeOf(file.filename, file.mimeType);
  await scope.deps.store.put(key, createReadStream(file.path), file.size, contentType);
  return { globalId, key, contentType, name: file.filename || 'attachment', size: file.size };
}

export interface AttachmentEditResult {
  objectId: number;
  globalId: string | null;
  success: boolean;
  error?: { code: number; description: string };
}

export async function addAttachment(
  scope: AttachmentScope,
  objectId: number,
  file: UploadedFile | undefined,
  keywords: string,
): Promise<AttachmentEditResult> {
  await checkFeature(scope, objectId, 'create');
  const stored = await storeFile(scope, file);
  try {
    const row = await insertAttachment(scope.deps.database.db, {
      serviceItemId: scope.service.serviceItemId,
      layerId: scope.layer.layerId,
      objectId,
      globalId: stored.globalId,
      name: stored.name,
      contentType: stored.contentType,
      size: stored.size,
      keywords,
      objectKey: stored.key,
      created: scope.deps.now(),
    });
    return { objectId: row.id, globalId: row.globalId, success: true };
  } catch (e) {
    await scope.deps.store.remove(stored.key).catch(() => {});
    throw e;
  }
}

export async function updateAttachment(
  scope: AttachmentScope,
  objectId: number,
  attachmentId: number,
  file: UploadedFile | undefined,
  keywords: string | undefined,
): Promise<AttachmentEditResult> {
  await checkFeature(scope, objectId, 'update');
  const db = scope.deps.database.db;
  const row = await findAttachment(
    db,
    scope.service.serviceItemId,
    scope.layer.layerId,
    objectId,
    attachmentId,
  );
  if (!row)
    return {
      objectId: attachmentId,
      globalId: null,
      success: false,
      error: { code: 1019, description: `Feature ${objectId} has no attachment ${attachmentId}.` },
    };
  const stored = await storeFile(scope, file);
  await replaceAttachment(db, row.id, {
    name: stored.name,
    contentType: stored.contentType,
    size: stored.size,
    objectKey: stored.key,
    keywords: keywords ?? row.keywords,
  });
  await scope.deps.store.remove(row.objectKey).catch(() => {});
  return { objectId: row.id, globalId: row.globalId, success: true };
}

export async function deleteAttachments(
  scope: AttachmentScope,
  objectId: number,
  attachmentIds: number[],
): Promise<AttachmentEditResult[]> {
  await checkFeature(scope, objectId, 'update');
  const deleted = await deleteAttachmentRows(
    scope.deps.database.db,
    scope.service.serviceItemId,
    scope.layer.layerId,
    objectId,
    attachmentIds,
  );
  for (const row of deleted) await scope.deps.store.remove(row.objectKey).catch(() => {});
  return attachmentIds.map((id) => {
    const row = deleted.find((r) => r.id === id);
    return row
      ? { objectId: id, globalId: row.globalId, success: true }
      : {
          objectId: id,
          globalId: null,
          success: false,
          error: { code: 1019, description: `Feature ${objectId} has no attachment ${id}.` },
        };
  });
}
