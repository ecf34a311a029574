/**
 * One minimal valid request per operation, as node-soap arguments, for a map whose layer 0 is a
 * point layer with a tile cache at levels 10–11. `view` is a map extent around the data.
 */
import { extentRequest } from './soap-client.js';

const typed = (type: string, fields: Record<string, unknown> = {}) => ({
  attributes: { 'xsi:type': `tns:${type}` },
  ...fields,
});

export function minimalRequests(view: [number, number, number, number], tile: { row: number; col: number }) {
  const md = extentRequest(...view);
  const display = { ImageHeight: 200, ImageWidth: 300, ImageDPI: 96 };
  const filter = { WhereClause: '1=1', Resolution: 0 };
  const layer = {
    LayerID: 0,
    Visible: true,
    ShowLabels: false,
    ScaleSymbols: false,
    SetSelectionSymbol: false,
    SelectionBufferDistance: 0,
    ShowSelectionBuffer: false,
    DefinitionExpression: '',
  };
  const tableDesc = typed('LayerDescription', layer);
  const image = { ImageFormat: 'geoImagePNG', ImageReturnType: 'geoImageReturnMimeData' };
  const patch = { Width: 20, Height: 20, ImageDPI: 96 };
  const relate = { RelationshipID: 0, ResultFormat: 'geoRelateResultRelatedRecordSetAsObject' };
  const center = typed('PointN', { X: (view[0] + view[2]) / 2, Y: (view[1] + view[3]) / 2 });
  return {
    GetDocumentInfo: {},
    GetMapCount: {},
    GetMapName: { Index: 0 },
    GetDefaultMapName: {},
    GetServerInfo: { MapName: 'Layers' },
    ExportMapImage: { MapDescription: md, ImageDescription: { ImageType: image, ImageDisplay: display } },
    ExportScaleBar: {
      MapDescription: md,
      MapDisplay: display,
      ImageDescription: {
        ImageType: image,
        ImageDisplay: { ImageHeight: 40, ImageWidth: 200, ImageDPI: 96 },
      },
    },
    Find: {
      MapDescription: md,
      MapImageDisplay: display,
      SearchString: 'a',
      Contains: true,
      SearchFields: '',
      FindOption: 'geoFindAllLayers',
      LayerIDs: {},
    },
    Identify: {
      MapDescription: md,
      MapImageDisplay: display,
      SearchShape: center,
      Tolerance: 3,
      IdentifyOption: 'geoIdentifyAllLayers',
      LayerIDs: {},
    },
    QueryFeatureCount: { MapName: 'Layers', LayerID: 0, QueryFilter: filter },
    QueryFeatureIDs: { MapName: 'Layers', LayerID: 0, QueryFilter: filter },
    QueryFeatureData: { MapName: 'Layers', LayerID: 0, QueryFilter: filter },
    QueryFeatureCount2: { MapName: 'Layers', LayerDescription: layer, QueryFilter: filter },
    QueryFeatureIDs2: { MapName: 'Layers', LayerDescription: layer, QueryFilter: filter },
    QueryFeatureData2: {
      MapName: 'Layers',
      LayerDescription: layer,
      QueryFilter: filter,
      QueryResultOptions: { Format: 'geoQueryResultRecordSetAsObject' },
    },
    QueryHyperlinks: { MapDescription: md, MapImageDisplay: display, LayerIDs: {} },
    ComputeScale: { MapDescription: md, MapImageDisplay: display },
    ComputeDistance: {
      MapName: 'Layers',
      FromPoint: typed('PointN', { X: 0, Y: 0 }),
      ToPoint: typed('PointN', { X: 3, Y: 4 }),
      Units: 'geoMeters',
    },
    ToMapPoints: {
      MapDescription: md,
      MapImageDisplay: display,
      ScreenXValues: { Int: [0] },
      ScreenYValues: { Int: [0] },
    },
    FromMapPoints: {
      MapDescription: md,
      MapImageDisplay: display,
      MapPoints: typed('MultipointN', {
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: { Point: [center] },
      }),
    },
    GetLegendInfo: { MapName: 'Layers', LayerIDs: {}, LegendPatch: patch, ImageType: image },
    GetLegendInfo2: {
      MapDescription: md,
      MapImageDisplay: display,
      LayerIDs: {},
      LegendPatch: patch,
      ImageType: image,
    },
    GetSQLSyntaxInfo: { MapName: 'Layers', LayerID: 0 },
    GetSupportedImageReturnTypes: {},
    IsFixedScaleMap: { MapName: 'Layers' },
    HasSingleFusedMapCache: { MapName: 'Layers' },
    GetTileCacheInfo: { MapName: 'Layers' },
    GetMapTile: { MapName: 'Layers', Level: 11, Row: tile.row, Column: tile.col },
    HasLayerCache: { MapName: 'Layers', LayerID: 0 },
    GetLayerTile: { MapName: 'Layers', LayerID: 0, Level: 11, Row: tile.row, Column: tile.col },
    GetVirtualCacheDirectory: { MapName: 'Layers', LayerID: -1 },
    GetCacheName: { MapName: 'Layers', LayerID: -1 },
    GetTileImageInfo: { MapName: 'Layers' },
    GetCacheControlInfo: { MapName: 'Layers' },
    GetServiceConfigurationInfo: {},
    GetCacheDescriptionInfo: { MapName: 'Layers' },
    GetCacheStorageInfo: { MapName: 'Layers' },
    QueryRowCount: { MapName: 'Layers', MapTableDescription: tableDesc, QueryFilter: filter },
    QueryRowIDs: { MapName: 'Layers', MapTableDescription: tableDesc, QueryFilter: filter },
    QueryData: {
      MapName: 'Layers',
      MapTableDescription: tableDesc,
      QueryFilter: filter,
      QueryResultOptions: { Format: 'geoQueryResultJsonAsMime' },
    },
    QueryRelatedRecords: {
      MapName: 'Layers',
      SourceTableID: 0,
      SourceFIDSet: { FIDArray: { Int: [1] } },
      RelateDescription: relate,
    },
    QueryRelatedRecords2: {
      MapName: 'Layers',
      MapTableDescription: tableDesc,
      SourceFIDSet: { FIDArray: { Int: [1] } },
      RelateDescription: relate,
    },
    QueryDataStatistics: {
      MapName: 'Layers',
      MapTableDescription: tableDesc,
      StatisticsRequest: {
        StatisticDescriptions: {
          StatisticDescription: [{ StatisticFieldName: 'Riders', StatisticType: 'geoDataStatTypeCount' }],
        },
      },
      QueryFilter: filter,
    },
    QueryRasterValue: { MapName: 'Layers', SourceTableID: 0, RowIDs: { Int: [1] } },
    QueryRasterValue2: { MapName: 'Layers', MapTableDescription: tableDesc, RowIDs: { Int: [1] } },
    QueryAttachmentInfos: { MapName: 'Layers', TableID: 0, RowIDs: { Int: [1] } },
    QueryAttachmentInfos2: { MapName: 'Layers', MapTableDescription: tableDesc, RowIDs: { Int: [1] } },
    QueryAttachmentData: {
      MapName: 'Layers',
      TableID: 0,
      AttachmentIDs: {},
      TransportType: 'geoTransportTypeEmbedded',
    },
    QueryAttachmentData2: {
      MapName: 'Layers',
      MapTableDescription: tableDesc,
      AttachmentIDs: {},
      TransportType: 'geoTransportTypeEmbedded',
    },
    QueryHTMLPopups: { MapName: 'Layers', TableID: 0, RowIDs: { Int: [1] } },
    QueryHTMLPopups2: { MapName: 'Layers', MapTableDescription: tableDesc, RowIDs: { Int: [1] } },
    GetDefaultLayerDrawingDescriptions: { MapName: 'Layers', LayerIDs: {}, SymbolOutputOptions: {} },
    GetMapTableSubtypeInfos: { MapName: 'Layers' },
    GetMapTableSubtypeInfos2: { MapName: 'Layers' },
    GenerateDataClasses: {
      MapName: 'Layers',
      MapTableDescription: tableDesc,
      DataClassificationDef: typed('ClassBreaksDef', {
        ClassificationField: 'Riders',
        ClassificationMethod: 'geoClassifyEqualInterval',
        BreakCount: 2,
      }),
    },
  } as Record<string, Record<string, unknown>>;
}
