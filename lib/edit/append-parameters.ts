/**
 * The wire parameters of FeatureServer/{layer}/append, each read or refused by name. Parameters
 * lower-cased, as the request parser hands them over.
 */
import { badRequest } from '../errors.js';
import { fail, isRecord, present, readBoolean, readJson } from '../query/normalize/parameter-values.js';

export type AppendFormat =
  | 'csv'
  | 'excel'
  | 'geojson'
  | 'shapefile'
  | 'featureCollection'
  | 'sqlite'
  | 'fileGeodatabase'
  | 'serviceDefinition';

export interface AppendOptions {
  appendItemId: string;
  /** appendUploadFormat, when given: the item must be of that kind. */
  format?: AppendFormat;
  sourceTableName?: string;
  fieldMappings: { name: string; sourceName: string }[];
  upsert: boolean;
  /** The target field whose values identify the feature a source row updates; absent: the object id. */
  upsertMatchingField?: string;
  skipUpdates: boolean;
  /** With upsert: rows matching no feature are left out instead of added. */
  skipInserts: boolean;
  updateGeometry: boolean;
  /** Target fields written; absent: every mapped field. */
  appendFields?: string[];
  rollbackOnFailure: boolean;
  /** appendSourceInfo of a delimited or workbook source: its coordinate columns. */
  coordinates?: { xField: string; yField: string };
  async: boolean;
}

const FORMATS: Record<string, AppendFormat> = {
  csv: 'csv',
  excel: 'excel',
  geojson: 'geojson',
  shapefile: 'shapefile',
  featurecollection: 'featureCollection',
  sqlite: 'sqlite',
  geopackage: 'sqlite',
  filegdb: 'fileGeodatabase',
  // Not an ArcGIS format name: a service definition item whose file geodatabase is read.
  servicedefinition: 'serviceDefinition',
};

const ACCEPTED = new Set([
  'f',
  'token',
  'callback',
  'appenditemid',
  'appenduploadid',
  'appenduploadformat',
  'sourcetablename',
  'fieldmappings',
  'upsert',
  'upsertmatchingfield',
  'skipupdates',
  'skipinserts',
  'updategeometry',
  'appendfields',
  'appendsourceinfo',
  'rollbackonfailure',
  'useglobalids',
  'async',
]);

/** ArcGIS append parameters this server refuses by name rather than ignore. */
const UNSUPPORTED: Record<string, string> = {
  sourcefilter: 'sourceFilter',
  edits: 'edits',
  skipdeletes: 'skipDeletes',
  truncateexisting: 'truncateExisting',
  layermappings: 'layerMappings',
};

export function readAppendParameters(params: Readonly<Record<string, string | undefined>>): AppendOptions {
  for (const name of Object.keys(params)) {
    const unsupported = UNSUPPORTED[name];
    if (unsupported)
      throw badRequest('Unable to complete operation.', [
        `'${unsupported}' is not supported by this server's append.`,
      ]);
    if (!ACCEPTED.has(name))
      throw badRequest('Unable to complete operation.', [`'${name}' is not a parameter of append.`]);
  }
  if (present(params.appenduploadid))
    throw fail(
      'appendUploadId',
      'this server has no uploads resource; add the file as an item and pass appendItemId',
    );
  if (readBoolean('useGlobalIds', params.useglobalids, false))
    throw fail('useGlobalIds', 'hosted layers have no global ids');
  const appendItemId = present(params.appenditemid);
  if (!appendItemId) throw fail('appendItemId', 'the item holding the data to append is required');
  const formatText = present(params.appenduploadformat);
  const format = formatText === undefined ? undefined : FORMATS[formatText.toLowerCase()];
  if (formatText !== undefined && !format)
    throw fail('appendUploadFormat', `'${formatText}' is not one of ${Object.keys(FORMATS).join(', ')}`);
  const upsert = readBoolean('upsert', params.upsert, false);
  const options: AppendOptions = {
    appendItemId,
    ...(format ? { format } : {}),
    fieldMappings: readFieldMappings(params.fieldmappings),
    upsert,
    skipUpdates: readBoolean('skipUpdates', params.skipupdates, false),
    skipInserts: readBoolean('skipInserts', params.skipinserts, false),
    updateGeometry: readBoolean('updateGeometry', params.updategeometry, true),
    rollbackOnFailure: readBoolean('rollbackOnFailure', params.rollbackonfailure, true),
    async: readBoolean('async', params.async, false),
  };
  if (options.skipInserts && !upsert) throw fail('skipInserts', 'it only has a meaning with upsert=true');
  const table = present(params.sourcetablename);
  if (table) options.sourceTableName = table;
  const matching = present(params.upsertmatchingfield);
  if (matching) {
    if (!upsert) throw fail('upsertMatchingField', 'it only has a meaning with upsert=true');
    options.upsertMatchingField = matching;
  }
  const fields = present(params.appendfields);
  if (fields) options.appendFields = readNameList('appendFields', fields);
  const source = present(params.appendsourceinfo);
  if (source) {
    const coordinates = readSourceInfo(source);
    if (coordinates) options.coordinates = coordinates;
  }
  return options;
}

function readFieldMappings(value: string | undefined): AppendOptions['fieldMappings'] {
  const text = present(value);
  if (!text) return [];
  const parsed = readJson('fieldMappings', text);
  if (!Array.isArray(parsed)) throw fail('fieldMappings', 'expected a JSON array of {name, sourceName}');
  return parsed.map((m) => {
    if (!isRecord(m) || typeof m.name !== 'string' || typeof m.sourceName !== 'string')
      throw fail('fieldMappings', 'each entry needs a target name and a sourceName');
    return { name: m.name, sourceName: m.sourceName };
  });
}

function readNameList(name: string, text: string): string[] {
  const parsed = text.trim().startsWith('[') ? readJson(name, text) : text.split(',').map((s) => s.trim());
  if (!Array.isArray(parsed) || parsed.some((v) => typeof v !== 'string' || v === ''))
    throw fail(name, 'expected field names');
  return parsed as string[];
}

/** The coordinate columns of appendSourceInfo (the CSV/Excel analyze form); other location types refused. */
function readSourceInfo(text: string): AppendOptions['coordinates'] | undefined {
  const info = readJson('appendSourceInfo', text);
  if (!isRecord(info)) throw fail('appendSourceInfo', 'expected a JSON object');
  const type = typeof info.locationType === 'string' ? info.locationType.toLowerCase() : 'coordinates';
  if (type === 'none') return undefined;
  if (type !== 'coordinates')
    throw fail(
      'appendSourceInfo',
      `locationType '${String(info.locationType)}' is not supported by append; use coordinates or none`,
    );
  const y = info.latitudeFieldName;
  const x = info.longitudeFieldName;
  if (typeof x !== 'string' || typeof y !== 'string' || !x || !y)
    throw fail('appendSourceInfo', 'latitudeFieldName and longitudeFieldName are required for coordinates');
  return { xField: x, yField: y };
}
