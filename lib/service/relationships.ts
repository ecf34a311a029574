/**
 * Relationships between the layers and tables of a hosted service, in ArcGIS's layer JSON form: each
 * side lists the relationship with the same `id`, its own `keyField` and the other side's layer as
 * `relatedTableId`; the origin has role esriRelRoleOrigin, the destination esriRelRoleDestination. A
 * relationship of a layer with itself is listed twice by that layer, one entry per role with its own id
 * (see counterpartOf).
 * Related records are those whose key values are equal; in a many-to-many relationship they are linked
 * through the rows of a relationship table (`relationshipTableId`), each side naming the column of that
 * table holding its own key (`keyFieldInRelationshipTable`). Read here from publishParameters, the admin
 * API (one side at a time) and file geodatabases, and checked as pairs across the service's layers.
 */
import { badRequest, type GeoError } from '../errors.js';

export interface Relationship {
  id: number;
  name: string;
  relatedTableId: number;
  cardinality: 'esriRelCardinalityOneToOne' | 'esriRelCardinalityOneToMany' | 'esriRelCardinalityManyToMany';
  role: 'esriRelRoleOrigin' | 'esriRelRoleDestination';
  keyField: string;
  composite: boolean;
  /** Many-to-many only: the table linking the two sides, and this side's key column in it. */
  relationshipTableId?: number;
  keyFieldInRelationshipTable?: string;
}

interface LayerFacts {
  layerId: number;
  definition: Record<string, unknown>;
}

const MANY_TO_MANY = 'esriRelCardinalityManyToMany';
const CARDINALITIES = ['esriRelCardinalityOneToOne', 'esriRelCardinalityOneToMany', MANY_TO_MANY];
const KEYS = [
  'id',
  'name',
  'relatedTableId',
  'cardinality',
  'role',
  'keyField',
  'composite',
  'relationshipTableId',
  'keyFieldInRelationshipTable',
];
const ROLES = ['esriRelRoleOrigin', 'esriRelRoleDestination'];
/** Key fields hold values compared for equality: whole numbers and text. */
const KEY_TYPES = new Set([
  'esriFieldTypeOID',
  'esriFieldTypeInteger',
  'esriFieldTypeSmallInteger',
  'esriFieldTypeBigInteger',
  'esriFieldTypeString',
  'esriFieldTypeGUID',
  'esriFieldTypeGlobalID',
]);

const invalid = (where: string, problem: string): GeoError =>
  badRequest('Invalid relationship.', [`${where}: ${problem}`]);

type Field = { name: string; type: string };
const fieldsOf = (def: Record<string, unknown>) => (def.fields as Field[] | undefined) ?? [];

/**
 * One side of a relationship as a layer declares it; its key field must be one of `fields` (null: the
 * fields are not known yet, as when a publish is requested, and only the declaration's form is checked).
 */
export function readRelationship(
  entry: unknown,
  fields: readonly Field[] | null,
  where: string,
): Relationship {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw invalid(where, 'a relationship must be an object');
  const e = entry as Record<string, unknown>;
  for (const key of Object.keys(e))
    if (!KEYS.includes(key)) throw invalid(where, `'${key}' is not supported (${KEYS.join(', ')})`);
  if (!Number.isInteger(e.id) || (e.id as number) < 0)
    throw invalid(where, "'id' must be a whole number ≥ 0");
  if (!Number.isInteger(e.relatedTableId) || (e.relatedTableId as number) < 0)
    throw invalid(where, "'relatedTableId' must be a layer id");
  const cardinality = e.cardinality ?? 'esriRelCardinalityOneToMany';
  if (!CARDINALITIES.includes(String(cardinality)))
    throw invalid(
      where,
      `cardinality '${String(cardinality)}' is not supported (${CARDINALITIES.join(', ')})`,
    );
  if (!ROLES.includes(String(e.role))) throw invalid(where, `'role' must be one of ${ROLES.join(', ')}`);
  if (typeof e.keyField !== 'string' || e.keyField === '')
    throw invalid(where, "'keyField' must be a field name");
  const key = (fields ?? [{ name: e.keyField, type: 'esriFieldTypeString' }]).find(
    (f) => f.name.toLowerCase() === (e.keyField as string).toLowerCase(),
  );
  if (!key) throw invalid(where, `keyField '${String(e.keyField)}' is not a field of the layer`);
  if (!KEY_TYPES.has(key.type))
    throw invalid(where, `keyField '${key.name}' must hold whole numbers or text`);
  if (e.composite !== undefined && typeof e.composite !== 'boolean')
    throw invalid(where, "'composite' must be true or false");
  const through = cardinality === MANY_TO_MANY;
  if (!through && (e.relationshipTableId !== undefined || e.keyFieldInRelationshipTable !== undefined))
    throw invalid(
      where,
      "'relationshipTableId' and 'keyFieldInRelationshipTable' belong to many-to-many relationships only",
    );
  if (through && (!Number.isInteger(e.relationshipTableId) || (e.relationshipTableId as number) < 0))
    throw invalid(where, "a many-to-many relationship needs 'relationshipTableId', a layer id");
  if (through && (typeof e.keyFieldInRelationshipTable !== 'string' || e.keyFieldInRelationshipTable === ''))
    throw invalid(where, "a many-to-many relationship needs 'keyFieldInRelationshipTable', a field name");
  return {
    id: e.id as number,
    name: typeof e.name === 'string' && e.name !== '' ? e.name : `relationship_${String(e.id)}`,
    relatedTableId: e.relatedTableId as number,
    cardinality: cardinality as Relationship['cardinality'],
    role: e.role as Relationship['role'],
    keyField: key.name,
    composite: e.composite === true,
    ...(through
      ? {
          relationshipTableId: e.relationshipTableId as number,
          keyFieldInRelationshipTable: e.keyFieldInRelationshipTable as string,
        }
      : {}),
  };
}

/** The relationships a layer's resource lists, checked against its fields. */
export function readRelationships(
  raw: unknown,
  fields: readonly Field[] | null,
  where: string,
): Relationship[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid(where, "'relationships' must be an array");
  const out = raw.map((entry, i) => readRelationship(entry, fields, `${where}, relationships[${i}]`));
  const ids = new Set<number>();
  for (const r of out) {
    if (ids.has(r.id)) throw invalid(where, `relationship ${r.id} is listed twice`);
    ids.add(r.id);
  }
  return out;
}

/**
 * The other side of `own`, a relationship of layer `layerId`, among `sides`, the relationships of the
 * layer it names: the side with the same id that names `layerId` back. A relationship of a layer with
 * itself (reflexive) is listed as ArcGIS lists a self-related class, twice by that layer, one entry per
 * role, each with its own id: its other side is the layer's one entry that names the layer too, with the
 * other role and the same name (or, when no entry has that name, the one such entry of the other role).
 */
export function counterpartOf(
  sides: readonly Relationship[],
  own: Relationship,
  layerId: number,
): Relationship | undefined {
  if (own.relatedTableId !== layerId)
    return sides.find((s) => s.id === own.id && s.relatedTableId === layerId);
  const mirrors = sides.filter((s) => s.id !== own.id && s.relatedTableId === layerId && s.role !== own.role);
  const named = mirrors.filter((s) => s.name === own.name);
  const found = named.length > 0 ? named : mirrors;
  return found.length === 1 ? found[0] : undefined;
}

const noCounterpart = (own: Relationship, layerId: number): string =>
  own.relatedTableId === layerId
    ? `relationship ${own.id} relates layer ${layerId} to itself, and the layer lists no single other side for it (an entry with its own id, naming layer ${layerId}, with the other role and the same name)`
    : `layer ${own.relatedTableId} does not list relationship ${own.id} back to layer ${layerId}`;

export interface RelationshipPair {
  relationship: Relationship;
  /** The other side, as the related layer lists it. */
  counterpart: Relationship;
  relatedLayerId: number;
  /** Many-to-many: the relationship table's layer and the two key columns in it (as it spells them). */
  through?: { layerId: number; ownKey: string; relatedKey: string };
}

/** Both sides of one relationship of a layer, or a 400 saying what is missing. */
export function relationshipPair(
  layers: readonly LayerFacts[],
  layerId: number,
  relationshipId: number,
): RelationshipPair {
  const layer = layers.find((l) => l.layerId === layerId);
  const where = `layer ${layerId}`;
  const own = readRelationships(
    layer?.definition.relationships,
    fieldsOf(layer?.definition ?? {}),
    where,
  ).find((r) => r.id === relationshipId);
  if (!own) throw invalid(where, `it has no relationship ${relationshipId}`);
  const related = layers.find((l) => l.layerId === own.relatedTableId);
  if (!related)
    throw invalid(
      where,
      `relationship ${relationshipId} names layer ${own.relatedTableId}, which does not exist`,
    );
  const sides = readRelationships(
    related.definition.relationships,
    fieldsOf(related.definition),
    `layer ${related.layerId}`,
  );
  const counterpart = counterpartOf(sides, own, layerId);
  if (!counterpart) throw invalid(where, noCounterpart(own, layerId));
  if (counterpart.role === own.role)
    throw invalid(where, `both sides of relationship ${relationshipId} have role ${own.role}`);
  const pair = { relationship: own, counterpart, relatedLayerId: related.layerId };
  if ((own.cardinality === MANY_TO_MANY) !== (counterpart.cardinality === MANY_TO_MANY))
    throw invalid(where, `only one side of relationship ${relationshipId} is many-to-many`);
  if (own.cardinality !== MANY_TO_MANY) return pair;
  if (own.relationshipTableId !== counterpart.relationshipTableId)
    throw invalid(where, `the sides of relationship ${relationshipId} name different relationship tables`);
  const table = layers.find((l) => l.layerId === own.relationshipTableId);
  if (!table)
    throw invalid(
      where,
      `relationship ${relationshipId} names relationship table ${own.relationshipTableId}, which does not exist`,
    );
  const column = (name: string | undefined) => {
    const field = fieldsOf(table.definition).find((f) => f.name.toLowerCase() === name?.toLowerCase());
    if (!field)
      throw invalid(where, `'${String(name)}' is not a field of relationship table ${table.layerId}`);
    if (!KEY_TYPES.has(field.type))
      throw invalid(
        where,
        `'${field.name}' of relationship table ${table.layerId} must hold whole numbers or text`,
      );
    return field.name;
  };
  return {
    ...pair,
    through: {
      layerId: table.layerId,
      ownKey: column(own.keyFieldInRelationshipTable),
      relatedKey: column(counterpart.keyFieldInRelationshipTable),
    },
  };
}

/** Every relationship of every layer has its other side: the check after a change of the service. */
export function checkRelationshipPairs(layers: readonly LayerFacts[]): void {
  for (const layer of layers) {
    const list = readRelationships(
      layer.definition.relationships,
      fieldsOf(layer.definition),
      `layer ${layer.layerId}`,
    );
    for (const r of list) relationshipPair(layers, layer.layerId, r.id);
  }
}

/**
 * The pairs a publish declares, checked before any data is read (the key fields are checked against the
 * data's fields when each layer is built): every side is well formed and its partner is listed, with the
 * same id and the other role, in the layer its relatedTableId names.
 */
export function checkDeclaredPairs(layers: readonly { layerId: number; relationships: unknown }[]): void {
  const sidesOf = (layerId: number): Relationship[] =>
    readRelationships(layers.find((l) => l.layerId === layerId)?.relationships, null, `layer ${layerId}`);
  for (const layer of layers) {
    for (const side of sidesOf(layer.layerId)) {
      const where = `layer ${layer.layerId}`;
      if (!layers.some((l) => l.layerId === side.relatedTableId))
        throw invalid(
          where,
          `relationship ${String(side.id)} names layer ${String(side.relatedTableId)}, which is not published`,
        );
      const partner = counterpartOf(sidesOf(side.relatedTableId), side, layer.layerId);
      if (!partner) throw invalid(where, noCounterpart(side, layer.layerId));
      if (partner.role === side.role)
        throw invalid(where, `both sides of relationship ${String(side.id)} have role ${String(side.role)}`);
      if (partner.relationshipTableId !== side.relationshipTableId)
        throw invalid(
          where,
          `the sides of relationship ${String(side.id)} name different relationship tables`,
        );
      if (
        side.relationshipTableId !== undefined &&
        !layers.some((l) => l.layerId === side.relationshipTableId)
      )
        throw invalid(
          where,
          `relationship ${String(side.id)} names relationship table ${String(side.relationshipTableId)}, which is not published`,
        );
    }
  }
}
