/**
 * What the edit operations need to know of a layer, read from its stored resource JSON and column
 * map, and the preparation of one add or update into column values and a stored geometry.
 */
import type { Dimensions } from '../geometry/dimensions.js';
import type { EsriGeometryType, SpatialReference } from '../geometry/types.js';
import { type EsriFieldType, isEsriFieldType } from '../query/field-types.js';
import {
  type ColumnValue,
  columnValues,
  defaultColumnValues,
  type EditableField,
} from './attribute-values.js';
import { type Capabilities, parseCapabilities } from './capabilities.js';
import { editFailure } from './edit-errors.js';
import { geometrySpatialReference, type StoredGeometry, storedGeometry } from './edit-geometry.js';
import type { FeatureInput } from './edit-parameters.js';
import { type EditorTrackingInfo, readEditorTrackingInfo, type TrackingField } from './editor-tracking.js';
import { fieldDomainOf } from './field-domains.js';

export const OBJECT_ID_FIELD = 'OBJECTID';

export interface EditLayer {
  id: number;
  table: string;
  fields: EditableField[];
  geometryType: EsriGeometryType | null;
  /** The z and m the layer's shapes keep (hasZ/hasM of its definition). */
  layout: Dimensions;
  /** Tracking fields by role, present when the layer has editor tracking. */
  tracking: Partial<Record<TrackingField['role'], { name: string; column: string }>>;
  capabilities: Capabilities;
  trackingInfo: EditorTrackingInfo;
  hasAttachments: boolean;
}

interface LayerResource {
  fields?: {
    name: string;
    type: string;
    length?: number;
    editable?: boolean;
    nullable?: boolean;
    domain?: unknown;
    defaultValue?: unknown;
  }[];
  geometryType?: string;
  hasZ?: unknown;
  hasM?: unknown;
  capabilities?: string;
  editorTrackingInfo?: unknown;
  editFieldsInfo?: Record<string, string> | null;
  hasAttachments?: boolean;
}

export function editLayerOf(
  id: number,
  table: string,
  definition: Record<string, unknown>,
  columns: readonly { name: string; column: string }[],
): EditLayer {
  const def = definition as LayerResource;
  const columnOf = new Map(columns.map((c) => [c.name, c.column]));
  const fields: EditableField[] = (def.fields ?? [])
    .filter((f) => f.type !== 'esriFieldTypeOID' && columnOf.has(f.name) && isEsriFieldType(f.type))
    .map((f) => ({
      name: f.name,
      type: f.type as EsriFieldType,
      column: columnOf.get(f.name)!,
      ...(typeof f.length === 'number' && f.type === 'esriFieldTypeString' ? { length: f.length } : {}),
      editable: f.editable !== false,
      nullable: f.nullable !== false,
      domain: fieldDomainOf(f.domain),
      ...(f.defaultValue !== undefined && f.defaultValue !== null ? { defaultValue: f.defaultValue } : {}),
    }));
  const tracking: EditLayer['tracking'] = {};
  for (const [role, name] of Object.entries(def.editFieldsInfo ?? {})) {
    const column = typeof name === 'string' ? columnOf.get(name) : undefined;
    if (column) tracking[role as TrackingField['role']] = { name, column };
  }
  return {
    id,
    table,
    fields,
    geometryType: (def.geometryType as EsriGeometryType | undefined) ?? null,
    layout: { hasZ: def.hasZ === true, hasM: def.hasM === true },
    tracking,
    capabilities: parseCapabilities(String(def.capabilities ?? 'Query')),
    trackingInfo: readEditorTrackingInfo(def.editorTrackingInfo),
    hasAttachments: def.hasAttachments === true,
  };
}

export interface EditContext {
  inSR: SpatialReference | null;
  storage: SpatialReference;
  /** The signed-in user's name; empty for anonymous callers. */
  editor: string;
  now: number;
}

export interface PreparedFeature {
  values: ColumnValue[];
  /** undefined: not given (an update keeps its shape). */
  geometry?: StoredGeometry;
}

function trackingValues(layer: EditLayer, ctx: EditContext, adding: boolean): ColumnValue[] {
  const t = layer.tracking;
  const instant = new Date(ctx.now).toISOString();
  const out: ColumnValue[] = [];
  const set = (f: { column: string } | undefined, sqlType: string, value: string) => {
    if (f) out.push({ column: f.column, sqlType, value });
  };
  if (adding) {
    set(t.creatorField, 'text', ctx.editor);
    set(t.creationDateField, 'timestamptz', instant);
  }
  set(t.editorField, 'text', ctx.editor);
  set(t.editDateField, 'timestamptz', instant);
  return out;
}

function prepare(layer: EditLayer, input: FeatureInput, ctx: EditContext, adding: boolean): PreparedFeature {
  const values = columnValues(input.attributes, layer.fields, OBJECT_ID_FIELD);
  if (adding) values.push(...defaultColumnValues(input.attributes, layer.fields));
  if (layer.trackingInfo.enableEditorTracking) values.push(...trackingValues(layer, ctx, adding));
  if (input.geometry === undefined) return { values };
  if (!layer.geometryType) throw editFailure('This layer is a table; its features have no geometry.');
  const from = geometrySpatialReference(input.geometry, ctx.inSR, ctx.storage);
  return {
    values,
    geometry: storedGeometry(input.geometry, layer.geometryType, from, ctx.storage, layer.layout),
  };
}

export const prepareAdd = (layer: EditLayer, input: FeatureInput, ctx: EditContext): PreparedFeature =>
  prepare(layer, input, ctx, true);

/** The largest object id a feature can have: the object id column is a 32-bit integer. */
export const MAX_OBJECT_ID = 2_147_483_647;

/** Whether `id` can name a stored feature; a larger one names none (and is never sent to the database). */
export const storableObjectId = (id: number | null): id is number => id !== null && id <= MAX_OBJECT_ID;

/** The object id an update names in its attributes, or null when it names none. */
export function objectIdOf(input: FeatureInput): number | null {
  const key = Object.keys(input.attributes).find((k) => k.toLowerCase() === OBJECT_ID_FIELD.toLowerCase());
  const raw = key === undefined ? undefined : input.attributes[key];
  const objectId = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  return typeof objectId === 'number' && Number.isSafeInteger(objectId) && objectId >= 0 ? objectId : null;
}

export function prepareUpdate(
  layer: EditLayer,
  input: FeatureInput,
  ctx: EditContext,
): PreparedFeature & { objectId: number } {
  const objectId = objectIdOf(input);
  if (objectId === null)
    throw editFailure(`An update needs the feature's ${OBJECT_ID_FIELD} in its attributes.`);
  return { objectId, ...prepare(layer, input, ctx, false) };
}
