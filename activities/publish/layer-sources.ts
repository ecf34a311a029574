/**
 * Reads a publish source from MinIO as tables: a sample for planning, then batches for loading.
 * Delimited text streams from a byte offset, GeoJSON feature by feature from a feature number and
 * GeoPackage/SQLite tables page by page from a key (the file copied to a temporary file first);
 * workbooks and shapefiles are parsed whole and sliced from a row number. Those positions are the
 * resume points.
 */
import type { LayerPlan, LayerRequest, PublishRequest, SourcePlan } from '../../db/schema/publish-request.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { openSqlitePath, sqliteFromBytes } from '../../infra/readers/sqlite-pages.js';
import { keepSpooled, takeSpooled } from '../../infra/readers/sqlite-spool.js';
import { serviceDefinitionKind, sevenZipEntries } from '../../infra/service-definition.js';
import { badRequest } from '../../lib/errors.js';
import type { EsriGeometry, EsriGeometryType, SpatialReference } from '../../lib/geometry/types.js';
import { type ArchiveBudget, DEFAULT_ARCHIVE_BUDGET } from '../../lib/ingest/archive-budget.js';
import type { CellValue } from '../../lib/ingest/index.js';
import { geodatabaseRelationships } from '../../lib/service/geodatabase-relationships.js';
import { type CsvDialect, csvBatches, readCsvSample } from './csv-source.js';
import { parseWorkbook, pickSheet } from './excel-source.js';
import { collectionSourceTables, parseFeatureCollection } from './feature-collection-source.js';
import type { FeatureTable } from './feature-source.js';
import { type ConvertedGeodatabase, convertFileGeodatabase, convertGeodatabase } from './file-geodatabase.js';
import { geoJsonBatches, scanGeoJson } from './geojson-source.js';
import type { DeclaredField } from './layer-plan.js';
import { DEFAULT_PARSE_LIMITS, type ParseLimits, parseShapefileZip } from './parse-thread.js';
import { openSqlite } from './sqlite-catalog.js';
import { sqliteLayerBatches, sqliteSourceTables } from './sqlite-tables.js';

export const SAMPLE_ROWS = 1000;

export interface SourceTable {
  /** The layer request this table serves. */
  layer: LayerRequest;
  headers: string[];
  sampleRows: CellValue[][];
  geometryType?: EsriGeometryType | null;
  textColumns?: number[];
  source: SourcePlan;
  decimalComma: boolean;
  /** Whether the reader already produced WGS84 geometry (shapefiles with a .prj, GeoJSON). */
  wgs84Geometry: boolean;
  /** Fields as the source's schema declares them (GeoPackage, SQLite), one per header. */
  declaredFields?: DeclaredField[];
  /** The spatial reference the source declares for this table's geometry. */
  sourceSR?: SpatialReference;
  /** Relationships the source file declares for this layer (file geodatabase relationship classes). */
  relationships?: Record<string, unknown>[];
  /**
   * What the publish leaves out of the source, for the user (one message each: a file geodatabase's
   * relationship classes that cannot be published). Carried by the first table: they concern the service.
   */
  warnings?: string[];
}

export type Located = EsriGeometry | { reason: string } | null;

export interface ResumePoint {
  byteOffset: number;
  rowNumber: number;
}

export interface SourceBatch {
  rows: CellValue[][];
  geometries?: Located[];
  firstRowNumber: number;
  next: ResumePoint;
}

async function readWhole(store: ObjectStore, request: PublishRequest): Promise<Buffer> {
  return store.getBuffer(request.sourceKey);
}

/**
 * Tables to plan, one per layer; a zip of several shapefiles expands into one layer each.
 * `keepCopy`: a GeoPackage's or SQLite file's temporary copy is kept for the load (sqlite-spool.ts).
 */
/**
 * Bytes planning reads of a GeoPackage or SQLite file at once. A million-row table's estimated count
 * took 4-6 ms in blocks of 64 KB against 36-203 ms in the scan's 1 MB blocks (its interior pages lie
 * all over the file); counting every leaf instead took 43-96 ms, and grows with the file.
 */
const PLANNING_BLOCK_BYTES = 64 * 1024;

export async function sourceTables(
  store: ObjectStore,
  request: PublishRequest,
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
  keepCopy = false,
): Promise<SourceTable[]> {
  const base = { decimalComma: false, wgs84Geometry: false };
  switch (request.fileType) {
    case 'csv': {
      const sample = await readCsvSample(store, request.sourceKey, request.sourceSize, request.csv);
      const source: SourcePlan = {
        kind: 'csv',
        dialect: sample.dialect,
        dataOffset: sample.dataOffset,
        ...(sample.bytesPerRecord ? { bytesPerRecord: sample.bytesPerRecord } : {}),
      };
      const decimalComma = sample.dialect.delimiter === ';';
      return [
        {
          ...base,
          layer: request.layers[0],
          headers: sample.headers,
          sampleRows: sample.rows.slice(0, SAMPLE_ROWS),
          source,
          decimalComma,
        },
      ];
    }
    case 'excel': {
      const sheets = await parseWorkbook(await readWhole(store, request), limits);
      return request.layers.map((layer) => {
        const sheet = pickSheet(sheets, layer.sheet);
        return {
          ...base,
          layer,
          headers: sheet.headers,
          sampleRows: sheet.rows.slice(0, SAMPLE_ROWS),
          source: { kind: 'excel', sheet: sheet.name },
        };
      });
    }
    case 'geojson': {
      const table = await scanGeoJson(store, request.sourceKey, request.serviceName, SAMPLE_ROWS);
      return [
        {
          ...featureSource(request.layers[0], table),
          source: {
            kind: 'features',
            headers: table.headers,
            geometryType: table.geometryType,
            ...(table.hasZ ? { hasZ: true } : {}),
          },
        },
      ];
    }
    case 'sqlite': {
      // Copied to a temporary file and read page by page: the database is never held in memory. Planning
      // reads the catalog, a sample and a table's interior pages (its row count is estimated from them),
      // pages scattered over the file: read in small blocks, not the 1 MB a scan reads ahead.
      const spooled = await takeSpooled(store, request.sourceKey);
      let planned = false;
      try {
        const db = await openSqlite(() => openSqlitePath(spooled.path, { blockBytes: PLANNING_BLOCK_BYTES }));
        try {
          const tables = await sqliteSourceTables(db, request, SAMPLE_ROWS);
          planned = true;
          return tables;
        } finally {
          db.close();
        }
      } finally {
        if (keepCopy && planned) await keepSpooled(request.sourceKey, spooled);
        else await spooled.remove();
      }
    }
    case 'fileGeodatabase':
    case 'serviceDefinition': {
      // Converted once, when planning; the layers load from the converted copy.
      const whole = await readWhole(store, request);
      const { gpkg, relationships } =
        request.fileType === 'fileGeodatabase'
          ? await convertFileGeodatabase(whole, limits.archive)
          : await serviceDefinitionGeodatabase(whole, limits.archive);
      const objectKey = `${request.sourceKey}.gpkg`;
      await store.put(objectKey, Buffer.from(gpkg), gpkg.length);
      const db = await openSqlite(() => sqliteFromBytes(gpkg));
      try {
        const tables = await sqliteSourceTables(db, request, SAMPLE_ROWS, objectKey);
        return withFileRelationships(tables, request, relationships);
      } finally {
        db.close();
      }
    }
    case 'featureCollection':
      return collectionSourceTables(
        parseFeatureCollection(await readWhole(store, request)),
        request,
        SAMPLE_ROWS,
      );
    case 'shapefile': {
      const tables = await parseShapefileZip(await readWhole(store, request), limits);
      const first = request.layers[0];
      return tables.map((table, i) =>
        featureSource(
          tables.length === 1
            ? first
            : { ...first, id: i, name: i === 0 && first.layerInfo.name ? first.name : table.name },
          table,
        ),
      );
    }
  }
}

/** The file geodatabase a service definition carries, as a GeoPackage. */
export async function serviceDefinitionGeoPackage(
  bytes: Uint8Array,
  budget?: ArchiveBudget,
): Promise<Uint8Array> {
  return (await serviceDefinitionGeodatabase(bytes, budget)).gpkg;
}

/** The file geodatabase a service definition carries, converted, with its relationship classes. */
export async function serviceDefinitionGeodatabase(
  bytes: Uint8Array,
  budget: ArchiveBudget = DEFAULT_ARCHIVE_BUDGET,
): Promise<ConvertedGeodatabase> {
  const entries = await sevenZipEntries(bytes, budget);
  if (serviceDefinitionKind(Object.keys(entries)) === 'tiles')
    throw badRequest('Unable to publish the file.', [
      'The service definition carries a tile cache: it publishes as a tiled Map Service, not a feature service.',
    ]);
  return convertGeodatabase(entries);
}

/**
 * The geodatabase's relationship classes on the layers they relate, unless the publisher declares
 * relationships itself (on any layer): a declaration replaces what the file says. The classes that
 * cannot be published are said in the first table's warnings.
 */
function withFileRelationships(
  tables: SourceTable[],
  request: PublishRequest,
  classes: ConvertedGeodatabase['relationships'],
): SourceTable[] {
  if (request.layers.some((l) => l.layerInfo.relationships !== undefined)) return tables;
  const { byLayer, leftOut } = geodatabaseRelationships(classes, publishedTables(tables));
  return tables.map((t, i) => ({
    ...t,
    ...(byLayer.has(t.layer.id) ? { relationships: byLayer.get(t.layer.id) } : {}),
    ...(i === 0 && leftOut.length > 0 ? { warnings: [...(t.warnings ?? []), ...leftOut] } : {}),
  }));
}

/** The tables of a converted geodatabase that a publish loads: layer id and name in the file. */
export const publishedTables = (tables: readonly SourceTable[]) =>
  tables.flatMap((t) => (t.source.kind === 'sqlite' ? [{ layerId: t.layer.id, table: t.source.table }] : []));

function featureSource(layer: LayerRequest, table: FeatureTable): SourceTable {
  return {
    layer,
    headers: table.headers,
    sampleRows: table.rows.slice(0, SAMPLE_ROWS),
    geometryType: table.geometryType,
    textColumns: table.textColumns,
    source: { kind: 'features', ...(table.hasZ ? { hasZ: true } : {}) },
    decimalComma: false,
    wgs84Geometry: true,
  };
}

/** Batches of one layer from a resume point to the end. */
export async function* layerBatches(
  store: ObjectStore,
  request: PublishRequest,
  plan: LayerPlan,
  start: ResumePoint,
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
): AsyncGenerator<SourceBatch> {
  if (plan.source.kind === 'csv') {
    yield* csvBatches(store, request.sourceKey, plan.source.dialect as CsvDialect, start);
    return;
  }
  if (plan.source.kind === 'features' && request.fileType === 'geojson') {
    let { headers, geometryType } = plan.source;
    if (!headers || geometryType === undefined) {
      // A plan made before GeoJSON streamed: describe the file again.
      ({ headers, geometryType } = await scanGeoJson(store, request.sourceKey, plan.name, 0));
    }
    yield* geoJsonBatches(store, request.sourceKey, headers, geometryType, start, plan.source.hasZ === true);
    return;
  }
  if (plan.source.kind === 'sqlite') {
    const spooled = await takeSpooled(store, plan.source.objectKey ?? request.sourceKey);
    try {
      yield* sqliteLayerBatches(() => openSqlitePath(spooled.path), plan, start);
    } finally {
      await spooled.remove();
    }
    return;
  }
  let rows: CellValue[][];
  let geometries: Located[] | undefined;
  if (plan.source.kind === 'excel') {
    rows = pickSheet(await parseWorkbook(await readWhole(store, request), limits), plan.source.sheet).rows;
  } else if (plan.source.kind === 'featureCollection') {
    const layer = parseFeatureCollection(await readWhole(store, request))[plan.source.index];
    if (!layer)
      throw badRequest('Unable to read the file.', [`The source has no layer ${plan.source.index}.`]);
    rows = layer.rows;
    geometries = layer.geometries;
  } else {
    const tables = await parseShapefileZip(await readWhole(store, request), limits);
    const table = tables[plan.id];
    if (!table) throw badRequest('Unable to read the file.', [`The source has no layer ${plan.id}.`]);
    rows = table.rows;
    geometries = table.geometries;
  }
  const size = 2000;
  for (let from = start.rowNumber; from < rows.length; from += size) {
    const to = Math.min(rows.length, from + size);
    yield {
      rows: rows.slice(from, to),
      ...(geometries ? { geometries: geometries.slice(from, to) } : {}),
      firstRowNumber: from,
      next: { byteOffset: 0, rowNumber: to },
    };
  }
}
