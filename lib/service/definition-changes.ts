/**
 * The admin API's schema changes of a hosted layer (addToDefinition, updateDefinition,
 * deleteFromDefinition), planned without I/O: the layer's new resource JSON and column map, and the
 * table changes (columns, NOT NULL, indexes) that make the data match it. Every key of a request is
 * either applied or refused with a 400 naming it; the database applies a plan in one transaction.
 */
import { fieldRulesProblem } from '../edit/attribute-values.js';
import { parseCapabilities } from '../edit/capabilities.js';
import { editFieldsInfoOf, trackingFieldResource, trackingFieldsFor } from '../edit/editor-tracking.js';
import { fieldDomainOf, readDomainJson } from '../edit/field-domains.js';
import { badRequest, type GeoError } from '../errors.js';
import { type EsriFieldType, FIELD_STORAGE, isEsriFieldType } from '../query/field-types.js';
import { effectiveMaxRecordCount } from '../query/query-limits.js';
import { readRelationship } from './relationships.js';

export type SchemaOp =
  | { kind: 'addColumn'; column: string; sqlType: string }
  | { kind: 'dropColumn'; column: string }
  | { kind: 'notNull'; column: string; field: string; required: boolean }
  | { kind: 'createIndex'; name: string; columns: string[]; unique: boolean; descending: boolean }
  | { kind: 'dropIndex'; name: string }
  /** Fills tracking columns added to a layer with data: the owner and the time of the change. */
  | { kind: 'fillTracking'; column: string; value: 'owner' | 'now' }
  /** hasAttachments turned off: refused while the layer has attachments. */
  | { kind: 'noAttachments' };

export interface StoredLayerSchema {
  layerId: number;
  tableName: string;
  definition: Record<string, unknown>;
  columns: { name: string; column: string }[];
}

export interface LayerPlan {
  definition: Record<string, unknown>;
  columns: { name: string; column: string }[];
  ops: SchemaOp[];
  /** drawingInfo changed: tile caches drawn from the service are drawn again. */
  drawingChanged: boolean;
}

type Json = Record<string, unknown>;
type Field = Json & { name: string; type: string };

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Types a field added through the admin API may have: those with a column of their own. */
const ADDABLE = new Set<EsriFieldType>([
  'esriFieldTypeString',
  'esriFieldTypeInteger',
  'esriFieldTypeSmallInteger',
  'esriFieldTypeBigInteger',
  'esriFieldTypeDouble',
  'esriFieldTypeSingle',
  'esriFieldTypeDate',
  'esriFieldTypeDateOnly',
  'esriFieldTypeTimeOnly',
  'esriFieldTypeTimestampOffset',
  'esriFieldTypeGUID',
]);
const CAPABILITIES = new Set(['query', 'create', 'update', 'delete', 'editing']);
const TRACKING_KEYS = new Set([
  'enableEditorTracking',
  'enableOwnershipAccessControl',
  'allowOthersToQuery',
  'allowOthersToUpdate',
  'allowOthersToDelete',
  'allowAnonymousToUpdate',
  'allowAnonymousToDelete',
]);

export const invalidDefinition = (operation: string, problem: string): GeoError =>
  badRequest(`Unable to ${operation}.`, [problem]);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function onlyKeys(operation: string, what: string, value: Json, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw invalidDefinition(operation, `'${key}' cannot be changed in ${what} (${allowed.join(', ')}).`);
  }
}

const fieldsOf = (def: Json): Field[] => ((def.fields as Field[] | undefined) ?? []).map((f) => ({ ...f }));

function findField(fields: Field[], name: unknown): Field | undefined {
  if (typeof name !== 'string') return undefined;
  return fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
}

function nextColumn(columns: readonly { column: string }[]): number {
  return 1 + Math.max(-1, ...columns.map((c) => Number(/^a_(\d+)$/.exec(c.column)?.[1] ?? -1)));
}

/** The physical index name of an index: derived from its name so a drop finds it again. */
export function physicalIndexName(tableName: string, indexName: string): string {
  let h = 0x811c9dc5;
  for (const ch of indexName.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `${tableName}_ix_${h.toString(16).padStart(8, '0')}`;
}

function bumpVersion(def: Json, now: number): void {
  def.editingInfo = {
    ...((def.editingInfo as Json | undefined) ?? {}),
    lastEditDate: now,
    schemaLastEditDate: now,
  };
}

function readDomain(operation: string, field: string, domain: unknown): unknown {
  const read = readDomainJson(domain, field);
  if ('problem' in read) throw invalidDefinition(operation, read.problem);
  return read.domain;
}

function newField(operation: string, input: unknown, fields: Field[]): Field {
  if (!isObject(input)) throw invalidDefinition(operation, 'Each field must be an object.');
  onlyKeys(operation, 'a new field', input, [
    'name',
    'type',
    'alias',
    'nullable',
    'editable',
    'length',
    'domain',
    'defaultValue',
    'sqlType',
  ]);
  const name = input.name;
  if (typeof name !== 'string' || !FIELD_NAME.test(name))
    throw invalidDefinition(operation, `'${String(name)}' is not a valid field name.`);
  if (findField(fields, name) || ['shape', 'objectid'].includes(name.toLowerCase()))
    throw invalidDefinition(operation, `The layer already has a field named '${name}'.`);
  const type = String(input.type);
  if (!isEsriFieldType(type) || !ADDABLE.has(type))
    throw invalidDefinition(operation, `Field type '${type}' cannot be added (${[...ADDABLE].join(', ')}).`);
  let length: number | undefined;
  if (type === 'esriFieldTypeString') {
    length = input.length === undefined ? 256 : Number(input.length);
    if (!Number.isInteger(length) || length < 1 || length > 1_073_741_823)
      throw invalidDefinition(operation, `The length of '${name}' must be a positive integer.`);
  }
  for (const key of ['nullable', 'editable'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'boolean')
      throw invalidDefinition(operation, `'${key}' of '${name}' must be true or false.`);
  }
  const field: Field = {
    name,
    type,
    alias: typeof input.alias === 'string' && input.alias !== '' ? input.alias : name,
    sqlType: 'sqlTypeOther',
    ...(length !== undefined ? { length } : type === 'esriFieldTypeDate' ? { length: 8 } : {}),
    nullable: input.nullable !== false,
    editable: input.editable !== false,
    domain: input.domain === undefined ? null : readDomain(operation, name, input.domain),
    defaultValue: input.defaultValue ?? null,
  };
  checkValueRules(operation, field);
  return field;
}

/** A field's domain and default value must be values its type holds (lib/edit/attribute-values.ts). */
function checkValueRules(operation: string, field: Field): void {
  if (!isEsriFieldType(field.type)) return;
  const problem = fieldRulesProblem({
    name: field.name,
    type: field.type,
    column: '',
    editable: true,
    ...(typeof field.length === 'number' && field.type === 'esriFieldTypeString'
      ? { length: field.length }
      : {}),
    domain: fieldDomainOf(field.domain),
    defaultValue: field.defaultValue,
  });
  if (problem) throw invalidDefinition(operation, problem);
}

/** addToDefinition of one layer: new fields (empty columns) and indexes. */
export function planAddToLayer(layer: StoredLayerSchema, request: Json, now: number): LayerPlan {
  const op = 'add to definition';
  onlyKeys(op, 'addToDefinition of a layer', request, ['fields', 'indexes', 'relationships']);
  const def: Json = structuredClone(layer.definition);
  const fields = fieldsOf(def);
  const columns = [...layer.columns];
  const ops: SchemaOp[] = [];
  for (const input of arrayOf(op, 'fields', request.fields)) {
    const field = newField(op, input, fields);
    const column = `a_${nextColumn(columns)}`;
    fields.push(field);
    columns.push({ name: field.name, column });
    ops.push({ kind: 'addColumn', column, sqlType: FIELD_STORAGE[field.type as EsriFieldType].sqlType! });
    if (field.nullable === false) ops.push({ kind: 'notNull', column, field: field.name, required: true });
  }
  def.fields = fields;
  const indexes = [...((def.indexes as Json[] | undefined) ?? [])];
  for (const input of arrayOf(op, 'indexes', request.indexes)) {
    const index = newIndex(op, input, fields, columns, indexes);
    indexes.push(index.resource);
    ops.push({
      kind: 'createIndex',
      name: physicalIndexName(layer.tableName, index.resource.name as string),
      ...index.sql,
    });
  }
  def.indexes = indexes;
  const relationships = [...((def.relationships as Json[] | undefined) ?? [])];
  for (const [i, input] of arrayOf(op, 'relationships', request.relationships).entries()) {
    const r = readRelationship(input, fields, `relationships[${i}]`);
    if (relationships.some((x) => x.id === r.id))
      throw invalidDefinition(op, `The layer already has a relationship with id ${r.id}.`);
    relationships.push({ ...r });
  }
  def.relationships = relationships;
  if (
    ops.length === 0 &&
    relationships.length === ((layer.definition.relationships as unknown[]) ?? []).length
  )
    throw invalidDefinition(op, 'Nothing to add: give fields, indexes or relationships.');
  bumpVersion(def, now);
  return { definition: def, columns, ops, drawingChanged: false };
}

function arrayOf(operation: string, key: string, value: unknown): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidDefinition(operation, `'${key}' must be an array.`);
  return value;
}

function newIndex(
  operation: string,
  input: unknown,
  fields: Field[],
  columns: { name: string; column: string }[],
  existing: Json[],
): { resource: Json; sql: { columns: string[]; unique: boolean; descending: boolean } } {
  if (!isObject(input)) throw invalidDefinition(operation, 'Each index must be an object.');
  onlyKeys(operation, 'an index', input, ['name', 'fields', 'isUnique', 'isAscending', 'description']);
  const name = input.name;
  if (typeof name !== 'string' || !FIELD_NAME.test(name))
    throw invalidDefinition(operation, `'${String(name)}' is not a valid index name.`);
  if (existing.some((i) => String(i.name).toLowerCase() === name.toLowerCase()))
    throw invalidDefinition(operation, `The layer already has an index named '${name}'.`);
  if (typeof input.fields !== 'string' || input.fields.trim() === '')
    throw invalidDefinition(operation, `Index '${name}' needs fields (comma-separated names).`);
  const names = input.fields.split(',').map((s) => s.trim());
  const cols = names.map((n) => {
    const field = findField(fields, n);
    const column = field && columns.find((c) => c.name === field.name)?.column;
    if (!field || !column)
      throw invalidDefinition(operation, `Index '${name}' names '${n}', which is not a field.`);
    return { name: field.name, column };
  });
  for (const key of ['isUnique', 'isAscending'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'boolean')
      throw invalidDefinition(operation, `'${key}' of index '${name}' must be true or false.`);
  }
  const unique = input.isUnique === true;
  const ascending = input.isAscending !== false;
  return {
    resource: {
      name,
      fields: cols.map((c) => c.name).join(','),
      isAscending: ascending,
      isUnique: unique,
      description: typeof input.description === 'string' ? input.description : '',
    },
    sql: { columns: cols.map((c) => c.column), unique, descending: !ascending },
  };
}

/** deleteFromDefinition of one layer: fields (their columns dropped) and indexes. */
export function planDeleteFromLayer(layer: StoredLayerSchema, request: Json, now: number): LayerPlan {
  const op = 'delete from definition';
  onlyKeys(op, 'deleteFromDefinition of a layer', request, ['fields', 'indexes', 'relationships']);
  const def: Json = structuredClone(layer.definition);
  let fields = fieldsOf(def);
  let columns = [...layer.columns];
  let indexes = [...((def.indexes as Json[] | undefined) ?? [])];
  const ops: SchemaOp[] = [];
  const tracking = new Set(Object.values((def.editFieldsInfo as Json | undefined) ?? {}).map(String));
  for (const input of arrayOf(op, 'indexes', request.indexes)) {
    const name = isObject(input) ? input.name : undefined;
    const index = indexes.find(
      (i) => typeof name === 'string' && String(i.name).toLowerCase() === name.toLowerCase(),
    );
    if (!index) throw invalidDefinition(op, `The layer has no index named '${String(name)}'.`);
    indexes = indexes.filter((i) => i !== index);
    ops.push({ kind: 'dropIndex', name: physicalIndexName(layer.tableName, String(index.name)) });
  }
  for (const input of arrayOf(op, 'fields', request.fields)) {
    const field = findField(fields, isObject(input) ? input.name : undefined);
    if (!field)
      throw invalidDefinition(
        op,
        `The layer has no field named '${String(isObject(input) ? input.name : input)}'.`,
      );
    if (field.type === 'esriFieldTypeOID')
      throw invalidDefinition(op, 'The object id field cannot be deleted.');
    if (tracking.has(field.name))
      throw invalidDefinition(
        op,
        `'${field.name}' is an editor tracking field; turn editor tracking off first.`,
      );
    const column = columns.find((c) => c.name === field.name)?.column;
    fields = fields.filter((f) => f !== field);
    columns = columns.filter((c) => c.name !== field.name);
    // Indexes on the field go with it, as its column's do.
    for (const index of indexes.filter((i) => String(i.fields).split(',').includes(field.name))) {
      ops.push({ kind: 'dropIndex', name: physicalIndexName(layer.tableName, String(index.name)) });
    }
    indexes = indexes.filter((i) => !String(i.fields).split(',').includes(field.name));
    if (column) ops.push({ kind: 'dropColumn', column });
    if (def.displayField === field.name) def.displayField = 'OBJECTID';
  }
  let relationships = [...((def.relationships as Json[] | undefined) ?? [])];
  for (const input of arrayOf(op, 'relationships', request.relationships)) {
    const id = isObject(input) ? input.id : undefined;
    if (!relationships.some((r) => r.id === id))
      throw invalidDefinition(op, `The layer has no relationship with id ${String(id)}.`);
    relationships = relationships.filter((r) => r.id !== id);
  }
  def.relationships = relationships;
  if (
    ops.length === 0 &&
    relationships.length === ((layer.definition.relationships as unknown[]) ?? []).length
  )
    throw invalidDefinition(op, 'Nothing to delete: give fields, indexes or relationships.');
  def.fields = fields;
  def.indexes = indexes;
  bumpVersion(def, now);
  return { definition: def, columns, ops, drawingChanged: false };
}

export const LAYER_PROPERTIES = [
  'name',
  'description',
  'copyrightText',
  'displayField',
  'capabilities',
  'maxRecordCount',
  'drawingInfo',
  'editorTrackingInfo',
  'hasAttachments',
  'minScale',
  'maxScale',
  'defaultVisibility',
  'fields',
] as const;

function readCapabilities(op: string, value: unknown): string {
  if (typeof value !== 'string') throw invalidDefinition(op, "'capabilities' must be a string.");
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!CAPABILITIES.has(n.toLowerCase()))
      throw invalidDefinition(
        op,
        `Capability '${n}' is not supported (Query, Create, Update, Delete, Editing).`,
      );
  }
  return parseCapabilities(names.join(',')).text;
}

function changeField(op: string, field: Field, input: Json): void {
  onlyKeys(op, `field '${field.name}'`, input, [
    'name',
    'alias',
    'domain',
    'nullable',
    'editable',
    'defaultValue',
    'type',
    'length',
  ]);
  if (input.type !== undefined && input.type !== field.type)
    throw invalidDefinition(op, `The type of '${field.name}' cannot be changed.`);
  if (input.length !== undefined && input.length !== field.length)
    throw invalidDefinition(op, `The length of '${field.name}' cannot be changed.`);
  if (input.alias !== undefined) {
    if (typeof input.alias !== 'string')
      throw invalidDefinition(op, `The alias of '${field.name}' must be a string.`);
    field.alias = input.alias;
  }
  if (input.domain !== undefined) field.domain = readDomain(op, field.name, input.domain);
  for (const key of ['nullable', 'editable'] as const) {
    if (input[key] === undefined) continue;
    if (typeof input[key] !== 'boolean')
      throw invalidDefinition(op, `'${key}' of '${field.name}' must be true or false.`);
    field[key] = input[key];
  }
  if (input.defaultValue !== undefined) field.defaultValue = input.defaultValue;
  if (input.domain !== undefined || input.defaultValue !== undefined) checkValueRules(op, field);
}

/**
 * updateDefinition of one layer: its properties, and field alias, domain, nullable, editable and default
 * changes. Turning editor tracking on adds the four tracking fields when the layer has none yet.
 */
export function planUpdateLayer(layer: StoredLayerSchema, request: Json, now: number): LayerPlan {
  const op = 'update definition';
  onlyKeys(op, 'updateDefinition of a layer', request, LAYER_PROPERTIES);
  const def: Json = structuredClone(layer.definition);
  const fields = fieldsOf(def);
  let columns = [...layer.columns];
  const ops: SchemaOp[] = [];
  let drawingChanged = false;
  for (const [key, value] of Object.entries(request)) {
    switch (key) {
      case 'name':
      case 'description':
      case 'copyrightText':
        if (typeof value !== 'string') throw invalidDefinition(op, `'${key}' must be a string.`);
        if (key === 'name' && value.trim() === '') throw invalidDefinition(op, "'name' cannot be empty.");
        def[key] = value;
        break;
      case 'displayField': {
        const field = findField(fields, value);
        if (!field)
          throw invalidDefinition(op, `displayField '${String(value)}' is not a field of the layer.`);
        def.displayField = field.name;
        break;
      }
      case 'capabilities':
        def.capabilities = readCapabilities(op, value);
        break;
      case 'maxRecordCount':
        if (!Number.isInteger(value) || (value as number) < 1)
          throw invalidDefinition(op, "'maxRecordCount' must be a positive integer.");
        def.maxRecordCount = effectiveMaxRecordCount(value as number);
        break;
      case 'minScale':
      case 'maxScale':
        if (typeof value !== 'number' || !(value >= 0))
          throw invalidDefinition(op, `'${key}' must be a number ≥ 0.`);
        def[key] = value;
        break;
      case 'defaultVisibility':
      case 'hasAttachments':
        if (typeof value !== 'boolean') throw invalidDefinition(op, `'${key}' must be true or false.`);
        if (key === 'hasAttachments' && value === false && def.hasAttachments === true)
          ops.push({ kind: 'noAttachments' });
        def[key] = value;
        break;
      case 'drawingInfo':
        if (!def.geometryType) throw invalidDefinition(op, 'A table has no drawingInfo.');
        if (!isObject(value) || !isObject(value.renderer) || typeof value.renderer.type !== 'string')
          throw invalidDefinition(op, "'drawingInfo' must be an object with a renderer.");
        def.drawingInfo = value;
        drawingChanged = true;
        break;
      case 'editorTrackingInfo':
        columns = updateTracking(op, def, fields, columns, value, ops);
        break;
      case 'fields':
        for (const input of arrayOf(op, 'fields', value)) {
          if (!isObject(input)) throw invalidDefinition(op, 'Each field must be an object.');
          const field = findField(fields, input.name);
          if (!field) throw invalidDefinition(op, `The layer has no field named '${String(input.name)}'.`);
          if (field.type === 'esriFieldTypeOID')
            throw invalidDefinition(op, 'The object id field cannot be changed.');
          const wasNullable = field.nullable !== false;
          changeField(op, field, input);
          const column = columns.find((c) => c.name === field.name)?.column;
          const nowNullable = field.nullable !== false;
          if (column && wasNullable !== nowNullable)
            ops.push({ kind: 'notNull', column, field: field.name, required: !nowNullable });
        }
        break;
    }
  }
  def.fields = fields;
  bumpVersion(def, now);
  return { definition: def, columns, ops, drawingChanged };
}

function updateTracking(
  op: string,
  def: Json,
  fields: Field[],
  columns: { name: string; column: string }[],
  value: unknown,
  ops: SchemaOp[],
): { name: string; column: string }[] {
  if (!isObject(value)) throw invalidDefinition(op, "'editorTrackingInfo' must be an object.");
  for (const [k, v] of Object.entries(value)) {
    if (!TRACKING_KEYS.has(k)) throw invalidDefinition(op, `'${k}' is not an editorTrackingInfo property.`);
    if (typeof v !== 'boolean') throw invalidDefinition(op, `editorTrackingInfo.${k} must be true or false.`);
  }
  const info = { ...((def.editorTrackingInfo as Json | undefined) ?? {}), ...value };
  def.editorTrackingInfo = info;
  if (info.enableEditorTracking !== true || def.editFieldsInfo) return columns;
  const tracking = trackingFieldsFor(
    columns.map((c) => c.name),
    columns.map((c) => c.column),
  );
  for (const t of tracking) {
    fields.push(trackingFieldResource(t) as Field);
    ops.push({ kind: 'addColumn', column: t.column, sqlType: FIELD_STORAGE[t.type].sqlType! });
    ops.push({
      kind: 'fillTracking',
      column: t.column,
      value: t.role.endsWith('DateField') ? 'now' : 'owner',
    });
  }
  def.editFieldsInfo = editFieldsInfoOf(tracking);
  return [...columns, ...tracking.map((t) => ({ name: t.name, column: t.column }))];
}
