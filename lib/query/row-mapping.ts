import { internalError } from '../errors.js';
import type { EsriGeometry } from '../geometry/types.js';
import type { CatalogField } from './field-catalog.js';
import type { QueryPlan } from './query-plan.js';
import { toNumber } from './wire-values.js';

/**
 * From database records (keyed by column name, as the plan's statements select them) to the row
 * form the renderers take. Values stay as the driver gave them; the renderers convert them.
 */
export interface FeatureRow {
  objectid: number;
  /** By Esri field name. */
  attrs: Record<string, unknown>;
  shape?: EsriGeometry | null;
  /** returnCentroid: the polygon's centroid in the output reference (null when it has no area). */
  centroid?: { x: number; y: number } | null;
}

export type DbRecord = Readonly<Record<string, unknown>>;

export function featureRowOf(plan: Pick<QueryPlan, 'columns' | 'selectShape'>, record: DbRecord): FeatureRow {
  const objectid = Number(toNumber(record.objectid));
  const row: FeatureRow = { objectid, attrs: attributesOf(plan.columns, record) };
  if (plan.selectShape) row.shape = shapeOfRecord(record);
  return row;
}

/** Attributes by Esri name; the object id column is shared by the OID field. */
export function attributesOf(columns: readonly CatalogField[], record: DbRecord): Record<string, unknown> {
  const attrs: Record<string, unknown> = {};
  for (const c of columns) attrs[c.name] = record[c.column] ?? null;
  return attrs;
}

/**
 * The shape of a record read with SHAPE_COLUMNS (plan-statements.ts): its stored text, or the point its
 * box is (a point loaded in bulk), or null for a row without a geometry.
 */
export function shapeOfRecord(record: DbRecord): EsriGeometry | null {
  const shape = record.shape;
  if (shape !== null && shape !== undefined) return parseShape(shape);
  const x = record.shape_x;
  if (x === null || x === undefined) return null;
  return { x: Number(x), y: Number(record.shape_y) };
}

/** The `shape` column holds Esri JSON text (or jsonb, which drivers hand over parsed). */
export function parseShape(value: unknown): EsriGeometry | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'object') return value as EsriGeometry;
  try {
    return JSON.parse(String(value)) as EsriGeometry;
  } catch {
    throw internalError('Unable to complete operation.', ['A stored geometry could not be read.']);
  }
}

/** Cuts the extra row the plan asks for: its presence means more rows remain. */
export function takePage<T>(
  rows: readonly T[],
  pageSize: number | null,
): { rows: T[]; exceededTransferLimit: boolean } {
  if (pageSize === null || rows.length <= pageSize) return { rows: [...rows], exceededTransferLimit: false };
  return { rows: rows.slice(0, pageSize), exceededTransferLimit: true };
}
