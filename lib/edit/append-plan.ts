/**
 * An append as edits: source columns mapped to target fields (same names, case-insensitively, unless
 * fieldMappings says otherwise; only appendFields when given), and with upsert each source row either
 * an update of the feature whose matching field holds its key or an add.
 */
import { badRequest } from '../errors.js';
import type { AppendOptions } from './append-parameters.js';
import type { FeatureInput } from './edit-parameters.js';

export interface AppendRow {
  attributes: Record<string, unknown>;
  geometry?: unknown;
}

const refuse = (detail: string) => badRequest('Unable to append.', [detail]);

/** Target field name → source column, for the fields the append writes. */
export function appendFieldMap(
  headers: readonly string[],
  targetFields: readonly string[],
  options: Pick<AppendOptions, 'fieldMappings' | 'appendFields' | 'upsertMatchingField'>,
  objectIdField: string,
): Map<string, string> {
  const source = new Map(headers.map((h) => [h.toLowerCase(), h]));
  const target = new Map(targetFields.map((f) => [f.toLowerCase(), f]));
  const map = new Map<string, string>();
  for (const [lower, name] of target) {
    const column = source.get(lower);
    if (column !== undefined) map.set(name, column);
  }
  for (const m of options.fieldMappings) {
    const name = target.get(m.name.toLowerCase());
    if (!name) throw refuse(`fieldMappings names '${m.name}', which is not a field of the layer.`);
    const column = source.get(m.sourceName.toLowerCase());
    if (column === undefined)
      throw refuse(`fieldMappings names '${m.sourceName}', which the source does not have.`);
    map.set(name, column);
  }
  if (options.appendFields) {
    const keep = new Set<string>();
    for (const f of options.appendFields) {
      const name = target.get(f.toLowerCase());
      if (!name) throw refuse(`appendFields names '${f}', which is not a field of the layer.`);
      keep.add(name);
    }
    const matching = target.get((options.upsertMatchingField ?? objectIdField).toLowerCase());
    for (const name of [...map.keys()]) if (!keep.has(name) && name !== matching) map.delete(name);
  }
  return map;
}

/** The text of each row's key (null: the row has none), refusing two rows with one key. */
export function upsertKeys(rows: readonly AppendRow[], keyColumn: string): (string | null)[] {
  const seen = new Set<string>();
  return rows.map((row, i) => {
    const v = row.attributes[keyColumn];
    if (v === null || v === undefined || v === '') return null;
    const key = String(v);
    if (seen.has(key))
      throw refuse(
        `Rows share the key '${key}' of the matching field (row ${i + 1}); each key may be appended once.`,
      );
    seen.add(key);
    return key;
  });
}

export interface AppendEdits {
  adds: FeatureInput[];
  updates: FeatureInput[];
  /** Rows left out: matched with skipUpdates, or unmatched with skipInserts. */
  skipped: number;
}

/**
 * Adds and updates of the rows. `existing` maps a key's text to the object id of the feature holding
 * it; without upsert it is empty and every row is an add.
 */
export function appendEdits(
  rows: readonly AppendRow[],
  map: ReadonlyMap<string, string>,
  keys: readonly (string | null)[] | null,
  existing: ReadonlyMap<string, number>,
  options: Pick<AppendOptions, 'skipUpdates' | 'updateGeometry'> & { skipInserts?: boolean },
  objectIdField: string,
): AppendEdits {
  const out: AppendEdits = { adds: [], updates: [], skipped: 0 };
  rows.forEach((row, i) => {
    const attributes: Record<string, unknown> = {};
    for (const [name, column] of map)
      if (name.toLowerCase() !== objectIdField.toLowerCase())
        attributes[name] = row.attributes[column] ?? null;
    const key = keys?.[i];
    const objectId = key == null ? undefined : existing.get(key);
    if (objectId === undefined && options.skipInserts) {
      out.skipped++;
    } else if (objectId === undefined) {
      out.adds.push({ attributes, ...(row.geometry ? { geometry: row.geometry } : {}) });
    } else if (options.skipUpdates) {
      out.skipped++;
    } else {
      out.updates.push({
        attributes: { ...attributes, [objectIdField]: objectId },
        ...(options.updateGeometry && row.geometry ? { geometry: row.geometry } : {}),
      });
    }
  });
  return out;
}

/** The target field an upsert matches on: the object id, or a field with a unique index. */
export function matchingField(
  fields: readonly { name: string; column: string }[],
  indexes: readonly { fields?: string; isUnique?: boolean }[],
  wanted: string | undefined,
  objectIdField: string,
): { name: string; column: string } {
  const name = wanted ?? objectIdField;
  if (name.toLowerCase() === objectIdField.toLowerCase()) return { name: objectIdField, column: 'objectid' };
  const field = fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
  if (!field) throw refuse(`upsertMatchingField '${name}' is not a field of the layer.`);
  if (!indexes.some((i) => i.isUnique && i.fields?.toLowerCase() === field.name.toLowerCase()))
    throw refuse(`upsertMatchingField '${field.name}' has no unique index; add one with addToDefinition.`);
  return { name: field.name, column: field.column };
}
