/**
 * A feature table loaded in parts (createFeatureTable's partBounds) turned back into one plain table
 * under the same name. PostgreSQL builds a unique index on a partitioned table only if it holds the
 * partition key, the object id, and a layer's unique indexes (addToDefinition, the key an append
 * upserts on) are on its fields. The parts only made the load's index builds cheaper; a plain table
 * serves queries as well.
 *
 * Runs inside the caller's transaction (PostgreSQL DDL is transactional): a failure anywhere leaves
 * the partitioned table as it was.
 */
import { type SQL, sql } from 'drizzle-orm';
import { internalError } from '../../lib/errors.js';
import type { EditTransaction } from './feature-edits.js';

const TABLE = /^f_[a-z0-9]{32}_\d{1,3}$/;
/** An index definition as pg_get_indexdef writes it for one of the table's own index names. */
const INDEX_DEFINITION =
  /^(CREATE (?:UNIQUE )?INDEX (f_[a-z0-9]{32}_\d{1,3}_[a-z0-9_]+) ON )(ONLY )?(\S+ USING .+)$/;

function tableIdent(name: string): SQL {
  if (!TABLE.test(name)) throw internalError('Unable to complete operation.', ['Invalid identifier.']);
  return sql.raw(`"${name}"`);
}

/** Whether `table` is a partitioned table (PGlite's and small tables never are). */
export async function isPartitionedTable(tx: EditTransaction, table: string): Promise<boolean> {
  tableIdent(table);
  const rows = await tx.rows<{ kind: string }>(
    sql`select relkind::text as kind from pg_class where oid = to_regclass(${`"${table}"`})`,
  );
  return rows[0]?.kind === 'p';
}

/**
 * Replaces the partitioned `table` by a plain one: same columns (order, types, nullability,
 * defaults), every row, every index under its name, the object-id sequence with its value, and
 * fresh statistics. Feature tables carry no constraints but NOT NULL, which LIKE copies with the
 * columns, and no grants, triggers or views of their own.
 */
export async function unpartitionFeatureTable(tx: EditTransaction, table: string): Promise<void> {
  const t = tableIdent(table);
  const plain = sql.raw(`"${table}_plain"`);
  const sequenceName = `"${table}_oidseq"`;
  const sequence = sql.raw(sequenceName);
  // No write slips in between the copy and the drop; queries go on reading the parts meanwhile.
  await tx.rows(sql`lock table ${t} in share mode`);
  const indexes = await tx.rows<{ definition: string }>(
    sql`select pg_get_indexdef(i.indexrelid) as definition from pg_index i
        where i.indrelid = ${`"${table}"`}::regclass order by i.indexrelid`,
  );
  const statements = indexes.map(({ definition }) => {
    const m = INDEX_DEFINITION.exec(definition);
    if (!m) throw internalError('Unable to complete operation.', ['Unexpected feature table index.']);
    // The parent's index is defined ON ONLY the parent; on the plain table it is an ordinary index.
    return `${m[1]}${m[4]}`;
  });
  const existing = await tx.rows<{ seq: string | null }>(
    sql`select to_regclass(${sequenceName})::text as seq`,
  );
  const hasSequence = existing[0]?.seq != null;

  // Indexes are built after the copy: a sorted build costs far less than keeping them row by row.
  await tx.rows(sql`create table ${plain} (like ${t} including all excluding indexes)`);
  await tx.rows(sql`insert into ${plain} select * from ${t}`);
  // The sequence is owned by the object id column and would be dropped with the table: kept, its
  // value with it, so no object id is handed out twice.
  if (hasSequence) await tx.rows(sql`alter sequence ${sequence} owned by none`);
  // Without cascade: anything else depending on the table stops the change rather than going too.
  await tx.rows(sql`drop table ${t}`);
  await tx.rows(sql`alter table ${plain} rename to ${t}`);
  // The definitions name the table by name, which now is the plain one's.
  for (const statement of statements) await tx.rows(sql.raw(statement));
  if (hasSequence) await tx.rows(sql`alter sequence ${sequence} owned by ${t}."objectid"`);
  await tx.rows(sql`analyze ${t}`);
}
