import { type OperationDef, operation as op } from './model.js';

const MAP = 'MapName string';
const LAYER = 'LayerID int';
const TABLE_DESC = 'MapTableDescription MapTableDescription';
const MAP_VIEW = ['MapDescription MapDescription', 'MapImageDisplay ImageDisplay'];
const TILE = ['Level int', 'Row int', 'Column int', 'Format? string'];

/** The 55 operations, in the order of the spec's endpoint table; request children in sequence order. */
export const OPERATIONS: OperationDef[] = [
  op('GetDocumentInfo', [], 'PropertySet'),
  op('GetMapCount', [], 'int'),
  op('GetMapName', ['Index int'], 'string'),
  op('GetDefaultMapName', [], 'string'),
  op('GetServerInfo', [MAP], 'MapServerInfo'),
  op('ExportMapImage', ['MapDescription MapDescription', 'ImageDescription ImageDescription'], 'MapImage'),
  op(
    'ExportScaleBar',
    [
      'ScaleBar? ScaleBar',
      'MapDescription MapDescription',
      'MapDisplay ImageDisplay',
      'BackGroundColor? Color',
      'ImageDescription ImageDescription',
    ],
    'ImageResult',
  ),
  op(
    'Find',
    [
      ...MAP_VIEW,
      'SearchString string',
      'Contains boolean',
      'SearchFields string',
      'FindOption geoFindOption',
      'LayerIDs ArrayOfInt',
    ],
    'ArrayOfMapServerFindResult',
  ),
  op(
    'Identify',
    [
      ...MAP_VIEW,
      'SearchShape Geometry',
      'Tolerance int',
      'IdentifyOption geoIdentifyOption',
      'LayerIDs ArrayOfInt',
    ],
    'ArrayOfMapServerIdentifyResult',
  ),
  op('QueryFeatureCount', [MAP, LAYER, 'QueryFilter QueryFilter'], 'int'),
  op('QueryFeatureIDs', [MAP, LAYER, 'QueryFilter QueryFilter'], 'FIDSet'),
  op('QueryFeatureData', [MAP, LAYER, 'QueryFilter QueryFilter'], 'RecordSet'),
  op('QueryFeatureCount2', [MAP, 'LayerDescription LayerDescription', 'QueryFilter QueryFilter'], 'int'),
  op('QueryFeatureIDs2', [MAP, 'LayerDescription LayerDescription', 'QueryFilter QueryFilter'], 'FIDSet'),
  op(
    'QueryFeatureData2',
    [
      MAP,
      'LayerDescription LayerDescription',
      'QueryFilter QueryFilter',
      'QueryResultOptions QueryResultOptions',
    ],
    'QueryResult',
  ),
  op('QueryHyperlinks', [...MAP_VIEW, 'LayerIDs ArrayOfInt'], 'ArrayOfMapServerHyperlink'),
  op('ComputeScale', MAP_VIEW, 'double'),
  op('ComputeDistance', [MAP, 'FromPoint Point', 'ToPoint Point', 'Units geoUnits'], 'double'),
  op('ToMapPoints', [...MAP_VIEW, 'ScreenXValues ArrayOfInt', 'ScreenYValues ArrayOfInt'], 'Multipoint'),
  op(
    'FromMapPoints',
    [...MAP_VIEW, 'MapPoints Multipoint'],
    ['ScreenXValues ArrayOfInt', 'ScreenYValues ArrayOfInt'],
  ),
  op(
    'GetLegendInfo',
    [MAP, 'LayerIDs ArrayOfInt', 'LegendPatch MapServerLegendPatch', 'ImageType ImageType'],
    'ArrayOfMapServerLegendInfo',
  ),
  op(
    'GetLegendInfo2',
    [...MAP_VIEW, 'LayerIDs ArrayOfInt', 'LegendPatch MapServerLegendPatch', 'ImageType ImageType'],
    'ArrayOfMapServerLegendInfo',
  ),
  op('GetSQLSyntaxInfo', [MAP, LAYER], 'SQLSyntaxInfo'),
  op('GetSupportedImageReturnTypes', [], 'geoImageReturnType'),
  op('IsFixedScaleMap', [MAP], 'boolean'),
  op('HasSingleFusedMapCache', [MAP], 'boolean'),
  op('GetTileCacheInfo', [MAP], 'TileCacheInfo'),
  op('GetMapTile', [MAP, ...TILE], 'base64Binary'),
  op('HasLayerCache', [MAP, LAYER], 'boolean'),
  op('GetLayerTile', [MAP, LAYER, ...TILE], 'base64Binary'),
  op('GetVirtualCacheDirectory', [MAP, LAYER], 'string'),
  op('GetCacheName', [MAP, LAYER], 'string'),
  op('GetTileImageInfo', [MAP], 'TileImageInfo'),
  op('GetCacheControlInfo', [MAP], 'CacheControlInfo'),
  op('GetServiceConfigurationInfo', [], 'PropertySet'),
  op('GetCacheDescriptionInfo', [MAP], 'CacheDescriptionInfo'),
  op('GetCacheStorageInfo', [MAP], 'CacheStorageInfo'),
  op('QueryRowCount', [MAP, TABLE_DESC, 'QueryFilter QueryFilter'], 'int'),
  op('QueryRowIDs', [MAP, TABLE_DESC, 'QueryFilter QueryFilter'], 'ArrayOfInt'),
  op(
    'QueryData',
    [MAP, TABLE_DESC, 'QueryFilter QueryFilter', 'QueryResultOptions QueryResultOptions'],
    'QueryResult',
  ),
  op(
    'QueryRelatedRecords',
    [MAP, 'SourceTableID int', 'SourceFIDSet FIDSet', 'RelateDescription RelateDescription'],
    'QueryResult',
  ),
  op(
    'QueryRelatedRecords2',
    [MAP, TABLE_DESC, 'SourceFIDSet FIDSet', 'RelateDescription RelateDescription'],
    'QueryResult',
  ),
  op(
    'QueryDataStatistics',
    [MAP, TABLE_DESC, 'StatisticsRequest StatisticsRequest', 'QueryFilter QueryFilter'],
    'RecordSet',
  ),
  op(
    'QueryRasterValue',
    [MAP, 'SourceTableID int', 'RowIDs ArrayOfInt', 'FieldName? string', 'ImageType? ImageType'],
    'ArrayOfImageResult',
  ),
  op(
    'QueryRasterValue2',
    [MAP, TABLE_DESC, 'RowIDs ArrayOfInt', 'FieldName? string', 'ImageType? ImageType'],
    'ArrayOfImageResult',
  ),
  op('QueryAttachmentInfos', [MAP, 'TableID int', 'RowIDs ArrayOfInt'], 'ArrayOfAttachmentInfo'),
  op('QueryAttachmentInfos2', [MAP, TABLE_DESC, 'RowIDs ArrayOfInt'], 'ArrayOfAttachmentInfo'),
  op(
    'QueryAttachmentData',
    [MAP, 'TableID int', 'AttachmentIDs ArrayOfInt', 'TransportType geoTransportType'],
    'ArrayOfAttachmentData',
  ),
  op(
    'QueryAttachmentData2',
    [MAP, TABLE_DESC, 'AttachmentIDs ArrayOfInt', 'TransportType geoTransportType'],
    'ArrayOfAttachmentData',
  ),
  op('QueryHTMLPopups', [MAP, 'TableID int', 'RowIDs ArrayOfInt'], 'ArrayOfString'),
  op('QueryHTMLPopups2', [MAP, TABLE_DESC, 'RowIDs ArrayOfInt'], 'ArrayOfString'),
  op(
    'GetDefaultLayerDrawingDescriptions',
    [MAP, 'LayerIDs ArrayOfInt', 'SymbolOutputOptions ServerSymbolOutputOptions'],
    'ArrayOfLayerDrawingDescription',
  ),
  op('GetMapTableSubtypeInfos', [MAP, 'TableIDs? ArrayOfInt'], 'ArrayOfMapTableSubtypeInfo'),
  op(
    'GetMapTableSubtypeInfos2',
    [MAP, 'LayerDescriptions? ArrayOfLayerDescription'],
    'ArrayOfMapTableSubtypeInfo',
  ),
  op(
    'GenerateDataClasses',
    [MAP, TABLE_DESC, 'DataClassificationDef DataClassificationDef'],
    'FeatureRenderer',
  ),
];
