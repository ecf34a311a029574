/**
 * The drawable layers of a hosted feature service, and their features around a map area: read by
 * bounding box from the per-layer table (GiST on `bbox`), projected to Web Mercator, carrying only the
 * attributes the layer's renderer reads.
 */
import { type SQL, sql } from 'drizzle-orm';
import { geometryBounds } from '../../lib/geometry/bounds.js';
import {
  type Bounds,
  type EsriGeometry,
  type EsriGeometryType,
  type SpatialReference,
  WEB_MERCATOR,
} from '../../lib/geometry/types.js';
import { createTransformer, type Transformer } from '../../lib/projection/index.js';
import { projectBounds } from '../../lib/projection/project-bounds.js';
import { parseShape } from '../../lib/query/row-mapping.js';
import { type PackedPoints, packedPointsIn } from '../../lib/render/packed-points.js';
import type { DrawingInfo, FeatureRenderer, RenderFeature } from '../../lib/render/types.js';
import type { DatabaseHandle } from '../client.js';
import { boxLiteral, featureTableParts } from './feature-tables.js';
import { findService, listLayers } from './services.js';

export interface DrawableLayer {
  layerId: number;
  name: string;
  tableName: string;
  geometryType: EsriGeometryType;
  drawingInfo: DrawingInfo | null;
  /** Esri field name → physical column, for the renderer's fields only. */
  rendererColumns: { name: string; column: string }[];
  /** The layer's extent in Web Mercator, when known. */
  extent: Bounds | null;
  featureCount: number;
}

export interface SourceLayers {
  storageSR: SpatialReference;
  layers: DrawableLayer[];
}

/** Feature layers (not tables) of a service, in drawing order (layer 0 at the bottom). */
export async function drawableLayers(database: DatabaseHandle, serviceItemId: string): Promise<SourceLayers> {
  const service = await findService(database.db, serviceItemId);
  const storageSR = (service?.definition.spatialReference as SpatialReference | undefined) ?? WEB_MERCATOR;
  const toMercator = createTransformer(storageSR, WEB_MERCATOR);
  const rows = await listLayers(database.db, serviceItemId);
  const layers: DrawableLayer[] = [];
  for (const row of rows) {
    const def = row.definition as {
      name?: string;
      geometryType?: EsriGeometryType;
      drawingInfo?: DrawingInfo | null;
      extent?: { xmin: unknown; ymin: unknown; xmax: unknown; ymax: unknown };
      type?: string;
    };
    if (!def.geometryType || def.type === 'Table') continue;
    const wanted = rendererFields(def.drawingInfo?.renderer ?? null).map((f) => f.toLowerCase());
    layers.push({
      layerId: row.layerId,
      name: def.name ?? `Layer ${row.layerId}`,
      tableName: row.tableName,
      geometryType: def.geometryType,
      drawingInfo: def.drawingInfo ?? null,
      rendererColumns: row.columns.filter((c) => wanted.includes(c.name.toLowerCase())),
      extent: extentInMercator(def.extent, toMercator),
      featureCount: row.featureCount,
    });
  }
  return { storageSR, layers };
}

/** Fields a renderer and its visual variables read. */
export function rendererFields(renderer: FeatureRenderer | null): string[] {
  if (!renderer) return [];
  const r = renderer as unknown as Record<string, unknown> & {
    visualVariables?: { field?: string; normalizationField?: string }[];
  };
  const names = [r.field1, r.field2, r.field3, r.field, r.normalizationField];
  for (const vv of r.visualVariables ?? []) names.push(vv.field, vv.normalizationField);
  const rotation = /^\[([^\]]+)\]$/.exec(String(r.rotationExpression ?? ''))?.[1];
  names.push(rotation);
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== ''))];
}

function extentInMercator(
  e: { xmin: unknown; ymin: unknown; xmax: unknown; ymax: unknown } | undefined,
  toMercator: Transformer,
): Bounds | null {
  if (!e) return null;
  const v = [e.xmin, e.ymin, e.xmax, e.ymax].map(Number);
  if (v.some((n) => !Number.isFinite(n))) return null;
  return projectBounds(v as Bounds, toMercator);
}

export interface LocatedFeature extends RenderFeature {
  geometry: EsriGeometry;
  bounds: Bounds;
}

/**
 * What a read for drawing gives (`packed` asked for): the features, or, for a point layer drawn without
 * attributes, its points packed (lib/render/packed-points.ts).
 */
export type DrawnFeatures = LocatedFeature[] | PackedPoints;

/** What a read gives: features, or, where `packed` is asked for, DrawnFeatures. */
type ReadFor<P extends boolean> = P extends true ? DrawnFeatures : LocatedFeature[];

/** Features of a layer whose stored box meets `bounds` (Web Mercator), projected to Web Mercator. */
export async function featuresIn(
  database: DatabaseHandle,
  layer: DrawableLayer,
  storageSR: SpatialReference,
  bounds: Bounds,
): Promise<LocatedFeature[]> {
  return (await readFeatures(database, layer, storageSR, bounds, undefined, undefined)) ?? [];
}

/**
 * featuresIn, or undefined when more than `most` features meet `bounds`: at most `most` + 1 rows are
 * read, so a dense cluster in an area the even-spread estimate (estimatedFeaturesIn) takes for sparse is
 * found out by reading no more than that.
 */
export function featuresUpTo<P extends boolean = false>(
  database: DatabaseHandle,
  layer: DrawableLayer,
  storageSR: SpatialReference,
  bounds: Bounds,
  most: number,
  packed?: P,
): Promise<ReadFor<P> | undefined> {
  return readFeatures(database, layer, storageSR, bounds, undefined, Math.max(0, Math.floor(most)), packed);
}

/**
 * How many of a layer's features meet `bounds` (Web Mercator), counting no further than `most` + 1: an
 * index scan that decodes no row, for a caller that reads every field only where few enough are there.
 */
export async function featureCountUpTo(
  database: DatabaseHandle,
  layer: DrawableLayer,
  storageSR: SpatialReference,
  bounds: Bounds,
  most: number,
): Promise<number> {
  const box = boxLiteral(projectBounds(bounds, createTransformer(WEB_MERCATOR, storageSR)));
  const table = checkedTable(layer.tableName);
  const points = layer.geometryType === 'esriGeometryPoint' ? sql` and ("bbox"[0]) <@ ${box}::box` : sql``;
  const limit = sql.raw(` limit ${Math.max(0, Math.floor(most)) + 1}`);
  const [row] = await database.rows<{ n: number | string }>(
    sql`select count(*)::int as "n" from (select 1 from ${sql.raw(table)} where "bbox" && ${box}::box${points}${limit}) as "found"`,
  );
  return Number(row?.n ?? 0);
}

/**
 * A run of the blocks of one table or part (`table`, checked and quoted): `from` up to (not including)
 * `to`; no `to` for the rest of it.
 */
interface BlockRun {
  table: string;
  from: number;
  to?: number;
}

/**
 * featuresIn in pages of about `pageRows` rows, for an area that holds too many features to read at once
 * (a low level's metatile over a large layer): the table is read in runs of its blocks (a TID range
 * scan each), so each page holds only its run's features and a statement of the embedded PGlite, which
 * runs on the worker's thread, stays short. Pages come in the table's physical order: the order in which
 * a bitmap or sequential scan (what the planner takes for so many rows) gives featuresIn's one read, so
 * drawing them page by page gives its pixels.
 *
 * A table partitioned by object id (a large load's, feature-tables.ts createFeatureTable) has no blocks
 * of its own, and a TID range means a place within each part: its parts are read in turn, by name, in
 * object id order, each in runs of its own blocks. Each part's last run is open-ended, so rows added
 * since the sizes were read are not left out.
 */
export async function* featurePagesIn<P extends boolean = false>(
  database: DatabaseHandle,
  layer: DrawableLayer,
  storageSR: SpatialReference,
  bounds: Bounds,
  pageRows: number,
  packed?: P,
): AsyncGenerator<ReadFor<P>> {
  const relations = await pagedRelations(database, layer.tableName);
  const blocks = relations.reduce((n, r) => n + r.blocks, 0);
  // Blocks a page spans, from the whole table's rows per block: parts are filled by the same load.
  const step = Math.max(1, Math.floor((blocks * pageRows) / Math.max(1, layer.featureCount)));
  for (const relation of relations) {
    for (let from = 0; ; from += step) {
      const last = from + step >= relation.blocks;
      const run = last ? { table: relation.table, from } : { table: relation.table, from, to: from + step };
      yield (await readFeatures(database, layer, storageSR, bounds, run, undefined, packed)) ??
        ([] as ReadFor<P>);
      if (last) break;
    }
  }
}

/**
 * What a paged read walks, with each one's size in blocks: the table itself, or its parts in object
 * id order when it is partitioned.
 */
async function pagedRelations(
  database: DatabaseHandle,
  tableName: string,
): Promise<{ table: string; blocks: number }[]> {
  const table = checkedTable(tableName);
  const parts = await featureTableParts(database, tableName);
  const names = parts.length === 0 ? [table] : parts.map((p) => checkedPart(p.name));
  const [sizes] = await database.rows<Record<string, number | string>>(
    sql.raw(
      `select ${names
        .map(
          (n, i) =>
            `(pg_relation_size('${n}'::regclass) / current_setting('block_size')::int)::int as "b${i}"`,
        )
        .join(', ')}`,
    ),
  );
  return names.map((n, i) => ({ table: n, blocks: Number(sizes?.[`b${i}`] ?? 0) }));
}

/**
 * The features meeting `bounds`, in one page when `atOnce` or fewer are there, otherwise in pages of
 * about that many (featurePagesIn). Where more are expected (estimatedFeaturesIn) the pages start at
 * once; where fewer are, one read of at most `atOnce` + 1 rows tells.
 */
export async function* featuresInParts<P extends boolean = false>(
  database: DatabaseHandle,
  layer: DrawableLayer,
  storageSR: SpatialReference,
  bounds: Bounds,
  atOnce: number,
  packed?: P,
): AsyncGenerator<ReadFor<P>> {
  const all =
    estimatedFeaturesIn(layer, bounds) <= atOnce
      ? await featuresUpTo(database, layer, storageSR, bounds, atOnce, packed)
      : undefined;
  if (all) yield all;
  else yield* featurePagesIn(database, layer, storageSR, bounds, atOnce, packed);
}

/**
 * About how many of a layer's features meet `bounds` (Web Mercator), taking them as spread evenly over
 * the layer's extent: where it is over a bundle's or metatile's budget, the area is read in parts at
 * once; under it, a capped read (featuresUpTo) checks, since features may be clustered.
 */
export function estimatedFeaturesIn(layer: DrawableLayer, bounds: Bounds): number {
  const e = layer.extent;
  if (!e) return layer.featureCount;
  const w = Math.min(bounds[2], e[2]) - Math.max(bounds[0], e[0]);
  const h = Math.min(bounds[3], e[3]) - Math.max(bounds[1], e[1]);
  if (w < 0 || h < 0) return 0;
  const area = (e[2] - e[0]) * (e[3] - e[1]);
  if (!(area > 0)) return layer.featureCount;
  return Math.min(1, (w * h) / area) * layer.featureCount;
}

async function readFeatures<P extends boolean = false>(
  database: DatabaseHandle,
  layer: DrawableLayer,
  storageSR: SpatialReference,
  bounds: Bounds,
  run: BlockRun | undefined,
  most: number | undefined,
  packed?: P,
): Promise<ReadFor<P> | undefined> {
  const toStorage = createTransformer(WEB_MERCATOR, storageSR);
  const toMercator = createTransformer(storageSR, WEB_MERCATOR);
  const box = boxLiteral(projectBounds(bounds, toStorage));
  const table = run?.table ?? checkedTable(layer.tableName);
  const columns = layer.rendererColumns.map((c) => `, "${checkedColumn(c.column)}"`).join('');
  // Points are found through the point index (see lib/query/query-plan.ts bboxFilter), and drawn from
  // it: a point's box is the point, stored as the same two doubles its shape holds, so the point layers
  // of a cache build read two numbers a row instead of parsing each row's shape.
  const isPoint = layer.geometryType === 'esriGeometryPoint';
  const where = run
    ? sql`${inBlocks(isPoint, box)}${blockFilter(run)}`
    : sql`"bbox" && ${box}::box${isPoint ? sql` and ("bbox"[0]) <@ ${box}::box` : sql``}`;
  // One row over the cap tells there are more than `most`: never more than that is read.
  const limit = most === undefined ? sql`` : sql.raw(` limit ${most + 1}`);
  if (
    isPoint &&
    layer.rendererColumns.length === 0 &&
    (run !== undefined || Math.min(layer.featureCount, most ?? Infinity) <= MAX_POINTS_IN_ONE_ROW)
  ) {
    const { rows, xy } = await pointsIn(database, table, where, limit, toMercator);
    if (most !== undefined && rows > most) return undefined;
    return (packed ? { xy } : packedPointsIn({ xy })) as ReadFor<P>;
  }
  const shape = isPoint ? sql`("bbox"[0])[0] as "x", ("bbox"[0])[1] as "y"` : sql`"shape"`;
  const rows = await database.rows<Record<string, unknown>>(
    sql`select ${shape}${sql.raw(columns)} from ${sql.raw(table)} where ${where}${limit}`,
  );
  if (most !== undefined && rows.length > most) return undefined;
  const out: LocatedFeature[] = [];
  for (const row of rows) {
    const stored = isPoint ? pointOf(row) : parseShape(row.shape);
    if (!stored) continue;
    const geometry = toMercator.identity ? stored : toMercator.projectGeometry(stored);
    const b = geometryBounds(geometry);
    if (!b) continue;
    const attributes: Record<string, unknown> = {};
    for (const c of layer.rendererColumns) attributes[c.name] = row[c.column];
    out.push({ geometry, attributes, bounds: b });
  }
  return out;
}

/**
 * A page's test of the stored box against `box`: the operators' own functions (`&&` is box_overlap,
 * point `<@` box is on_pb), the same test, which no index serves. A page is then always a TID range
 * scan of its run: its rows in physical order, each run's read once. With the operators the planner may
 * take the spatial index, whose selectivity it guesses at a tenth of a percent, for cheaper on a
 * table's part (a part's index is a fraction of the table's) and walk all of the part's matches through
 * it, in the index's order, for every page.
 */
function inBlocks(isPoint: boolean, box: string): SQL {
  const overlap = sql`box_overlap("bbox", ${box}::box)`;
  return isPoint ? sql`${overlap} and on_pb("bbox"[0], ${box}::box)` : overlap;
}

/** The rows of a run of blocks, by their physical address (integers only: no text reaches the SQL). */
function blockFilter(run: BlockRun) {
  const from = Math.max(0, Math.floor(run.from));
  const lower = sql.raw(` and ctid >= '(${from},0)'::tid`);
  if (run.to === undefined) return lower;
  return sql`${lower}${sql.raw(` and ctid < '(${Math.max(from, Math.floor(run.to))},0)'::tid`)}`;
}

/**
 * Up to this many points (the layer's count as last recorded) come back as one value: read row by row,
 * the driver's work per row was most of a low level's bundle (every point of the layer, at every level up
 * to the one where the data spans a few tiles). 16 bytes a point: 8 MB at this count.
 */
const MAX_POINTS_IN_ONE_ROW = 500_000;

/**
 * The points of a layer drawn without attributes, in `box` (storage coordinates), read as one row: each
 * point's two doubles as `float8send` gives them (8 bytes each, big-endian, the exact values), one after
 * the other in the order the scan gives, and made into packed points (Web Mercator) without any text.
 * As a text of numbers, splitting and reading it was most of a shallow bundle's time on the activity's
 * thread: 171,075 cities held the embedded product's event loop for 150-200 ms a read.
 */
async function pointsIn(
  database: DatabaseHandle,
  table: string,
  where: SQL,
  limit: SQL,
  toMercator: Transformer,
): Promise<{ rows: number; xy: Float64Array }> {
  const [row] = await database.rows<{ rows: number | string; points: Uint8Array | null }>(
    sql`select count(*)::int as "rows", string_agg(float8send(("p")[0]) || float8send(("p")[1]), ''::bytea) as "points" from (select "bbox"[0] as "p"
        from ${sql.raw(table)} where ${where}${limit}) as "found"`,
  );
  const rows = Number(row?.rows ?? 0);
  const bytes = row?.points;
  if (!bytes || bytes.length < 16) return { rows, xy: new Float64Array(0) };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const xy = new Float64Array(Math.floor(bytes.length / 16) * 2);
  let n = 0;
  for (let at = 0; at + 16 <= bytes.length; at += 16) {
    const x = view.getFloat64(at, false);
    const y = view.getFloat64(at + 8, false);
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (toMercator.identity) {
      xy[n++] = x;
      xy[n++] = y;
      continue;
    }
    const g = toMercator.projectGeometry({ x, y }) as { x: number; y: number };
    if (!Number.isFinite(g.x) || !Number.isFinite(g.y)) continue;
    xy[n++] = g.x;
    xy[n++] = g.y;
  }
  return { rows, xy: n === xy.length ? xy : xy.slice(0, n) };
}

/** The point of a row read as x and y (doubles; a driver may hand them over as text). */
function pointOf(row: Record<string, unknown>): EsriGeometry | null {
  const x = Number(row.x);
  const y = Number(row.y);
  return row.x === null || row.y === null || !Number.isFinite(x) || !Number.isFinite(y) ? null : { x, y };
}

const TABLE = /^f_[a-z0-9]{32}_\d{1,3}$/;
/** A part of a partitioned table (feature-tables.ts partName), as the catalog names it. */
const PART = /^f_[a-z0-9]{32}_\d{1,3}_p\d{1,3}$/;
/** Attribute columns, and the object id column that vector tiles carry as each feature's id. */
const COLUMN = /^(a_\d{1,4}|objectid)$/;

function checkedTable(name: string): string {
  if (!TABLE.test(name)) throw new Error(`Unexpected feature table name ${name}`);
  return `"${name}"`;
}

function checkedPart(name: string): string {
  if (!PART.test(name)) throw new Error(`Unexpected feature table part ${name}`);
  return `"${name}"`;
}

function checkedColumn(name: string): string {
  if (!COLUMN.test(name)) throw new Error(`Unexpected feature column ${name}`);
  return name;
}
