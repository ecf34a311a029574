/**
 * QueryFeatureCount/IDs/Data (+2), QueryRowCount/RowIDs, QueryData and QueryDataStatistics: the
 * FeatureServer query engine behind SOAP filters. Count and IDs are not capped; Data returns at
 * most the layer's maxRecordCount rows, as the real server does.
 */
import { renderFeatureSet } from '../../lib/query/feature-response.js';
import { clientFault } from '../fault.js';
import type {
  AnyQueryFilter,
  QueryResult,
  QueryResultOptions,
  RecordSet,
  StatisticsRequest,
} from '../schema/generated-types.js';
import type { SoapContext, SoapHandlerGroup } from '../service-types.js';
import { type LayerQueryResult, queryMapLayer } from './layer-query.js';
import {
  featureLayerOf,
  type HostedMap,
  type MapLayer,
  type MapServerLocals,
  type MapServiceDeps,
  openMapFor,
} from './map-context.js';
import { describedTable } from './table-description.js';
import { recordSet, soapField, soapValue } from './wire-records.js';

export type QueryOperations =
  | 'QueryFeatureCount'
  | 'QueryFeatureIDs'
  | 'QueryFeatureData'
  | 'QueryFeatureCount2'
  | 'QueryFeatureIDs2'
  | 'QueryFeatureData2'
  | 'QueryRowCount'
  | 'QueryRowIDs'
  | 'QueryData'
  | 'QueryDataStatistics';

interface DataRequest {
  map: HostedMap;
  layer: MapLayer;
  filter: AnyQueryFilter | undefined;
  definitionExpression?: string;
  includeGeometry: boolean;
}

async function featureData(deps: MapServiceDeps, r: DataRequest): Promise<LayerQueryResult> {
  return queryMapLayer(deps, r.map, r.layer, {
    filter: r.filter,
    definitionExpression: r.definitionExpression,
    mode: 'features',
    returnGeometry: r.includeGeometry && !r.layer.isTable,
  });
}

function asRecordSet(r: DataRequest, result: LayerQueryResult): RecordSet {
  return recordSet({
    columns: result.plan.columns,
    rows: result.rows,
    ...(result.plan.selectShape && r.layer.geometryType
      ? { shape: { geometryType: r.layer.geometryType, sr: result.outSR } }
      : {}),
  });
}

async function queryResult(
  deps: MapServiceDeps,
  ctx: SoapContext<unknown>,
  r: DataRequest,
  options: QueryResultOptions | undefined,
): Promise<QueryResult> {
  const format = options?.Format ?? 'geoQueryResultRecordSetAsObject';
  const result = await featureData(deps, r);
  if (format === 'geoQueryResultRecordSetAsObject') {
    return { URL: '', Object: { $type: 'RecordSet', ...asRecordSet(r, result) } };
  }
  if (format !== 'geoQueryResultJsonAsMime' && format !== 'geoQueryResultJsonAsURL') {
    throw clientFault(`Query result format ${format} is not supported; use RecordSetAsObject or JSON.`);
  }
  const json = renderFeatureSet({
    layer: {
      objectIdField: r.layer.catalog.objectIdField,
      globalIdField: '',
      geometryType: r.layer.catalog.geometryType ?? null,
      spatialReference: result.outSR,
    },
    fields: result.plan.columns,
    rows: result.rows,
    exceededTransferLimit: result.exceededTransferLimit,
    returnGeometry: result.plan.selectShape,
    geometryPrecision: null,
  });
  const bytes = new TextEncoder().encode(JSON.stringify(json));
  if (format === 'geoQueryResultJsonAsMime') return { MimeData: bytes, URL: '', Object: null };
  return { URL: await deps.images.publish(bytes, 'json', ctx.endpointUrl), Object: null };
}

const STATISTIC_TYPES: Record<string, string> = {
  geoDataStatTypeCount: 'count',
  geoDataStatTypeSum: 'sum',
  geoDataStatTypeMin: 'min',
  geoDataStatTypeMax: 'max',
  geoDataStatTypeAverage: 'avg',
  geoDataStatTypeStdDev: 'stddev',
  geoDataStatTypeVariance: 'var',
};

async function statistics(
  deps: MapServiceDeps,
  r: DataRequest,
  request: StatisticsRequest,
): Promise<RecordSet> {
  const descriptions = request.StatisticDescriptions ?? [];
  if (descriptions.length === 0) throw clientFault('StatisticsRequest has no StatisticDescriptions.');
  const outStatistics = descriptions.map((d) => ({
    statisticType: STATISTIC_TYPES[d.StatisticType] ?? d.StatisticType,
    onStatisticField: d.StatisticFieldName,
    outStatisticFieldName:
      d.ResultFieldName ||
      `${(STATISTIC_TYPES[d.StatisticType] ?? 'stat').toUpperCase()}_${d.StatisticFieldName}`,
  }));
  const result = await queryMapLayer(deps, r.map, r.layer, {
    filter: r.filter,
    definitionExpression: r.definitionExpression,
    mode: 'statistics',
    outStatistics,
    groupBy: request.GroupByFields || undefined,
    orderBy: request.OrderByFields || undefined,
  });
  const { groupBy, statistics: stats } = result.plan;
  const numeric = (type: string) => (type === 'count' ? 'esriFieldTypeInteger' : 'esriFieldTypeDouble');
  return {
    Fields: {
      FieldArray: [
        ...groupBy.map(soapField),
        ...stats.map((s) =>
          soapField({ name: s.outStatisticFieldName, column: s.alias, type: numeric(s.statisticType) }),
        ),
      ],
    },
    Records: result.records.map((row) => ({
      Values: [
        ...groupBy.map((g) => soapValue(row[g.column], g.type)),
        ...stats.map((s) => soapValue(row[s.alias], numeric(s.statisticType))),
      ],
    })),
  };
}

export function createQueryHandlers(
  deps: MapServiceDeps,
): SoapHandlerGroup<QueryOperations, MapServerLocals> {
  const byLayerId = async (
    ctx: SoapContext<MapServerLocals>,
    mapName: string,
    layerId: number,
    filter: AnyQueryFilter,
  ) => {
    const map = await openMapFor(deps, ctx, mapName);
    return { map, layer: featureLayerOf(map, layerId), filter, includeGeometry: true } satisfies DataRequest;
  };
  const byDescription = async (
    ctx: SoapContext<MapServerLocals>,
    mapName: string,
    description: Parameters<typeof describedTable>[1],
    filter: AnyQueryFilter,
  ): Promise<DataRequest> => {
    const map = await openMapFor(deps, ctx, mapName);
    return { map, ...describedTable(map, description), filter };
  };
  const count = async (r: DataRequest) =>
    (await queryMapLayer(deps, r.map, r.layer, { ...r, mode: 'count' })).count;
  const ids = async (r: DataRequest) =>
    (await queryMapLayer(deps, r.map, r.layer, { ...r, mode: 'ids' })).ids;

  return {
    QueryFeatureCount: async (q, ctx) => count(await byLayerId(ctx, q.MapName, q.LayerID, q.QueryFilter)),
    QueryFeatureIDs: async (q, ctx) => ({
      FIDArray: await ids(await byLayerId(ctx, q.MapName, q.LayerID, q.QueryFilter)),
    }),
    QueryFeatureData: async (q, ctx) => {
      const r = await byLayerId(ctx, q.MapName, q.LayerID, q.QueryFilter);
      return asRecordSet(r, await featureData(deps, r));
    },
    QueryFeatureCount2: async (q, ctx) =>
      count(await byDescription(ctx, q.MapName, q.LayerDescription, q.QueryFilter)),
    QueryFeatureIDs2: async (q, ctx) => ({
      FIDArray: await ids(await byDescription(ctx, q.MapName, q.LayerDescription, q.QueryFilter)),
    }),
    QueryFeatureData2: async (q, ctx) =>
      queryResult(
        deps,
        ctx,
        await byDescription(ctx, q.MapName, q.LayerDescription, q.QueryFilter),
        q.QueryResultOptions,
      ),
    QueryRowCount: async (q, ctx) =>
      count(await byDescription(ctx, q.MapName, q.MapTableDescription, q.QueryFilter)),
    QueryRowIDs: async (q, ctx) =>
      ids(await byDescription(ctx, q.MapName, q.MapTableDescription, q.QueryFilter)),
    QueryData: async (q, ctx) =>
      queryResult(
        deps,
        ctx,
        await byDescription(ctx, q.MapName, q.MapTableDescription, q.QueryFilter),
        q.QueryResultOptions,
      ),
    QueryDataStatistics: async (q, ctx) =>
      statistics(
        deps,
        await byDescription(ctx, q.MapName, q.MapTableDescription, q.QueryFilter),
        q.StatisticsRequest,
      ),
  };
}
