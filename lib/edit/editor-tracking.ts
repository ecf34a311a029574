/**
 * Editor tracking: four system fields filled by the server on add and update (who and when), named
 * in the layer's editFieldsInfo, and the ownership rules of editorTrackingInfo.
 */
import type { EsriFieldType } from '../query/field-types.js';

export interface TrackingField {
  role: 'creationDateField' | 'creatorField' | 'editDateField' | 'editorField';
  name: string;
  type: EsriFieldType;
  length?: number;
  column: string;
}

const ROLES: readonly [TrackingField['role'], string, EsriFieldType][] = [
  ['creationDateField', 'CreationDate', 'esriFieldTypeDate'],
  ['creatorField', 'Creator', 'esriFieldTypeString'],
  ['editDateField', 'EditDate', 'esriFieldTypeDate'],
  ['editorField', 'Editor', 'esriFieldTypeString'],
];

/**
 * The tracking fields of a layer whose data fields use `columns` and `names`: columns follow the data
 * columns (`a_<n>`), and a name the data already uses gets a numeric suffix so both stay queryable.
 */
export function trackingFieldsFor(names: readonly string[], columns: readonly string[]): TrackingField[] {
  const taken = new Set(names.map((n) => n.toLowerCase()));
  let next = 1 + Math.max(-1, ...columns.map((c) => Number(/^a_(\d+)$/.exec(c)?.[1] ?? -1)));
  return ROLES.map(([role, base, type]) => {
    let name = base;
    for (let i = 1; taken.has(name.toLowerCase()); i++) name = `${base}_${i}`;
    taken.add(name.toLowerCase());
    return {
      role,
      name,
      type,
      ...(type === 'esriFieldTypeString' ? { length: 128 } : {}),
      column: `a_${next++}`,
    };
  });
}

export type EditFieldsInfo = Record<TrackingField['role'], string>;

export const editFieldsInfoOf = (fields: readonly TrackingField[]): EditFieldsInfo =>
  Object.fromEntries(fields.map((f) => [f.role, f.name])) as EditFieldsInfo;

/** The layer field resource of a tracking field: maintained by the server, never edited by clients. */
export const trackingFieldResource = (f: TrackingField) => ({
  name: f.name,
  type: f.type,
  alias: f.name,
  sqlType: 'sqlTypeOther',
  ...(f.length ? { length: f.length } : f.type === 'esriFieldTypeDate' ? { length: 8 } : {}),
  nullable: true,
  editable: false,
  domain: null,
  defaultValue: null,
});

export interface EditorTrackingInfo {
  enableEditorTracking: boolean;
  enableOwnershipAccessControl: boolean;
  allowOthersToQuery: boolean;
  allowOthersToUpdate: boolean;
  allowOthersToDelete: boolean;
  allowAnonymousToUpdate: boolean;
  allowAnonymousToDelete: boolean;
}

/** The stored booleans with ArcGIS's defaults for those left out (everything allowed). */
export function readEditorTrackingInfo(raw: unknown): EditorTrackingInfo {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const flag = (key: string, fallback: boolean) =>
    typeof r[key] === 'boolean' ? (r[key] as boolean) : fallback;
  return {
    enableEditorTracking: flag('enableEditorTracking', false),
    enableOwnershipAccessControl: flag('enableOwnershipAccessControl', false),
    allowOthersToQuery: flag('allowOthersToQuery', true),
    allowOthersToUpdate: flag('allowOthersToUpdate', true),
    allowOthersToDelete: flag('allowOthersToDelete', true),
    allowAnonymousToUpdate: flag('allowAnonymousToUpdate', true),
    allowAnonymousToDelete: flag('allowAnonymousToDelete', true),
  };
}
