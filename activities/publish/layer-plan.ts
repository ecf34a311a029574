/**
 * Resolves one layer of a publish request against a sample of its data: the fields (inferred, then
 * overridden by the client's layerInfo.fields), the columns holding the location, and the
 * geometry type. Bad input (a named column that does not exist) is the client's error.
 */

import { attributeColumn, featureTableName } from '../../db/repositories/feature-tables.js';
import type {
  AddressRoleName,
  LayerPlan,
  LayerRequest,
  LayerRequestWithLocale,
  LocationPlan,
  PlannedField,
  SourcePlan,
} from '../../db/schema/publish-request.js';
import { declaredDomain } from '../../lib/edit/attribute-values.js';
import { badRequest } from '../../lib/errors.js';
import type { BoundaryLookup } from '../../lib/geocode/boundary-lookup.js';
import { detectLookupColumn } from '../../lib/geocode/lookup-detection.js';
import type { EsriGeometryType, SpatialReference } from '../../lib/geometry/types.js';
import {
  type CellValue,
  type InferredField,
  inferFields,
  localeConventions,
  sanitizeFieldName,
  sanitizeFieldNames,
} from '../../lib/ingest/index.js';
import { type EsriFieldType, isEsriFieldType } from '../../lib/query/field-types.js';
import { asLocationPlan, boundaryKindOf, type LookupLocation, lookupOf } from './boundary-lookup-rows.js';
import { CANDIDATE_FIELDS } from './geocoder.js';
import { detectLocation } from './location-detection.js';
import type { WithGeocodeService } from './remote-geocoder.js';

export interface LayerSample {
  headers: string[];
  rows: CellValue[][];
  /** Set for sources with their own geometry (GeoJSON, shapefile). */
  geometryType?: EsriGeometryType | null;
  /** Columns to keep as text whatever their values look like. */
  textColumns?: number[];
  /** Sources with a schema (GeoPackage, SQLite): one field per header, taken as declared, not inferred. */
  declaredFields?: DeclaredField[];
}

export interface DeclaredField {
  /** The alias the source gives; the header otherwise. */
  alias?: string;
  type: EsriFieldType;
  length?: number;
  nullable: boolean;
  /** An Esri domain (codedValue or range) the source declares for the field. */
  domain?: Record<string, unknown>;
}

/** The sourceLocale a layer request carries, if any. */
export const sourceLocaleOf = (layer: LayerRequest): string | undefined =>
  (layer as LayerRequestWithLocale).sourceLocale;

/**
 * How the layer's text is read: a decimal comma when the file's delimiter leaves the comma free
 * (';') or its sourceLocale writes one; short dates in the locale's order when the data allows both.
 */
export function readingConventions(
  layer: LayerRequest,
  decimalComma: boolean,
): { decimalComma: boolean; dateOrder?: 'mdy' | 'dmy' | 'ymd' } {
  const tag = sourceLocaleOf(layer);
  if (!tag) return { decimalComma };
  const locale = localeConventions(tag);
  if (!locale) {
    throw badRequest('Invalid publishParameters.', [
      `sourceLocale '${tag}' is not a locale tag such as 'de' or 'en-US'.`,
    ]);
  }
  return { decimalComma: decimalComma || locale.decimalComma, dateOrder: locale.dateOrder };
}

export interface PlanInput {
  serviceItemId: string;
  layer: LayerRequest;
  sample: LayerSample;
  source: SourcePlan;
  sourceSR: SpatialReference;
  decimalComma?: boolean;
  /** Lookup layers without lookupFields: finds the column of place names in the sample. */
  boundaries?: BoundaryLookup;
}

const STORABLE = new Set([
  'esriFieldTypeString',
  'esriFieldTypeInteger',
  'esriFieldTypeSmallInteger',
  'esriFieldTypeBigInteger',
  'esriFieldTypeDouble',
  'esriFieldTypeSingle',
  'esriFieldTypeDate',
  'esriFieldTypeGUID',
]);

export function planLayer(input: PlanInput): LayerPlan {
  const { layer, sample } = input;
  const reading = readingConventions(layer, input.decimalComma === true);
  const decimalComma = reading.decimalComma;
  const records = sample.rows.map((row) => Object.fromEntries(sample.headers.map((h, i) => [h, row[i]])));
  const inferred: (InferredField & { nullable?: boolean; domain?: Record<string, unknown> })[] =
    sample.declaredFields
      ? declaredFields(sample.headers, sample.declaredFields)
      : inferFields(
          { names: sample.headers, columns: sample.headers.map((_, i) => sample.rows.map((r) => r[i])) },
          {
            decimalComma,
            taken: ['OBJECTID'],
            ...(reading.dateOrder ? { dateOrder: reading.dateOrder } : {}),
          },
        );
  const requested = Array.isArray(layer.layerInfo.fields)
    ? (layer.layerInfo.fields as Record<string, unknown>[])
    : [];
  const fields: PlannedField[] = [];
  for (const f of inferred) {
    const given = requested.find((r) => matches(r, f.name, f.source));
    if (requested.length > 0 && !given) continue;
    const type =
      typeof given?.type === 'string' && STORABLE.has(given.type) && isEsriFieldType(given.type)
        ? given.type
        : sample.textColumns?.includes(f.sourceIndex)
          ? 'esriFieldTypeString'
          : f.type;
    const name =
      typeof given?.name === 'string' && given.name.trim()
        ? sanitizeFieldName(given.name, f.sourceIndex)
        : f.name;
    const length =
      type === 'esriFieldTypeString' ? Math.max(Number(given?.length) || 0, f.length ?? 256) : undefined;
    fields.push({
      name,
      alias: typeof given?.alias === 'string' && given.alias ? given.alias : f.alias,
      type,
      ...(length ? { length } : {}),
      ...(type === 'esriFieldTypeDate' && f.dateFormat ? { dateFormat: f.dateFormat } : {}),
      ...(f.nullable === false ? { nullable: false } : {}),
      ...publishedDomain(given?.domain, f.domain, { name, type, ...(length ? { length } : {}) }),
      sourceIndex: f.sourceIndex,
      column: attributeColumn(fields.length),
      locationType: typeof given?.locationType === 'string' ? given.locationType : 'unknown',
    });
  }
  ensureUniqueNames(fields);
  const location = planLocation(layer, sample, records, decimalComma, input.boundaries);
  if (location.type === 'address' && location.candidateFields) {
    // The locator's output fields, stored from the cells geocoding appends after the source's columns.
    for (const [k, f] of CANDIDATE_FIELDS.entries()) {
      fields.push({
        ...f,
        sourceIndex: sample.headers.length + k,
        column: attributeColumn(fields.length),
        locationType: 'unknown',
      });
    }
    ensureUniqueNames(fields);
  }
  const geometryType: EsriGeometryType | null =
    location.type === 'none'
      ? null
      : location.type === 'geometry'
        ? (sample.geometryType ?? null)
        : lookupOf({ location })
          ? 'esriGeometryPolygon'
          : 'esriGeometryPoint';
  return {
    id: layer.id,
    name: layer.name,
    tableName: featureTableName(input.serviceItemId, layer.id),
    headers: sample.headers,
    fields,
    geometryType,
    location: geometryType === null ? { type: 'none' } : location,
    source: input.source,
    sourceSR: input.sourceSR,
    decimalComma,
    ...(layer.dateTimeZone ? { timeZone: layer.dateTimeZone } : {}),
  };
}

/**
 * The domain a field gets: the one publishParameters' layerInfo.fields gives it (checked against the
 * field's type), else the source's. analyze answers `domain: null` for fields without one, which
 * clients send back, so null keeps the source's.
 */
function publishedDomain(
  given: unknown,
  source: Record<string, unknown> | undefined,
  field: { name: string; type: EsriFieldType; length?: number },
): { domain?: Record<string, unknown> } {
  const read = declaredDomain(given, field);
  if ('problem' in read)
    throw badRequest('Invalid publishParameters.', [`layerInfo.fields: ${read.problem}`]);
  const domain = read.domain ?? source;
  return domain ? { domain } : {};
}

/** Fields as a schema declares them: names made valid, the column name kept as the alias. */
function declaredFields(headers: string[], declared: DeclaredField[]) {
  const names = sanitizeFieldNames(headers, { taken: ['OBJECTID'] });
  return declared.map((d, i) => ({
    name: names[i],
    alias: d.alias ?? headers[i],
    type: d.type,
    ...(d.length ? { length: d.length } : {}),
    ...(d.type === 'esriFieldTypeDate' ? { dateFormat: 'iso' as const } : {}),
    nullable: d.nullable,
    ...(d.domain ? { domain: d.domain } : {}),
    source: headers[i],
    sourceIndex: i,
  }));
}

function matches(given: Record<string, unknown>, name: string, source: string): boolean {
  const keys = [given.name, given.alias]
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.toLowerCase());
  return keys.includes(name.toLowerCase()) || keys.includes(source.trim().toLowerCase());
}

function ensureUniqueNames(fields: PlannedField[]) {
  const seen = new Set<string>(['objectid']);
  for (const f of fields) {
    let name = f.name;
    for (let n = 1; seen.has(name.toLowerCase()); n++) name = `${f.name}_${n}`;
    f.name = name;
    seen.add(name.toLowerCase());
  }
}

function columnIndex(headers: string[], name: string, role: string): number {
  const wanted = name.trim().toLowerCase();
  const i = headers.findIndex((h) => h.trim().toLowerCase() === wanted);
  if (i < 0) {
    throw badRequest('Invalid publishParameters.', [
      `The ${role} field '${name}' is not a column of the data.`,
    ]);
  }
  return i;
}

function planLocation(
  layer: LayerRequest,
  sample: LayerSample,
  records: Record<string, CellValue>[],
  decimalComma: boolean,
  boundaries: BoundaryLookup | undefined,
): LocationPlan {
  const loc = layer.location;
  const { headers } = sample;
  if (loc.type === 'none' || loc.type === 'geometry') return { type: loc.type };
  if (loc.type === 'coordinates') {
    let { latitudeFieldName: lat, longitudeFieldName: lon } = loc;
    if (!lat || !lon) {
      const found = detectLocation(headers, records, { decimalComma });
      if (found.locationType !== 'coordinates') {
        throw badRequest('Invalid publishParameters.', [
          'locationType is coordinates but no latitude/longitude fields were given or found: set latitudeFieldName and longitudeFieldName.',
        ]);
      }
      lat ||= found.latitudeFieldName;
      lon ||= found.longitudeFieldName;
    }
    return {
      type: 'coordinates',
      xIndex: columnIndex(headers, lon, 'longitude'),
      yIndex: columnIndex(headers, lat, 'latitude'),
    };
  }
  if (loc.type === 'lookup') return asLocationPlan(planLookup(loc, headers, records, boundaries));
  const roles: Partial<Record<AddressRoleName, number>> = {};
  for (const [role, column] of Object.entries(loc.addressFields)) {
    if (column) roles[role as AddressRoleName] = columnIndex(headers, column, role);
  }
  if (Object.keys(roles).length === 0 && !loc.addressTemplate) {
    throw badRequest('Invalid publishParameters.', [
      'locationType is address but neither addressFields nor addressTemplate names the address columns.',
    ]);
  }
  const url = (loc as WithGeocodeService<typeof loc>).geocodeServiceUrl;
  const address: WithGeocodeService<Extract<LocationPlan, { type: 'address' }>> = {
    type: 'address',
    roles,
    ...(loc.addressTemplate ? { template: loc.addressTemplate } : {}),
    ...(loc.sourceCountry && loc.sourceCountry.toLowerCase() !== 'world'
      ? { countryCode: loc.sourceCountry }
      : {}),
    ...(url ? { geocodeServiceUrl: url } : {}),
    ...(loc.candidateFieldsType?.toLowerCase() === 'allfields' ? { candidateFields: true } : {}),
    ...(loc.standardizedFieldNames ? { standardizedFieldNames: loc.standardizedFieldNames } : {}),
  };
  return address;
}

/**
 * The column to look up: the most specific of the lookupFields (a postal code over a state over a
 * country), else the column whose sampled values the boundary lookup matches best.
 */
function planLookup(
  loc: Extract<LayerRequest['location'], { type: 'lookup' }>,
  headers: string[],
  records: Record<string, CellValue>[],
  boundaries: BoundaryLookup | undefined,
): LookupLocation {
  const country = loc.sourceCountry && loc.sourceCountry.toLowerCase() !== 'world' ? loc.sourceCountry : '';
  const typeKind = boundaryKindOf(loc.lookupType ?? '');
  const given = Object.entries(loc.lookupFields ?? {}).map(([key, column]) => ({
    column,
    kind: boundaryKindOf(key) ?? typeKind,
  }));
  const specificity = (k: string | undefined) => (k === 'postal' ? 3 : k === 'region' ? 2 : k ? 1 : 0);
  given.sort((a, b) => specificity(b.kind) - specificity(a.kind));
  const chosen = given[0];
  if (chosen) {
    return {
      type: 'lookup',
      index: columnIndex(headers, chosen.column, 'lookup'),
      ...(chosen.kind ? { kind: chosen.kind } : {}),
      ...(country ? { countryCode: country.toUpperCase() } : {}),
    };
  }
  const found = boundaries && detectLookupColumn(records, headers, boundaries);
  if (!found) {
    throw badRequest('Invalid publishParameters.', [
      'locationType is lookup but no lookupFields were given and no column of country, region or postal code values was found.',
    ]);
  }
  return {
    type: 'lookup',
    index: columnIndex(headers, found.field, 'lookup'),
    kind: found.kind,
    ...(country ? { countryCode: country.toUpperCase() } : {}),
  };
}
