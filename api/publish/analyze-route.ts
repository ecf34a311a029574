/**
 * content/features/analyze: reads the start of a csv (GeoJSON as a stream, the whole workbook or zip), detects
 * encoding, delimiter, qualifier, field types and location fields, and returns publishParameters ready
 * to hand to publish, with sample records.
 */
import type { Context } from 'hono';
import { sampleFromBytes } from '../../activities/publish/csv-source.js';
import { parseWorkbook } from '../../activities/publish/excel-source.js';
import { fileGeodatabaseToGeoPackage } from '../../activities/publish/file-geodatabase.js';
import { describeGeoJson, geoJsonFeatures } from '../../activities/publish/geojson-source.js';
import { buildLayerDefinition } from '../../activities/publish/layer-definition.js';
import { type DeclaredField, planLayer } from '../../activities/publish/layer-plan.js';
import { serviceDefinitionGeoPackage } from '../../activities/publish/layer-sources.js';
import { detectLocation } from '../../activities/publish/location-detection.js';
import { parseShapefileZip } from '../../activities/publish/parse-thread.js';
import type { LayerPlan, LayerRequestWithLocale, PublishFileType } from '../../db/schema/publish-request.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { openSqlitePath, spoolObject } from '../../infra/readers/sqlite-pages.js';
import { badRequest } from '../../lib/errors.js';
import { type CellValue, localeConventions, parseCellValue } from '../../lib/ingest/index.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import {
  ANALYZED_SERVICE,
  type AnalyzedTable,
  analyzeFeatureCollection,
  analyzeSqlite,
} from './analyze-tables.js';
import { parseFileType, parseJsonParameter } from './publish-parameters.js';
import {
  checkSourceSize,
  impliedFileType,
  readSourceBytes,
  resolveSource,
  type SourceRef,
  sourceChunks,
} from './publish-source.js';

const SAMPLE_BYTES = 512 * 1024;
const ANALYZE_ID = '0'.repeat(32);

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

export async function analyze(c: Context<AppEnv>) {
  // Analyze prepares a publish, so it takes publishFeatures too: see api/privileges.ts.
  const user = requireUser(c);
  const { database, store, config } = c.get('deps');
  const params = c.get('params');
  const rawType = params.get('filetype');
  const source = await resolveSource(database.db, params, user, rawType ? parseFileType(rawType) : null);
  const fileType = parseFileType(rawType ?? impliedFileType(source));
  checkSourceSize(fileType, source, config.sqliteMaxBytes);
  const options = parseJsonParameter('analyzeParameters', params.get('analyzeParameters'), false);
  const sampleSize = Math.min(
    Math.max(Number(options.resultRecordCount ?? options.maxRecordCount ?? 10) || 10, 1),
    1000,
  );
  const name = baseName(source.name);
  let tables: Table[];
  let extra: Record<string, unknown> = {};
  let layerSummaries: Record<string, unknown>[] | undefined;
  if (['sqlite', 'featureCollection', 'fileGeodatabase', 'serviceDefinition'].includes(fileType)) {
    const analyzed: AnalyzedTable[] =
      fileType === 'sqlite'
        ? await analyzeSqliteSource(store, source, name)
        : fileType === 'featureCollection'
          ? analyzeFeatureCollection(await readSourceBytes(store, source), name, 1000)
          : await analyzeSqlite(
              fileType === 'fileGeodatabase'
                ? await fileGeodatabaseToGeoPackage(await readSourceBytes(store, source))
                : await serviceDefinitionGeoPackage(await readSourceBytes(store, source)),
              name,
              1000,
            );
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
    const bytes = await readSourceBytes(store, source, SAMPLE_BYTES);
    const sample = sampleFromBytes(bytes, bytes.length >= source.size);
    const decimalComma = sample.dialect.delimiter === ';';
    tables = [{ name, headers: sample.headers, rows: sample.rows, decimalComma }];
    extra = {
      columnDelimiter: sample.dialect.delimiter,
      qualifier: sample.dialect.qualifier,
      encoding: sample.dialect.encoding,
    };
  } else if (fileType === 'excel') {
    const bytes = await readSourceBytes(store, source);
    tables = (await parseWorkbook(bytes, config.parseLimits)).map((s, i) => ({
      ...s,
      decimalComma: false,
      sheetIndex: i,
    }));
  } else {
    // GeoJSON is read as a stream (fields and types from every feature, rows only for the sample).
    const parsed =
      fileType === 'geojson'
        ? [await describeGeoJson(geoJsonFeatures(sourceChunks(store, source)), name, 1000)]
        : await parseShapefileZip(await readSourceBytes(store, source), config.parseLimits);
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
    publishParameters.layers = analyzed.map((a) => ({ ...a.layerInfo, id: a.index }));
    publishParameters.layerInfo = first?.layerInfo ?? {};
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

/**
 * A GeoPackage or SQLite upload read page by page from its file (an item's data is first copied to
 * a temporary file), so analyze never holds the database in memory.
 */
async function analyzeSqliteSource(store: ObjectStore, source: SourceRef, name: string) {
  if (source.kind === 'file') return analyzeSqlite(() => openSqlitePath(source.path), name, 1000);
  if (source.kind === 'text') return analyzeSqlite(await readSourceBytes(store, source), name, 1000);
  const spooled = await spoolObject(store, source.key);
  try {
    return await analyzeSqlite(() => openSqlitePath(spooled.path), name, 1000);
  } finally {
    await spooled.remove();
  }
}
