/**
 * The wire parameters of the edit operations: `features`, `adds`, `updates` (JSON arrays of
 * `{attributes, geometry}`), `deletes` and `objectIds` (comma list or JSON array), `edits` of the
 * service-level applyEdits, and `rollbackOnFailure`. A malformed parameter fails the whole request.
 */
import { fail, isRecord, present, readBoolean, readJson } from '../query/normalize/parameter-values.js';

export interface FeatureInput {
  attributes: Record<string, unknown>;
  geometry?: unknown;
}

export interface LayerEdits {
  adds: FeatureInput[];
  updates: FeatureInput[];
  deletes: number[];
}

/** Edits in one request; larger batches are for append jobs, not applyEdits. */
export const MAX_EDITS = 10_000;

export function readFeatures(name: string, value: string | undefined): FeatureInput[] {
  const text = present(value);
  if (text === undefined) return [];
  const parsed = readJson(name, text);
  const list = Array.isArray(parsed) ? parsed : isRecord(parsed) ? [parsed] : null;
  if (!list) throw fail(name, 'expected a JSON array of features');
  if (list.length > MAX_EDITS) throw fail(name, `more than ${MAX_EDITS} features`);
  return list.map((f, i) => {
    if (!isRecord(f)) throw fail(name, `feature ${i} is not an object`);
    const attributes = f.attributes ?? {};
    if (!isRecord(attributes)) throw fail(name, `feature ${i} has attributes that are not an object`);
    return {
      attributes,
      ...(f.geometry !== undefined && f.geometry !== null ? { geometry: f.geometry } : {}),
    };
  });
}

export function readObjectIdList(name: string, value: unknown): number[] {
  if (value === undefined || value === null) return [];
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'number') items = [value];
  else if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return [];
    items = text.startsWith('[') ? (readJson(name, text) as unknown[]) : text.split(',').map((s) => s.trim());
    if (!Array.isArray(items)) throw fail(name, 'expected a comma-separated list or a JSON array of ids');
  } else throw fail(name, 'expected a comma-separated list or a JSON array of ids');
  if (items.length > MAX_EDITS) throw fail(name, `more than ${MAX_EDITS} ids`);
  const ids: number[] = [];
  for (const item of items) {
    const n =
      typeof item === 'number' ? item : typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : NaN;
    if (!Number.isSafeInteger(n) || n < 0 || n > 2_147_483_647)
      throw fail(name, `'${String(item)}' is not an object id`);
    if (!ids.includes(n)) ids.push(n);
  }
  return ids;
}

export const readRollbackOnFailure = (value: string | undefined): boolean =>
  readBoolean('rollbackOnFailure', value, true);

/** A layer's applyEdits: adds, updates, deletes. */
export function readLayerEdits(params: Readonly<Record<string, string | undefined>>): LayerEdits {
  return {
    adds: readFeatures('adds', params.adds),
    updates: readFeatures('updates', params.updates),
    deletes: readObjectIdList('deletes', params.deletes),
  };
}

/** The service's applyEdits: `edits=[{id, adds, updates, deletes}, …]`, one entry per layer. */
export function readServiceEdits(value: string | undefined): (LayerEdits & { id: number })[] {
  const text = present(value);
  if (text === undefined) throw fail('edits', 'the parameter is required');
  const parsed = readJson('edits', text);
  if (!Array.isArray(parsed)) throw fail('edits', 'expected a JSON array of {id, adds, updates, deletes}');
  const seen = new Set<number>();
  return parsed.map((entry, i) => {
    if (!isRecord(entry)) throw fail('edits', `entry ${i} is not an object`);
    const id = entry.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0)
      throw fail('edits', `entry ${i} has no layer id`);
    if (seen.has(id)) throw fail('edits', `layer ${id} is listed twice`);
    seen.add(id);
    const json = (v: unknown) => (v === undefined || v === null ? undefined : JSON.stringify(v));
    return {
      id,
      adds: readFeatures('edits', json(entry.adds)),
      updates: readFeatures('edits', json(entry.updates)),
      deletes: readObjectIdList('edits', entry.deletes),
    };
  });
}
