import { badRequest } from '../../../lib/errors.js';
import type {
  ImageResult,
  MapDescription,
  MapServerInfo,
  PropertySet,
  QueryResult,
  RecordSet,
  TileCacheInfo,
  TileImageInfo,
} from '../../../soap/schema/generated-types.js';
import type { SoapHandlers } from '../../../soap/service-types.js';

/**
 * Fixed, typed results for every operation: protocol tests exercise the codec and the dispatcher
 * with them. GetMapName refuses index 99 to show how a GeoError becomes a fault.
 */
const WEB_MERCATOR = { $type: 'ProjectedCoordinateSystem', WKID: 102100, LatestWKID: 3857 } as const;
const EXTENT = { $type: 'EnvelopeN', XMin: -180, YMin: -90, XMax: 180, YMax: 90 } as const;
const props = (entries: Record<string, string | number | boolean>): PropertySet => ({
  PropertyArray: Object.entries(entries).map(([Key, Value]) => ({ Key, Value })),
});

export const TILE_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const MAP_DESCRIPTION: MapDescription = {
  Name: 'Layers',
  MapArea: { $type: 'MapExtent', Extent: EXTENT },
  LayerDescriptions: [
    {
      LayerID: 0,
      Visible: true,
      ShowLabels: false,
      ScaleSymbols: false,
      SetSelectionSymbol: false,
      SelectionBufferDistance: 0,
      ShowSelectionBuffer: false,
      DefinitionExpression: '',
    },
  ],
  Rotation: 0,
  SpatialReference: WEB_MERCATOR,
};

export const SERVER_INFO: MapServerInfo = {
  Name: 'Layers',
  Description: 'Fixed test map',
  FullExtent: EXTENT,
  Extent: EXTENT,
  SpatialReference: WEB_MERCATOR,
  MapLayerInfos: [
    {
      LayerID: 0,
      Name: 'Parcels',
      Description: '',
      LayerType: 'Feature Layer',
      SourceDescription: '',
      HasLabels: false,
      CanSelect: true,
      CanScaleSymbols: false,
      MinScale: 0,
      MaxScale: 0,
      HasHyperlinks: false,
      HasAttributes: true,
      CanIdentify: true,
      CanFind: true,
      IsFeatureLayer: true,
      DisplayField: 'NAME',
      IDField: 'OBJECTID',
      IsComposite: false,
      ParentLayerID: -1,
      CopyrightText: '',
    },
  ],
  DefaultMapDescription: MAP_DESCRIPTION,
  Units: 'geoMeters',
  SupportedImageReturnTypes: 'geoImageReturnMimeData',
  CopyrightText: '© Test',
};

export const TILE_CACHE_INFO: TileCacheInfo = {
  SpatialReference: WEB_MERCATOR,
  TileOrigin: { $type: 'PointN', X: -20037508.342787, Y: 20037508.342787 },
  TileCols: 256,
  TileRows: 256,
  DPI: 96,
  LODInfos: [{ LevelID: 0, Scale: 591657527.591555, Resolution: 156543.033928 }],
};

const TILE_IMAGE_INFO: TileImageInfo = {
  CacheTileFormat: 'PNG',
  CompressionQuality: 0,
  Antialiasing: 'false',
};

export const RECORD_SET: RecordSet = {
  Fields: {
    FieldArray: [
      { Name: 'OBJECTID', Type: 'geoFieldTypeOID', IsNullable: false, Length: 4, Precision: 0, Scale: 0 },
      { Name: 'NAME', Type: 'geoFieldTypeString', IsNullable: true, Length: 50, Precision: 0, Scale: 0 },
    ],
  },
  Records: [{ Values: [1, 'Main St'] }, { Values: [2, null] }],
};

const QUERY_RESULT: QueryResult = { URL: '', Object: { $type: 'RecordSet', ...RECORD_SET } };
const IMAGE: ImageResult = {
  ImageURL: '',
  ImageData: TILE_BYTES,
  ImageHeight: 1,
  ImageWidth: 1,
  ImageDPI: 96,
};
const SUBTYPES = [{ TableID: 0, SubtypeFieldName: 'KIND', SubtypeInfos: [] }];
const ATTACHMENT = { AttachmentID: 7, ParentID: 1, Name: 'photo.jpg', ContentType: 'image/jpeg', Size: 8 };

export const FIXED_HANDLERS: SoapHandlers = {
  GetDocumentInfo: async () => props({ Title: 'Fixed', Author: 'Tests' }),
  GetMapCount: async () => 1,
  GetMapName: async ({ Index }) => {
    if (Index !== 0) throw badRequest(`Invalid map index: ${Index}`, ['Only map 0 exists.']);
    return 'Layers';
  },
  GetDefaultMapName: async () => 'Layers',
  GetServerInfo: async () => SERVER_INFO,
  ExportMapImage: async () => ({
    ...IMAGE,
    ImageHeight: 400,
    ImageWidth: 600,
    Extent: EXTENT,
    MapScale: 1000,
  }),
  ExportScaleBar: async () => IMAGE,
  Find: async ({ SearchString }) => [{ Value: SearchString, LayerID: 0, FeatureID: 1, FieldName: 'NAME' }],
  Identify: async () => [
    { LayerID: 0, Name: 'Main St', Properties: props({ NAME: 'Main St' }), FeatureID: 1 },
  ],
  QueryFeatureCount: async ({ QueryFilter }) => (QueryFilter.$type === 'SpatialFilter' ? 3 : 42),
  QueryFeatureIDs: async () => ({ FIDArray: [1, 2] }),
  QueryFeatureData: async () => RECORD_SET,
  QueryFeatureCount2: async () => 42,
  QueryFeatureIDs2: async () => ({ FIDArray: [1, 2] }),
  QueryFeatureData2: async () => QUERY_RESULT,
  QueryHyperlinks: async () => [{ URL: 'https://example.com/1', Location: { $type: 'PointN', X: 1, Y: 2 } }],
  ComputeScale: async () => 36111.909643,
  ComputeDistance: async () => 1234.5,
  ToMapPoints: async ({ ScreenXValues, ScreenYValues }) => ({
    $type: 'MultipointN',
    HasID: false,
    HasZ: false,
    HasM: false,
    PointArray: ScreenXValues.map((x, i) => ({
      $type: 'PointN' as const,
      X: x * 10,
      Y: -ScreenYValues[i] * 10,
    })),
  }),
  FromMapPoints: async () => ({ ScreenXValues: [10, 20], ScreenYValues: [30, 40] }),
  GetLegendInfo: async () => [
    { LayerID: 0, Name: 'Parcels', LegendGroups: [{ Heading: '', LegendClasses: [] }] },
  ],
  GetLegendInfo2: async () => [{ LayerID: 0, Name: 'Parcels' }],
  GetSQLSyntaxInfo: async () => ({
    IdentifierCase: false,
    DelimitedIdentifierCase: false,
    StringComparisonCase: true,
    InvalidCharacters: '',
    InvalidStartingCharacters: '',
  }),
  GetSupportedImageReturnTypes: async () => 'geoImageReturnMimeData',
  IsFixedScaleMap: async () => true,
  HasSingleFusedMapCache: async () => true,
  GetTileCacheInfo: async () => TILE_CACHE_INFO,
  GetMapTile: async () => TILE_BYTES,
  HasLayerCache: async () => false,
  GetLayerTile: async () => TILE_BYTES,
  GetVirtualCacheDirectory: async () => '/tiles/Layers',
  GetCacheName: async () => 'Layers',
  GetTileImageInfo: async () => TILE_IMAGE_INFO,
  GetCacheControlInfo: async () => ({ ClientCachingAllowed: true }),
  GetServiceConfigurationInfo: async () => props({ MaximumRecordCount: 1000, MaximumImageWidth: 4096 }),
  GetCacheDescriptionInfo: async () => ({
    TileCacheInfo: TILE_CACHE_INFO,
    TileImageInfo: TILE_IMAGE_INFO,
    LayerCacheInfos: [],
    CacheControlInfo: { ClientCachingAllowed: true },
    ServiceType: 'geoSingleFusedMapCache',
  }),
  GetCacheStorageInfo: async () => ({ StorageFormat: 'geoMapCacheStorageModeCompact', PacketSize: 128 }),
  QueryRowCount: async () => 2,
  QueryRowIDs: async () => [1, 2],
  QueryData: async () => QUERY_RESULT,
  QueryRelatedRecords: async () => QUERY_RESULT,
  QueryRelatedRecords2: async () => QUERY_RESULT,
  QueryDataStatistics: async () => RECORD_SET,
  QueryRasterValue: async () => [IMAGE],
  QueryRasterValue2: async () => [IMAGE],
  QueryAttachmentInfos: async () => [ATTACHMENT],
  QueryAttachmentInfos2: async () => [ATTACHMENT],
  QueryAttachmentData: async () => [
    { Data: TILE_BYTES, AttachmentInfo: ATTACHMENT, URL: '', TransportType: 'geoTransportTypeEmbedded' },
  ],
  QueryAttachmentData2: async () => [],
  QueryHTMLPopups: async () => ['<b>Main St</b>'],
  QueryHTMLPopups2: async () => ['<b>Main St</b>'],
  GetDefaultLayerDrawingDescriptions: async () => [
    {
      $type: 'FeatureLayerDrawingDescription',
      FeatureRenderer: {
        $type: 'SimpleRenderer',
        Symbol: { $type: 'SimpleLineSymbol', Width: 1, Style: 'geoSLSSolid' },
      },
    },
  ],
  GetMapTableSubtypeInfos: async () => SUBTYPES,
  GetMapTableSubtypeInfos2: async () => SUBTYPES,
  GenerateDataClasses: async () => ({
    $type: 'ClassBreaksRenderer',
    Field: 'POP',
    MinimumValue: 0,
    ClassBreakInfos: [
      {
        ClassMaximumValue: 100,
        ClassMinimumValue: 0,
        Symbol: {
          $type: 'SimpleFillSymbol',
          Color: { $type: 'RgbColor', Red: 255, Green: 0, Blue: 0 },
          Style: 'geoSFSSolid',
        },
      },
    ],
  }),
};
