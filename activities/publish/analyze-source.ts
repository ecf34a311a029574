/**
 * The analyze activity: reads the start of a csv (GeoJSON as a stream, the whole workbook, zip or
 * database), detects encoding, delimiter, qualifier, field types and location fields, and writes
 * publishParameters ready to hand to publish, with sample records, to the object store; for a file
 * geodatabase (or a .sd carrying one) the layers list the relationships its classes make, and `warnings`
 * says which classes a publish cannot carry (lib/service/geodatabase-relationships.ts). The API
 * (api/publish/analyze-route.ts) stores the upload under a temporary key, runs workflows/analyze.ts and
 * reads the answer back: whole-file parsing never runs in the API process, and no rows enter the
 * workflow history (the activity takes and returns object keys).
 */
import type { LayerPlan, LayerRequestWithLocale, PublishFileType } from '../../db/schema/publish-request.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { openSqlitePath } from '../../infra/readers/sqlite-pages.js';
import { keepSpooled, takeSpooled } from '../../infra/readers/sqlite-spool.js';
import { badRequest } from '../../lib/errors.js';
import {
  ANALYZE_SAMPLE_BYTES,
  type CellValue,
  localeConventions,
  parseCellValue,
} from '../../lib/ingest/index.js';
import { geodatabaseRelationships } from '../../lib/service/geodatabase-relationships.js';
import { withFailureMapping } from './activity-errors.js';
import {
  ANALYZED_SERVICE,
  type AnalyzedTable,
  analyzeFeatureCollection,
  analyzeSqlite,
} from './analyze-tables.js';
import { sampleFromBytes } from './csv-source.js';
import { parseWorkbook } from './excel-source.js';
import { convertFileGeodatabase } from './file-geodatabase.js';
import { describeGeoJson, geoJsonFeatures } from './geojson-source.js';
import { buildLayerDefinition } from './layer-definition.js';
import { type DeclaredField, planLayer } from './layer-plan.js';
import { publishedTables, serviceDefinitionGeodatabase } from './layer-sources.js';
import { detectLocation } from './location-detection.js';
import { DEFAULT_PARSE_LIMITS, type ParseLimits, parseShapefileZip } from './parse-thread.js';

const ANALYZE_ID = '0'.repeat(32);

export interface AnalyzeInput {
  /** The object analyzed: an item's data, or the temporary copy of an upload or `text`. */
  sourceKey: string;
  /** The source's size in bytes (a CSV's temporary copy may hold only its first ANALYZE_SAMPLE_BYTES). */
  size: number;
  /** The file's (or item's) name: the proposed service and layer name derive from it. */
  name: string;
  fileType: PublishFileType;
  /** analyzeParameters as the client sent them (already parsed as a JSON object). */
  options: Record<string, unknown>;
  /** Where the activity writes its answer (JSON); the API reads and removes it. */
  resultKey: string;
}

export interface AnalyzeOutput {
  resultKey: string;
  bytes: number;
}

export interface AnalyzeDeps {
  store: ObjectStore;
  parseLimits?: ParseLimits;
}

export function createAnalyzeActivities(deps: AnalyzeDeps) {
  return withFailureMapping({
    /** Idempotent: a retry reads the same source and overwrites the same result key. */
    async analyzeSource(input: AnalyzeInput): Promise<AnalyzeOutput> {
      const result = Buffer.from(JSON.stringify(await analyzeObject(deps.store, input, deps.parseLimits)));
      await deps.store.put(input.resultKey, result, result.length, 'application/json');
      return { resultKey: input.resultKey, bytes: result.length };
    },
  });
}

export type AnalyzeActivities = ReturnType<typeof createAnalyzeActivities>;

interface Table {
  name: string;
  headers: string[];
  rows: CellValue[][];
  geometryType?: LayerPlan['geometryType'];
  textColumns?: number[];
  decimalComma: boolean;
  sheetIndex?: number;
  declaredFields?: DeclaredField[];
  /** Layer resource keys the source carries (a feature collection's drawingInfo). */
  layerInfo?: Record<string, unknown>;
}

const EDITOR_TRACKING = {
  enableEditorTracking: false,
  enableOwnershipAccessControl: false,
  allowOthersToQuery: true,
  allowOthersToUpdate: true,
  allowOthersToDelete: false,
  allowAnonymousToUpdate: true,
  allowAnonymousToDelete: true,
};

/** The analysis of `input`'s source: publishParameters, sample records and (multi-table files) layers. */
export async function analyzeObject(
  store: ObjectStore,
  input: AnalyzeInput,
  parseLimits: ParseLimits = DEFAULT_PARSE_LIMITS,
): Promise<Record<string, unknown>> {
  const { fileType, options } = input;
  const source = { key: input.sourceKey, size: input.size };
  const sampleSize = Math.min(
    Math.max(Number(options.resultRecordCount ?? options.maxRecordCount ?? 10) || 10, 1),
    1000,
  );
  const name = baseName(input.name);
  let tables: Table[];
  let extra: Record<string, unknown> = {};
  let layerSummaries: Record<string, unknown>[] | undefined;
  let fileRelationships: Map<number, Record<string, unknown>[]> | undefined;
  let warnings: string[] = [];
  if (['sqlite', 'featureCollection', 'fileGeodatabase', 'serviceDefinition'].includes(fileType)) {
    const geodatabase =
      fileType === 'fileGeodatabase'
        ? await convertFileGeodatabase(await readObjectBytes(store, source), parseLimits.archive)
        : fileType === 'serviceDefinition'
          ? await serviceDefinitionGeodatabase(await readObjectBytes(store, source), parseLimits.archive)
          : undefined;
    const analyzed: AnalyzedTable[] =
      fileType === 'sqlite'
        ? await analyzeSqliteObject(store, source.key, name)
        : fileType === 'featureCollection'
          ? analyzeFeatureCollection(await readObjectBytes(store, source), name, 1000)
          : await analyzeSqlite(geodatabase?.gpkg as Uint8Array, name, 1000);
    // The relationship classes publish makes of the file when every table is published, as the
    // relationships of publishParameters.layers (publishing them unchanged declares the same ones).
    if (geodatabase) {
      const { byLayer, leftOut } = geodatabaseRelationships(
        geodatabase.relationships,
        publishedTables(analyzed.map((a) => a.table)),
      );
      fileRelationships = byLayer;
      warnings = leftOut;
    }
    layerSummaries = analyzed.map((a) => a.summary);
    tables = analyzed.map(({ table: t }) => ({
      name: t.name,
      headers: t.headers,
      rows: t.sampleRows,
      geometryType: t.geometryType,
      decimalComma: false,
      declaredFields: t.declaredFields,
      layerInfo: t.layer.layerInfo,
    }));
  } else if (fileType === 'csv') {
    const bytes = await readObjectBytes(store, source, ANALYZE_SAMPLE_BYTES);
    const sample = sampleFromBytes(bytes, bytes.length >= source.size);
    const decimalComma = sample.dialect.delimiter === ';';
    tables = [{ name, headers: sample.headers, rows: sample.rows, decimalComma }];
    extra = {
      columnDelimiter: sample.dialect.delimiter,
      qualifier: sample.dialect.qualifier,
      encoding: sample.dialect.encoding,
    };
  } else if (fileType === 'excel') {
    const bytes = await readObjectBytes(store, source);
    tables = (await parseWorkbook(bytes, parseLimits)).map((s, i) => ({
      ...s,
      decimalComma: false,
      sheetIndex: i,
    }));
  } else {
    // GeoJSON is read as a stream (fields and types from every feature, rows only for the sample).
    const parsed =
      fileType === 'geojson'
        ? [await describeGeoJson(geoJsonFeatures(objectChunks(store, source.key)), name, 1000)]
        : await parseShapefileZip(await readObjectBytes(store, source), parseLimits);
    tables = parsed.map((t) => ({
      name: t.name,
      headers: t.headers,
      rows: t.rows,
      geometryType: t.geometryType,
      textColumns: t.textColumns,
      decimalComma: false,
    }));
  }
  // sourceLocale: text numbers with a decimal comma, ambiguous short dates in the locale's order.
  const tag =
    typeof options.sourceLocale === 'string' && options.sourceLocale.trim() ? options.sourceLocale : '';
  const locale = tag && (fileType === 'csv' || fileType === 'excel') ? localeConventions(tag) : null;
  if (tag && locale === null && (fileType === 'csv' || fileType === 'excel')) {
    throw badRequest('Invalid analyzeParameters.', [
      `sourceLocale '${tag}' is not a locale tag such as 'de' or 'en-US'.`,
    ]);
  }
  if (locale?.decimalComma) for (const t of tables) t.decimalComma = true;
  const analyzed = tables.map((t, i) =>
    analyzeTable(t, i, fileType, tables.length === 1 ? name : t.name, locale ? tag : undefined),
  );
  const first = analyzed[0];
  const publishParameters: Record<string, unknown> = {
    type: fileType,
    name,
    sourceUrl: '',
    maxRecordCount: 2000,
    sourceSR: { wkid: 4326, latestWkid: 4326 },
    targetSR: { wkid: 102100, latestWkid: 3857 },
    editorTrackingInfo: EDITOR_TRACKING,
    hasStaticData: true,
    persistErrorRecordsForReview: true,
    sourceCountry: typeof options.sourceCountry === 'string' ? options.sourceCountry : 'world',
    sourceLocale: typeof options.sourceLocale === 'string' ? options.sourceLocale : 'en',
    dateFieldsTimeReference: { timeZone: 'UTC' },
    ...extra,
  };
  if (['sqlite', 'featureCollection', 'fileGeodatabase', 'serviceDefinition'].includes(fileType)) {
    // Every table, listed by its position in the file: publish takes them as they are.
    publishParameters.layers = analyzed.map((a) => ({
      ...a.layerInfo,
      id: a.index,
      ...(fileRelationships ? { relationships: fileRelationships.get(a.index) ?? [] } : {}),
    }));
    publishParameters.layerInfo = first?.layerInfo ?? {};
    // A geodatabase published from layerInfo alone takes its classes from the file: none are declared.
    if (fileRelationships) delete (publishParameters.layerInfo as Record<string, unknown>).relationships;
  } else if (fileType === 'excel') {
    publishParameters.layers = analyzed.map((a) => ({
      ...a.location,
      ...a.layerInfo,
      excelSheetId: a.index,
    }));
    publishParameters.layerInfo = { capabilities: 'Query' };
  } else {
    Object.assign(publishParameters, first?.location ?? {});
    publishParameters.layerInfo = first?.layerInfo ?? {};
  }
  return {
    publishParameters,
    records: first ? first.records.slice(0, sampleSize) : [],
    ...(layerSummaries ? { layers: layerSummaries } : {}),
    // What publishing these parameters leaves out of the file, one message each.
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

function analyzeTable(
  t: Table,
  index: number,
  fileType: PublishFileType,
  layerName: string,
  sourceLocale?: string,
) {
  const records = t.rows.map((row) => Object.fromEntries(t.headers.map((h, i) => [h, row[i]])));
  const detected = detectLocation(t.headers, records, { decimalComma: t.decimalComma });
  const hasGeometry = [
    'geojson',
    'shapefile',
    'sqlite',
    'featureCollection',
    'fileGeodatabase',
    'serviceDefinition',
  ].includes(fileType);
  const locationType = hasGeometry ? 'geometry' : detected.locationType;
  const request: LayerRequestWithLocale = {
    ...(sourceLocale ? { sourceLocale } : {}),
    id: index,
    name: layerName,
    location:
      locationType === 'coordinates'
        ? {
            type: 'coordinates',
            latitudeFieldName: detected.latitudeFieldName,
            longitudeFieldName: detected.longitudeFieldName,
          }
        : locationType === 'geometry'
          ? { type: 'geometry' }
          : { type: 'none' },
    layerInfo: {},
  };
  const plan = planLayer({
    serviceItemId: ANALYZE_ID,
    layer: request,
    sample: {
      headers: t.headers,
      rows: t.rows,
      geometryType: t.geometryType,
      textColumns: t.textColumns,
      declaredFields: t.declaredFields,
    },
    source: { kind: 'features' },
    sourceSR: { wkid: 4326 },
    decimalComma: t.decimalComma,
  });
  // Address columns are tagged; an address table would publish as points once geocoded.
  for (const f of plan.fields) {
    const role = Object.entries(detected.addressFields).find(
      ([, column]) => column === t.headers[f.sourceIndex],
    )?.[0];
    if (role) f.locationType = role;
  }
  const layerInfo = buildLayerDefinition({
    plan,
    layerInfo: t.layerInfo ?? {},
    service: ANALYZED_SERVICE,
    serviceItemId: '',
    spatialReference: { wkid: 102100, latestWkid: 3857 },
    extent: null,
  });
  delete layerInfo.serviceItemId;
  delete layerInfo.extent;
  // -1: the layer takes the service's maxRecordCount, which publish may set at the top level.
  layerInfo.maxRecordCount = -1;
  layerInfo.fields = (layerInfo.fields as { type: string }[]).filter((f) => f.type !== 'esriFieldTypeOID');
  if (detected.locationType === 'address' && !hasGeometry) {
    layerInfo.type = 'Feature Layer';
    layerInfo.geometryType = 'esriGeometryPoint';
  }
  const location = hasGeometry
    ? {}
    : {
        locationType: detected.locationType,
        latitudeFieldName: detected.latitudeFieldName,
        longitudeFieldName: detected.longitudeFieldName,
        coordinateFieldType: detected.coordinateFieldType,
        coordinateFieldName: '',
        addressFields: detected.addressFields,
        standardizedFieldNames: detected.addressFields,
      };
  const sample = t.rows.slice(0, 1000).map((row) =>
    Object.fromEntries(
      plan.fields.map((f) => {
        const v = parseCellValue(row[f.sourceIndex], f, { decimalComma: t.decimalComma });
        return [f.name, v.ok ? v.value : (row[f.sourceIndex] ?? null)];
      }),
    ),
  );
  return { index: t.sheetIndex ?? index, layerInfo, location, records: sample };
}

function baseName(file: string): string {
  const stem = file.replace(/\.[^.]*$/, '');
  return stem.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'data';
}

/** The first `length` bytes of the object (or all of them). */
async function readObjectBytes(
  store: ObjectStore,
  source: { key: string; size: number },
  length = Number.POSITIVE_INFINITY,
): Promise<Buffer> {
  const n = Math.min(length, source.size);
  if (n === 0) return Buffer.alloc(0);
  return n >= source.size ? store.getBuffer(source.key) : store.getRange(source.key, 0, n);
}

/** The object's bytes as a stream of chunks, for readers that need not hold the whole file. */
async function* objectChunks(store: ObjectStore, key: string): AsyncGenerator<Buffer> {
  const stream = await store.getStream(key);
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } finally {
    stream.destroy();
  }
}

/**
 * A GeoPackage or SQLite file read page by page from a temporary copy of the object, so analyze never
 * holds the database in memory.
 */
async function analyzeSqliteObject(store: ObjectStore, key: string, name: string) {
  // The item's file kept when it was added in this process is read, and kept again for its publish.
  const spooled = await takeSpooled(store, key);
  let keep = false;
  try {
    const answer = await analyzeSqlite(() => openSqlitePath(spooled.path), name, 1000);
    keep = spooled.wasKept;
    return answer;
  } finally {
    if (keep) await keepSpooled(key, spooled);
    else await spooled.remove();
  }
}
