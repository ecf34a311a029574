/**
 * The descriptive operations: document info, the map list (one data frame), GetServerInfo, the SQL
 * dialect clients may use in where clauses (read from the where compiler's function table), image
 * return types and the service configuration limits.
 */
import { FUNCTIONS } from '../../lib/query/where-functions.js';
import { clientFault } from '../fault.js';
import type { SQLSyntaxInfo } from '../schema/generated-types.js';
import type { SoapHandlerGroup } from '../service-types.js';
import { layerOf, loadMap, MAP_NAME, type MapServiceDeps, openMap } from './map-context.js';
import { MAX_IMAGE_SIZE } from './map-display.js';
import { mapServerInfo } from './server-info.js';
import { propertySet } from './wire-records.js';

export type InfoOperations =
  | 'GetDocumentInfo'
  | 'GetMapCount'
  | 'GetMapName'
  | 'GetDefaultMapName'
  | 'GetServerInfo'
  | 'GetSQLSyntaxInfo'
  | 'GetSupportedImageReturnTypes'
  | 'GetServiceConfigurationInfo';

export const SUPPORTED_IMAGE_FORMATS = 'PNG32,PNG24,PNG,JPG';

const PREDICATES = [
  '=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'LIKE',
  'NOT LIKE',
  'IN',
  'NOT IN',
  'BETWEEN',
  'IS NULL',
  'IS NOT NULL',
];
const KEYWORDS = [
  'AND',
  'OR',
  'NOT',
  'NULL',
  'IS',
  'IN',
  'LIKE',
  'BETWEEN',
  'ESCAPE',
  'CAST',
  'EXTRACT',
  'DATE',
  'TIMESTAMP',
  'INTERVAL',
  'CURRENT_DATE',
  'CURRENT_TIMESTAMP',
];

export function sqlSyntaxInfo(): SQLSyntaxInfo {
  return {
    FunctionNames: propertySet(Object.keys(FUNCTIONS).map((name) => [name, name])),
    SpecialCharacters: propertySet([
      ['Wildcard many', '%'],
      ['Wildcard single', '_'],
      ['Escape', '\\'],
      ['Delimited identifier prefix', '"'],
      ['Delimited identifier suffix', '"'],
      ['String quote', "'"],
    ]),
    SupportedPredicates: PREDICATES,
    SupportedClauses: ['ORDER BY'],
    IdentifierCase: false,
    DelimitedIdentifierCase: false,
    StringComparisonCase: true,
    Keywords: KEYWORDS,
    InvalidCharacters: '',
    InvalidStartingCharacters: '0123456789_',
  };
}

export function createInfoHandlers(deps: MapServiceDeps): SoapHandlerGroup<InfoOperations, unknown> {
  return {
    async GetDocumentInfo(_q, ctx) {
      const map = await loadMap(deps, ctx.serviceName);
      return propertySet([
        ['Title', map.name],
        ['Subject', map.description],
        ['Author', map.owner],
        ['Category', ''],
        ['Keywords', ''],
        ['Comments', map.description],
        ['Credits', map.copyrightText],
        ['AntialiasingMode', 'None'],
        ['TextAntialiasingMode', 'Force'],
      ]);
    },
    async GetMapCount(_q, ctx) {
      await loadMap(deps, ctx.serviceName);
      return 1;
    },
    async GetMapName(q, ctx) {
      await loadMap(deps, ctx.serviceName);
      if (q.Index !== 0) throw clientFault(`Invalid map index: ${q.Index}; the service has one map.`);
      return MAP_NAME;
    },
    async GetDefaultMapName(_q, ctx) {
      await loadMap(deps, ctx.serviceName);
      return MAP_NAME;
    },
    async GetServerInfo(q, ctx) {
      const map = await openMap(deps, ctx.serviceName, q.MapName);
      return mapServerInfo(map);
    },
    async GetSQLSyntaxInfo(q, ctx) {
      layerOf(await openMap(deps, ctx.serviceName, q.MapName), q.LayerID);
      return sqlSyntaxInfo();
    },
    async GetSupportedImageReturnTypes(_q, ctx) {
      await loadMap(deps, ctx.serviceName);
      // A service that can answer with URLs answers with MIME data too; URL is the wider answer.
      return 'geoImageReturnURL';
    },
    async GetServiceConfigurationInfo(_q, ctx) {
      const map = await loadMap(deps, ctx.serviceName);
      return propertySet([
        ['MaximumRecordCount', map.maxRecordCount],
        ['MaximumBufferCount', 100],
        ['MaximumImageWidth', MAX_IMAGE_SIZE],
        ['MaximumImageHeight', MAX_IMAGE_SIZE],
        ['SupportedImageFormatTypes', SUPPORTED_IMAGE_FORMATS],
        ['UseStandardizedQueries', true],
      ]);
    },
  };
}
