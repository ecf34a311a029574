/**
 * A file geodatabase's relationship classes as the relationships of the service published from it.
 * GDAL reads the classes (the DERelationshipClassInfo definitions of the GDB_Items table) and lists them
 * in `ogrinfo -json`'s `relationships`: left is the origin class, right the destination; for one-to-one
 * and one-to-many the right table's field holds the origin's key, for many-to-many (an attributed class)
 * the mapping table, named like the class, holds both keys. Each class becomes one relationship listed
 * by both layers in ArcGIS's layer JSON form, numbered in the order of the class names (the classes left
 * out take no number). A reflexive class (a table related to itself) is listed twice by its layer, one
 * entry per role, each with its own id (the next number), the way ArcGIS lists one; its two entries pair
 * by name (lib/service/relationships.ts). A class is left out, with a message naming it and the reason,
 * when one of its tables is not published (a publish listing some layers only; an attributed class whose
 * table GDAL does not list), when its keys are compound, or when its cardinality is unknown.
 */

/** One entry of GDAL's `ogrinfo -json` `relationships` object. */
export interface GdalRelationship {
  type?: string;
  cardinality?: string;
  left_table_name?: string;
  right_table_name?: string;
  left_table_fields?: string[];
  right_table_fields?: string[];
  mapping_table_name?: string;
  left_mapping_table_fields?: string[];
  right_mapping_table_fields?: string[];
}

/** A published table of the converted geodatabase: its layer id and its name in the file. */
export interface PublishedTable {
  layerId: number;
  table: string;
}

export interface GeodatabaseRelationships {
  /** Layer id → the relationships that layer lists (ArcGIS layer JSON). */
  byLayer: Map<number, Record<string, unknown>[]>;
  /** Classes that could not be published, one message each naming the class and the reason. */
  leftOut: string[];
}

const CARDINALITY: Record<string, string> = {
  OneToOne: 'esriRelCardinalityOneToOne',
  OneToMany: 'esriRelCardinalityOneToMany',
  ManyToMany: 'esriRelCardinalityManyToMany',
};

const single = (keys: string[] | undefined): string | undefined =>
  keys && keys.length === 1 && keys[0] ? keys[0] : undefined;

export function geodatabaseRelationships(
  classes: Record<string, GdalRelationship>,
  tables: readonly PublishedTable[],
): GeodatabaseRelationships {
  const byLayer = new Map<number, Record<string, unknown>[]>();
  const leftOut: string[] = [];
  const layerOf = (name: string | undefined) =>
    name === undefined
      ? undefined
      : tables.find((t) => t.table.toLowerCase() === name.toLowerCase())?.layerId;
  let id = 0;
  for (const name of Object.keys(classes).sort()) {
    const c = classes[name];
    const cardinality = CARDINALITY[c.cardinality ?? ''];
    const origin = layerOf(c.left_table_name);
    const destination = layerOf(c.right_table_name);
    const through = cardinality === CARDINALITY.ManyToMany;
    const table = through ? layerOf(c.mapping_table_name) : undefined;
    const originKey = single(c.left_table_fields);
    const destinationKey = single(c.right_table_fields);
    const missing = [
      origin === undefined ? (c.left_table_name ?? '(unnamed)') : undefined,
      destination === undefined ? (c.right_table_name ?? '(unnamed)') : undefined,
      through && table === undefined ? (c.mapping_table_name ?? '(unnamed)') : undefined,
    ].filter((t, i, all): t is string => t !== undefined && all.indexOf(t) === i);
    const problem = !cardinality
      ? `its cardinality ${String(c.cardinality)} is not one-to-one, one-to-many or many-to-many`
      : missing.length > 0
        ? `${missing.length === 1 ? 'its table' : 'its tables'} ${missing.map((t) => `'${t}'`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not published`
        : !originKey ||
            !destinationKey ||
            (through && (!single(c.left_mapping_table_fields) || !single(c.right_mapping_table_fields)))
          ? 'its keys are compound (a relationship relates one key field on each side)'
          : undefined;
    if (problem) {
      leftOut.push(`Relationship class '${name}' is left out: ${problem}.`);
      continue;
    }
    // A reflexive class (origin and destination one table) is listed twice by its layer, as ArcGIS lists
    // one: an entry per role, each with its own id.
    const reflexive = origin === destination;
    const side = (
      entryId: number,
      role: string,
      relatedTableId: number,
      keyField: string,
      inTable?: string,
    ) => ({
      id: entryId,
      name,
      relatedTableId,
      cardinality,
      role,
      keyField,
      composite: c.type === 'Composite',
      ...(through ? { relationshipTableId: table, keyFieldInRelationshipTable: inTable } : {}),
    });
    const add = (layerId: number, entry: Record<string, unknown>) =>
      byLayer.set(layerId, [...(byLayer.get(layerId) ?? []), entry]);
    add(
      origin as number,
      side(
        id,
        'esriRelRoleOrigin',
        destination as number,
        originKey as string,
        single(c.left_mapping_table_fields),
      ),
    );
    add(
      destination as number,
      side(
        reflexive ? id + 1 : id,
        'esriRelRoleDestination',
        origin as number,
        destinationKey as string,
        single(c.right_mapping_table_fields),
      ),
    );
    id += reflexive ? 2 : 1;
  }
  return { byLayer, leftOut };
}
