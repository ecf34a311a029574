/**
 * A file geodatabase's relationship classes as the relationships of the service published from it.
 * GDAL reads the classes (the DERelationshipClassInfo definitions of the GDB_Items table) and lists them
 * in `ogrinfo -json`'s `relationships`: left is the origin class, right the destination; for one-to-one
 * and one-to-many the right table's field holds the origin's key, for many-to-many (an attributed class)
 * the mapping table, named like the class, holds both keys. Each class becomes one relationship listed
 * by both layers in ArcGIS's layer JSON form, numbered in the order of the class names.
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
  /** Classes that could not be published, each with the reason. */
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
    const problem = !cardinality
      ? `cardinality ${String(c.cardinality)} is not supported`
      : origin === undefined || destination === undefined || (through && table === undefined)
        ? 'not all of its tables are published'
        : origin === destination
          ? 'it relates a table to itself'
          : !originKey ||
              !destinationKey ||
              (through && (!single(c.left_mapping_table_fields) || !single(c.right_mapping_table_fields)))
            ? 'its keys are not single fields'
            : undefined;
    if (problem) {
      leftOut.push(`${name}: ${problem}`);
      continue;
    }
    const side = (role: string, relatedTableId: number, keyField: string, inTable?: string) => ({
      id,
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
        'esriRelRoleOrigin',
        destination as number,
        originKey as string,
        single(c.left_mapping_table_fields),
      ),
    );
    add(
      destination as number,
      side(
        'esriRelRoleDestination',
        origin as number,
        destinationKey as string,
        single(c.right_mapping_table_fields),
      ),
    );
    id++;
  }
  return { byLayer, leftOut };
}
