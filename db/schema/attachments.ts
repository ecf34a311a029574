import { bigint, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { hostedServices } from './publishing.js';

/**
 * Files attached to features of hosted layers with hasAttachments. The bytes live in the object store
 * under the service item's prefix (`items/<serviceItemId>/attachments/`), so deleting the item removes
 * them with its other objects; the rows go with the service row by cascade.
 */
export const featureAttachments = pgTable(
  'feature_attachments',
  {
    id: serial('id').primaryKey(),
    serviceItemId: text('service_item_id')
      .notNull()
      .references(() => hostedServices.serviceItemId, { onDelete: 'cascade' }),
    layerId: integer('layer_id').notNull(),
    objectId: integer('object_id').notNull(),
    globalId: text('global_id').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    keywords: text('keywords').notNull().default(''),
    objectKey: text('object_key').notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [index('feature_attachments_feature_idx').on(t.serviceItemId, t.layerId, t.objectId)],
);
