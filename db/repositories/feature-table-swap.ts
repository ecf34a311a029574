/**
 * Re-publishing (overwrite) loads the new data beside the old: into staging tables named after the
 * layer's table and the job, then swaps them in with the new layer rows in one transaction. Readers
 * see either the old tables and layers or the new ones, never a half-loaded layer; a failed overwrite
 * only drops its staging tables.
 */

import { createHash } from 'node:crypto';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import { internalError } from '../../lib/errors.js';
import type { DatabaseHandle } from '../client.js';
import { featureAttachments } from '../schema/attachments.js';
import { hostedLayers } from '../schema/publishing.js';
import { checkedIdentifier as checked } from './feature-copy.js';
import { dropFeatureTable } from './feature-tables.js';
import type { NewHostedLayer } from './services.js';

const FEATURE_TABLE = /^f_[a-z0-9]{32}_\d{1,3}$/;
const STAGING_TABLE = /^f_[a-z0-9]{32}_\d{1,3}_o[0-9a-f]{8}$/;

/** The staging table an overwrite job loads a layer into: `<table>_o<8 hex of the job id>`. */
export function stagingTableName(table: string, jobId: string): string {
  if (!FEATURE_TABLE.test(table))
    throw internalError('Unable to complete operation.', ['Invalid feature table.']);
  return `${table}_o${createHash('sha256').update(jobId).digest('hex').slice(0, 8)}`;
}

/** The layer table a staging table replaces. */
export function targetOfStaging(staging: string): string {
  if (!STAGING_TABLE.test(staging))
    throw internalError('Unable to complete operation.', ['Invalid staging table.']);
  return staging.slice(0, staging.lastIndexOf('_o'));
}

export const isStagingTable = (name: string): boolean => STAGING_TABLE.test(name);

/**
 * In one transaction: every staging table replaces its target (its parts and indexes renamed along),
 * the old tables of layers the new data no longer has are dropped, and the service's layer rows
 * become `layers` (which name the target tables). The old features' attachments go with them (the new
 * features have new object ids); their object keys are returned for the caller to remove from the
 * store. A retry after the commit finds no staging table left and only rewrites the same layer rows.
 */
export async function swapInStagedLayers(
  database: DatabaseHandle,
  serviceItemId: string,
  layers: NewHostedLayer[],
  staging: string[],
): Promise<string[]> {
  return database.db.transaction(async (tx) => {
    const run = (text: string) => tx.execute(sql.raw(text));
    for (const s of staging) {
      const target = targetOfStaging(s);
      const [found] = rowsOf<{ t: string | null }>(
        await tx.execute(sql`select to_regclass(${s})::text as t`),
      );
      if (found?.t == null) continue;
      // The old table's parts and indexes go with it.
      await run(`drop table if exists "${target}"`);
      // The staging table, its parts (a large load's, `<staging>_p<k>`, feature-tables.ts partName)
      // and every index of theirs are named after it: each takes the target's name instead, so what
      // names a part or its indexes from the layer's table (and the next overwrite's) finds them.
      const named = rowsOf<{ name: string; kind: string }>(
        await tx.execute(
          sql`with "tree" as (select ${s}::regclass::oid as "relid"
                union all select i.inhrelid from pg_inherits i where i.inhparent = ${s}::regclass)
              select c.relname as "name", c.relkind::text as "kind" from pg_class c
              where c.oid in (select "relid" from "tree")
                or c.oid in (select x.indexrelid from pg_index x where x.indrelid in (select "relid" from "tree"))`,
        ),
      );
      for (const { name, kind } of named) {
        if (!name.startsWith(s)) continue;
        const what = kind === 'i' || kind === 'I' ? 'index' : 'table';
        await run(`alter ${what} ${checked(name)} rename to ${checked(target + name.slice(s.length))}`);
      }
    }
    const keep = layers.map((l) => l.layerId);
    const gone = await tx
      .select({ tableName: hostedLayers.tableName })
      .from(hostedLayers)
      .where(
        and(
          eq(hostedLayers.serviceItemId, serviceItemId),
          keep.length ? notInArray(hostedLayers.layerId, keep) : sql`true`,
        ),
      );
    for (const g of gone)
      if (FEATURE_TABLE.test(g.tableName)) await run(`drop table if exists "${g.tableName}"`);
    await tx
      .delete(hostedLayers)
      .where(
        and(
          eq(hostedLayers.serviceItemId, serviceItemId),
          keep.length ? notInArray(hostedLayers.layerId, keep) : sql`true`,
        ),
      );
    for (const l of layers) {
      await tx
        .insert(hostedLayers)
        .values(l)
        .onConflictDoUpdate({
          target: [hostedLayers.serviceItemId, hostedLayers.layerId],
          set: {
            tableName: l.tableName,
            definition: l.definition,
            columns: l.columns,
            featureCount: l.featureCount,
          },
        });
    }
    const removed = await tx
      .delete(featureAttachments)
      .where(eq(featureAttachments.serviceItemId, serviceItemId))
      .returning({ objectKey: featureAttachments.objectKey });
    return removed.map((r) => r.objectKey);
  });
}

/** A statement's rows, as either driver's drizzle gives them (postgres.js: an array; PGlite: `rows`). */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** Drops the staging tables of a failed overwrite; the service keeps its tables and layers. */
export async function dropStagingTables(database: DatabaseHandle, staging: string[]): Promise<void> {
  for (const s of staging) if (isStagingTable(s)) await dropFeatureTable(database, s);
}
