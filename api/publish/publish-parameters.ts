/**
 * publishParameters (section 2.8) checked per file type, into the request the publish job keeps.
 * Every property is read here once; what the data decides (fields, location columns) is resolved
 * later, by the workflow, against the file itself.
 */

import type {
  AddressRoleName,
  LayerRequestWithLocale,
  LocationRequest,
  PublishFileType,
  PublishRequest,
  ServiceProperties,
} from '../../db/schema/publish-request.js';
import { badRequest } from '../../lib/errors.js';
import { isCallableGeocodeService } from '../../lib/geocode/geocode-service-url.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { localeConventions } from '../../lib/ingest/index.js';
import { resolveSpatialReference } from '../../lib/projection/index.js';
import { checkDeclaredPairs } from '../../lib/service/relationships.js';

type Json = Record<string, unknown>;

import { MAX_RECORD_COUNT } from '../../lib/query/query-limits.js';

const invalid = (detail: string) => badRequest('Invalid publishParameters.', [detail]);

const SERVICE_NAME = /^[A-Za-z0-9_]{1,120}$/;

export const FILE_TYPES: Record<string, PublishFileType> = {
  csv: 'csv',
  excel: 'excel',
  spreadsheet: 'excel',
  xls: 'excel',
  xlsx: 'excel',
  geojson: 'geojson',
  shapefile: 'shapefile',
  sqlite: 'sqlite',
  sqlitegeodatabase: 'sqlite',
  geopackage: 'sqlite',
  gpkg: 'sqlite',
  feature: 'featureCollection',
  featurecollection: 'featureCollection',
  file: 'fileGeodatabase',
  filegeodatabase: 'fileGeodatabase',
  servicedefinition: 'serviceDefinition',
  sd: 'serviceDefinition',
};

/** File types whose files carry their own geometry, per table. */
const WITH_GEOMETRY = new Set<PublishFileType>([
  'geojson',
  'shapefile',
  'sqlite',
  'featureCollection',
  'fileGeodatabase',
  'serviceDefinition',
]);
/** File types holding several tables, which `layers` may list by position. */
const MULTI_TABLE = new Set<PublishFileType>([
  'sqlite',
  'featureCollection',
  'fileGeodatabase',
  'serviceDefinition',
]);

export function parseFileType(raw: string | undefined): PublishFileType {
  const type = FILE_TYPES[(raw ?? '').trim().toLowerCase()];
  if (!type) {
    throw badRequest('Invalid or missing input parameters.', [
      raw
        ? `filetype '${raw}' cannot be published as a hosted feature service here: use csv, excel, shapefile, geojson, sqlite (GeoPackage, SQLite, SpatiaLite), featureCollection, fileGeodatabase or serviceDefinition.`
        : "'filetype' is required.",
    ]);
  }
  return type;
}

export function parseJsonParameter(name: string, raw: string | undefined, required: boolean): Json {
  if (!raw || raw.trim() === '') {
    if (required) throw badRequest('Invalid or missing input parameters.', [`'${name}' is required.`]);
    return {};
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest('Invalid or missing input parameters.', [`'${name}' is not valid JSON.`]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('Invalid or missing input parameters.', [`'${name}' must be a JSON object.`]);
  }
  return value as Json;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const bool = (v: unknown, fallback: boolean): boolean =>
  typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : fallback;

/** Case-insensitive key lookup: clients write columnDelimiter and columndelimiter alike. */
function get(p: Json, key: string): unknown {
  if (key in p) return p[key];
  const lower = key.toLowerCase();
  const found = Object.keys(p).find((k) => k.toLowerCase() === lower);
  return found === undefined ? undefined : p[found];
}

export function spatialReference(
  name: string,
  v: unknown,
  fallback: SpatialReference | null,
): SpatialReference | null {
  if (v === undefined || v === null || v === '') return fallback;
  const sr: SpatialReference = typeof v === 'number' ? { wkid: v } : (obj(v) as SpatialReference);
  try {
    resolveSpatialReference(sr);
  } catch {
    throw invalid(`${name} ${JSON.stringify(v)} is not a spatial reference this server knows.`);
  }
  return sr;
}

const DELIMITERS: Record<string, string> = {
  ',': ',',
  ';': ';',
  '\t': '\t',
  '|': '|',
  tab: '\t',
  '\\t': '\t',
  ' ': ' ',
};

const ADDRESS_ROLES = ['Address', 'City', 'Region', 'Postal', 'PostalExt', 'CountryCode'] as const;

function location(p: Json, fileType: PublishFileType): LocationRequest {
  if (WITH_GEOMETRY.has(fileType)) return { type: 'geometry' };
  const type = (str(get(p, 'locationType')) ?? '').toLowerCase();
  const sourceCountry = str(get(p, 'sourceCountry'));
  if (type === 'coordinates') {
    const lat = str(get(p, 'latitudeFieldName')) ?? str(get(p, 'yFieldName'));
    const lon = str(get(p, 'longitudeFieldName')) ?? str(get(p, 'xFieldName'));
    return { type, ...(lat ? { latitudeFieldName: lat } : {}), ...(lon ? { longitudeFieldName: lon } : {}) };
  }
  if (type === 'address') {
    const addressFields: Partial<Record<AddressRoleName, string>> = {};
    for (const [role, column] of Object.entries(obj(get(p, 'addressFields')))) {
      const canonical = ADDRESS_ROLES.find((r) => r.toLowerCase() === role.toLowerCase());
      if (!canonical) throw invalid(`addressFields has an unknown role '${role}'.`);
      if (str(column)) addressFields[canonical] = column as string;
    }
    const template = str(get(p, 'addressTemplate'));
    const geocodeServiceUrl = str(get(p, 'geocodeServiceUrl'));
    if (geocodeServiceUrl && !isCallableGeocodeService(geocodeServiceUrl)) {
      throw invalid(`geocodeServiceUrl '${geocodeServiceUrl}' is not the URL of a GeocodeServer.`);
    }
    const standardized: Partial<Record<AddressRoleName, string>> = {};
    for (const [role, field] of Object.entries(obj(get(p, 'standardizedFieldNames')))) {
      const canonical = ADDRESS_ROLES.find((r) => r.toLowerCase() === role.toLowerCase());
      if (!canonical) throw invalid(`standardizedFieldNames has an unknown role '${role}'.`);
      if (str(field)) standardized[canonical] = field as string;
    }
    const candidateFieldsType = str(get(p, 'candidateFieldsType'));
    const address: Extract<LocationRequest, { type: 'address' }> = {
      type,
      addressFields,
      ...(template ? { addressTemplate: template } : {}),
      ...(sourceCountry ? { sourceCountry } : {}),
      ...(geocodeServiceUrl ? { geocodeServiceUrl } : {}),
      ...(candidateFieldsType ? { candidateFieldsType } : {}),
      ...(Object.keys(standardized).length > 0 ? { standardizedFieldNames: standardized } : {}),
    };
    return address;
  }
  if (type === 'lookup') {
    const lookupType = str(get(p, 'lookupType'));
    const lookupFields = Object.fromEntries(
      Object.entries(obj(get(p, 'lookupFields'))).filter(([, v]) => str(v)),
    ) as Record<string, string>;
    // Both may be left out: publishing then finds the column of place names in the data.
    return { type, lookupType: lookupType ?? '', lookupFields, ...(sourceCountry ? { sourceCountry } : {}) };
  }
  if (type === 'none') return { type };
  throw invalid(
    type
      ? `locationType '${type}' is not one of coordinates, address, lookup, none.`
      : 'locationType is required for csv and excel files.',
  );
}

function serviceProperties(
  p: Json,
  layerInfo: Json,
  buildInitialCache: boolean,
  outputType: string,
): ServiceProperties {
  const max = Number(get(p, 'maxRecordCount') ?? -1);
  if (!Number.isInteger(max) || max < -1 || max === 0)
    throw invalid('maxRecordCount must be -1 or a positive integer.');
  if (max > MAX_RECORD_COUNT) throw invalid(`maxRecordCount may be at most ${MAX_RECORD_COUNT}.`);
  const capabilities = str(get(p, 'capabilities')) ?? str(layerInfo.capabilities) ?? 'Query';
  return {
    description: str(get(p, 'description')) ?? '',
    copyrightText: str(get(p, 'copyrightText')) ?? '',
    maxRecordCount: max,
    hasStaticData: bool(get(p, 'hasStaticData'), false),
    capabilities,
    hasAttachments: bool(get(p, 'hasAttachments'), bool(layerInfo.hasAttachments, false)),
    editorTrackingInfo: Object.fromEntries(
      Object.entries(obj(get(p, 'editorTrackingInfo'))).filter(([, v]) => typeof v === 'boolean'),
    ) as Record<string, boolean>,
    buildInitialCache,
    outputType,
  };
}

export interface PublishOptions {
  fileType: PublishFileType;
  parameters: Json;
  buildInitialCache: boolean;
  outputType: string;
}

/** The checked request, without the source location (the route fills sourceKey and sourceSize). */
export function parsePublishParameters(o: PublishOptions): Omit<PublishRequest, 'sourceKey' | 'sourceSize'> {
  const p = o.parameters;
  const name = str(get(p, 'name'));
  if (!name) throw invalid("'name' is required.");
  if (!SERVICE_NAME.test(name)) {
    throw invalid(`Service name '${name}' may use only letters, digits and underscores (at most 120).`);
  }
  const layerInfo = obj(get(p, 'layerInfo'));
  const rawLayers = get(p, 'layers');
  if (o.fileType === 'csv' && Object.keys(layerInfo).length === 0)
    throw invalid("'layerInfo' is required for csv files.");
  if (
    o.fileType === 'excel' &&
    !(Array.isArray(rawLayers) && rawLayers.length > 0) &&
    Object.keys(layerInfo).length === 0
  ) {
    throw invalid("'layers' (one entry per sheet) is required for excel files.");
  }
  const timeZone = str(obj(get(p, 'dateFieldsTimeReference')).timeZone);
  const locale = str(get(p, 'sourceLocale'));
  if (locale && !localeConventions(locale))
    throw invalid(`sourceLocale '${locale}' is not a locale tag such as 'de' or 'en-US'.`);
  const listedLayers = MULTI_TABLE.has(o.fileType) && Array.isArray(rawLayers) && rawLayers.length > 0;
  const layers: LayerRequestWithLocale[] = listedLayers
    ? listedTables(rawLayers as unknown[], name, o.fileType)
    : o.fileType === 'excel' && Array.isArray(rawLayers) && rawLayers.length > 0
      ? rawLayers.map((raw, i) => excelLayer(obj(raw), i, name, p, timeZone))
      : [
          {
            id: 0,
            name: str(layerInfo.name) ?? name,
            location: location(p, o.fileType),
            layerInfo,
            ...(timeZone ? { dateTimeZone: timeZone } : {}),
            ...(locale ? { sourceLocale: locale } : {}),
          },
        ];
  // Relationships come in pairs, one side in each related layer.
  checkDeclaredPairs(layers.map((l) => ({ layerId: l.id, relationships: l.layerInfo.relationships })));
  const delimiter = str(get(p, 'columnDelimiter')) ?? (get(p, 'columnDelimiter') === '\t' ? '\t' : undefined);
  if (delimiter !== undefined && !DELIMITERS[delimiter])
    throw invalid(`columnDelimiter '${delimiter}' is not supported.`);
  const qualifier = get(p, 'qualifier');
  if (typeof qualifier === 'string' && qualifier.length > 1)
    throw invalid('qualifier must be one character.');
  return {
    fileType: o.fileType,
    serviceName: name,
    sourceSR: spatialReference('sourceSR', get(p, 'sourceSR'), null),
    targetSR: spatialReference('targetSR', get(p, 'targetSR'), {
      wkid: 102100,
      latestWkid: 3857,
    }) as SpatialReference,
    ...(o.fileType === 'csv'
      ? {
          csv: {
            ...(delimiter ? { delimiter: DELIMITERS[delimiter] } : {}),
            ...(typeof qualifier === 'string' && qualifier ? { qualifier } : {}),
          },
        }
      : {}),
    layers,
    ...(listedLayers ? { listedLayers } : {}),
    service: serviceProperties(p, layerInfo, o.buildInitialCache, o.outputType),
    persistErrorRecordsForReview: bool(get(p, 'persistErrorRecordsForReview'), false),
  };
}

/** `layers` of a multi-table file: each entry names a table by its id (position in the file). */
function listedTables(
  raw: unknown[],
  serviceName: string,
  fileType: PublishFileType,
): LayerRequestWithLocale[] {
  const seen = new Set<number>();
  return raw.map((value, i) => {
    const entry = obj(value);
    const id = entry.id === undefined ? i : entry.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0)
      throw invalid(`layers[${i}].id must be the position of a table in the file (0, 1, …).`);
    if (seen.has(id)) throw invalid(`layers lists table ${id} twice.`);
    seen.add(id);
    return {
      id,
      name: str(entry.name) ?? (raw.length === 1 ? serviceName : `${serviceName}_${id}`),
      location: location(entry, fileType),
      layerInfo: entry,
    };
  });
}

function excelLayer(
  entry: Json,
  index: number,
  serviceName: string,
  p: Json,
  timeZone: string | undefined,
): LayerRequestWithLocale {
  const merged: Json = { ...p, ...entry };
  const sheetId = get(entry, 'excelSheetId');
  const zone = str(obj(get(entry, 'dateFieldsTimeReference')).timeZone) ?? timeZone;
  const locale = str(get(entry, 'sourceLocale')) ?? str(get(p, 'sourceLocale'));
  return {
    id: Number.isInteger(entry.id) ? (entry.id as number) : index,
    name: str(entry.name) ?? (index === 0 ? serviceName : `${serviceName}_${index}`),
    sheet: typeof sheetId === 'number' ? sheetId : (str(sheetId) ?? str(get(entry, 'sheetName')) ?? index),
    location: location(merged, 'excel'),
    layerInfo: entry,
    ...(zone ? { dateTimeZone: zone } : {}),
    ...(locale ? { sourceLocale: locale } : {}),
  };
}
