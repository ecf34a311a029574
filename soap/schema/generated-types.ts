// Generated from the schema table by soap/schema/write-types.ts; do not edit by hand.
import type { TypedValue } from './any-value.js';

/** A polymorphic value whose concrete type is named by `$type` (written as xsi:type). */
export type Tagged<T extends { $type?: string }> = T & { $type: NonNullable<T['$type']> };

export type geoIdentifyOption =
  | 'geoIdentifyTopmost'
  | 'geoIdentifyAllLayers'
  | 'geoIdentifyVisibleLayers'
  | 'geoIdentifyTopOneWithHTMLPopup'
  | 'geoIdentifyVisibleWithHTMLPopup';

export type geoServerHTMLPopupType =
  | 'geoServerHTMLPopupTypeNone'
  | 'geoServerHTMLPopupTypeAsURL'
  | 'geoServerHTMLPopupTypeAsHTMLText';

export type geoMapCacheStorageFormat = 'geoMapCacheStorageModeCompact' | 'geoMapCacheStorageModeExploded';

export type geoJoinType = 'geoLeftOuterJoin' | 'geoLeftInnerJoin';

export type geoFindOption = 'geoFindVisibleLayers' | 'geoFindAllLayers';

export type geoImageFormat =
  | 'geoImageNone'
  | 'geoImageBMP'
  | 'geoImageJPG'
  | 'geoImageDIB'
  | 'geoImageTIFF'
  | 'geoImagePNG'
  | 'geoImagePNG24'
  | 'geoImageEMF'
  | 'geoImagePS'
  | 'geoImagePDF'
  | 'geoImageAI'
  | 'geoImageGIF'
  | 'geoImageSVG'
  | 'geoImagePNG32'
  | 'geoImageJPGPNG';

export type geoScaleBarPos =
  | 'geoScaleBarAbove'
  | 'geoScaleBarBeforeLabels'
  | 'geoScaleBarAfterLabels'
  | 'geoScaleBarBeforeBar'
  | 'geoScaleBarAfterBar'
  | 'geoScaleBarBelow';

export type geoVertPosEnum = 'geoAbove' | 'geoTop' | 'geoOn' | 'geoBottom' | 'geoBelow';

export type geoScaleBarFrequency =
  | 'geoScaleBarNone'
  | 'geoScaleBarOne'
  | 'geoScaleBarMajorDivisions'
  | 'geoScaleBarDivisions'
  | 'geoScaleBarDivisionsAndFirstMidpoint'
  | 'geoScaleBarDivisionsAndFirstSubdivisions'
  | 'geoScaleBarDivisionsAndSubdivisions';

export type geoScaleBarResizeHint =
  | 'geoScaleBarFixed'
  | 'geoScaleBarAutoDivision'
  | 'geoScaleBarAutoDivisions';

export type geoImageReturnType = 'geoImageReturnURL' | 'geoImageReturnMimeData';

export type geoRotationType = 'geoRotateSymbolGeographic' | 'geoRotateSymbolArithmetic';

export type geoNormalizationType =
  | 'geoNormalizeByField'
  | 'geoNormalizeByLog'
  | 'geoNormalizeByPercentOfTotal'
  | 'geoNormalizeByArea'
  | 'geoNormalizeByNothing';

export type geoClassifyMethod =
  | 'geoClassifyNaturalBreaks'
  | 'geoClassifyEqualInterval'
  | 'geoClassifyQuantile'
  | 'geoClassifyStandardDeviation'
  | 'geoClassifyGeometricalInterval';

export type geoServerPointLabelPlacementType =
  | 'geoServerPointLabelPlacementAboveCenter'
  | 'geoServerPointLabelPlacementAboveLeft'
  | 'geoServerPointLabelPlacementAboveRight'
  | 'geoServerPointLabelPlacementBelowCenter'
  | 'geoServerPointLabelPlacementBelowLeft'
  | 'geoServerPointLabelPlacementBelowRight'
  | 'geoServerPointLabelPlacementCenterCenter'
  | 'geoServerPointLabelPlacementCenterLeft'
  | 'geoServerPointLabelPlacementCenterRight';

export type geoServerLineLabelPlacementType =
  | 'geoServerLinePlacementAboveAfter'
  | 'geoServerLinePlacementAboveAlong'
  | 'geoServerLinePlacementAboveBefore'
  | 'geoServerLinePlacementAboveStart'
  | 'geoServerLinePlacementAboveEnd'
  | 'geoServerLinePlacementBelowAfter'
  | 'geoServerLinePlacementBelowAlong'
  | 'geoServerLinePlacementBelowBefore'
  | 'geoServerLinePlacementBelowStart'
  | 'geoServerLinePlacementBelowEnd'
  | 'geoServerLinePlacementCenterAfter'
  | 'geoServerLinePlacementCenterAlong'
  | 'geoServerLinePlacementCenterBefore'
  | 'geoServerLinePlacementCenterStart'
  | 'geoServerLinePlacementCenterEnd';

export type geoServerPolygonLabelPlacementType = 'geoServerPolygonPlacementAlwaysHorizontal';

export type geoCachedMapServiceType = 'geoSingleFusedMapCache' | 'geoIndividualLayerCaches';

export type geoQueryResultFormat =
  | 'geoQueryResultRecordSetAsObject'
  | 'geoQueryResultJsonAsMime'
  | 'geoQueryResultJsonAsURL'
  | 'geoQueryResultAmfAsMime'
  | 'geoQueryResultAmfAsURL'
  | 'geoQueryResultKMLAsMime'
  | 'geoQueryResultKMLAsURL';

export type geoDataStatType =
  | 'geoDataStatTypeCount'
  | 'geoDataStatTypeSum'
  | 'geoDataStatTypeMin'
  | 'geoDataStatTypeMax'
  | 'geoDataStatTypeAverage'
  | 'geoDataStatTypeStdDev'
  | 'geoDataStatTypeVariance';

export type geoRelateResultFormat =
  | 'geoRelateResultRelatedRecordSetAsObject'
  | 'geoRelateResultJsonAsMime'
  | 'geoRelateResultJsonAsURL'
  | 'geoRelateResultAmfAsMime'
  | 'geoRelateResultAmfAsURL';

export type geoTimeRelation =
  | 'geoTimeRelationOverlaps'
  | 'geoTimeRelationOverlapsStartWithinEnd'
  | 'geoTimeRelationAfterStartOverlapsEnd';

export type geoServerPictureOutputType =
  | 'geoServerPictureOutputAsPNG'
  | 'geoServerPictureOutputAsPNGInMime'
  | 'geoServerPictureOutputAsIPicture';

export type geoLabelExpressionType =
  | 'geoLabelExpressionSimple'
  | 'geoLabelExpressionPython'
  | 'geoLabelExpressionVBScript'
  | 'geoLabelExpressionJScript';

export type geoSimpleFillStyle =
  | 'geoSFSSolid'
  | 'geoSFSNull'
  | 'geoSFSHorizontal'
  | 'geoSFSVertical'
  | 'geoSFSForwardDiagonal'
  | 'geoSFSBackwardDiagonal'
  | 'geoSFSCross'
  | 'geoSFSDiagonalCross';

export type geoSimpleLineStyle =
  | 'geoSLSSolid'
  | 'geoSLSDash'
  | 'geoSLSDot'
  | 'geoSLSDashDot'
  | 'geoSLSDashDotDot'
  | 'geoSLSNull'
  | 'geoSLSInsideFrame';

export type geoSimpleMarkerStyle =
  | 'geoSMSCircle'
  | 'geoSMSSquare'
  | 'geoSMSCross'
  | 'geoSMSX'
  | 'geoSMSDiamond';

export type geoTextHorizontalAlignment = 'geoTHALeft' | 'geoTHACenter' | 'geoTHARight' | 'geoTHAFull';

export type geoTextVerticalAlignment = 'geoTVATop' | 'geoTVACenter' | 'geoTVABaseline' | 'geoTVABottom';

export type geoTextPosition = 'geoTPNormal' | 'geoTPSuperscript' | 'geoTPSubscript';

export type geoTextCase = 'geoTCNormal' | 'geoTCLowercase' | 'geoTCAllCaps' | 'geoTCSmallCaps';

export type geoTextDirection = 'geoTDHorizontal' | 'geoTDAngle' | 'geoTDVertical';

export type geoMaskStyle = 'geoMSNone' | 'geoMSHalo';

export type geoFontStyle = 'normal' | 'italic' | 'oblique';

export type geoFontWeight = 'normal' | 'bold' | 'bolder' | 'lighter';

export type geoFontDecoration = 'none' | 'underline' | 'line-through';

export type geoSimpleTextVerticalAlignment = 'top' | 'middle' | 'baseline' | 'bottom';

export type geoSimpleTextHorizontalAlignment = 'left' | 'center' | 'right' | 'justified';

export type geoUnits =
  | 'geoUnknownUnits'
  | 'geoInches'
  | 'geoPoints'
  | 'geoFeet'
  | 'geoYards'
  | 'geoMiles'
  | 'geoNauticalMiles'
  | 'geoMillimeters'
  | 'geoCentimeters'
  | 'geoMeters'
  | 'geoKilometers'
  | 'geoDecimalDegrees'
  | 'geoDecimeters';

export type geoRoundingOptionEnum = 'geoRoundNumberOfDecimals' | 'geoRoundNumberOfSignificantDigits';

export type geoNumericAlignmentEnum = 'geoAlignRight' | 'geoAlignLeft';

export type geoTimeUnits =
  | 'geoTimeUnitsUnknown'
  | 'geoTimeUnitsMilliseconds'
  | 'geoTimeUnitsSeconds'
  | 'geoTimeUnitsMinutes'
  | 'geoTimeUnitsHours'
  | 'geoTimeUnitsDays'
  | 'geoTimeUnitsWeeks'
  | 'geoTimeUnitsMonths'
  | 'geoTimeUnitsYears'
  | 'geoTimeUnitsDecades'
  | 'geoTimeUnitsCenturies';

export type geoTransportType = 'geoTransportTypeEmbedded' | 'geoTransportTypeUrl';

export type geoGeometryType =
  | 'geoGeometryPoint'
  | 'geoGeometryMultipoint'
  | 'geoGeometryPolyline'
  | 'geoGeometryPolygon'
  | 'geoGeometryMultiPatch';

export type geoFieldType =
  | 'geoFieldTypeInteger'
  | 'geoFieldTypeSmallInteger'
  | 'geoFieldTypeDouble'
  | 'geoFieldTypeSingle'
  | 'geoFieldTypeString'
  | 'geoFieldTypeDate'
  | 'geoFieldTypeGeometry'
  | 'geoFieldTypeOID'
  | 'geoFieldTypeBlob'
  | 'geoFieldTypeGlobalID'
  | 'geoFieldTypeRaster'
  | 'geoFieldTypeGUID'
  | 'geoFieldTypeXML';

export type geoMergePolicyType = 'geoMPTSumValues' | 'geoMPTAreaWeighted' | 'geoMPTDefaultValue';

export type geoSplitPolicyType = 'geoSPTGeometryRatio' | 'geoSPTDuplicate' | 'geoSPTDefaultValue';

export type geoSearchOrder = 'geoSearchOrderSpatial' | 'geoSearchOrderAttribute';

export type geoSpatialRelEnum =
  | 'geoSpatialRelUndefined'
  | 'geoSpatialRelIntersects'
  | 'geoSpatialRelEnvelopeIntersects'
  | 'geoSpatialRelIndexIntersects'
  | 'geoSpatialRelTouches'
  | 'geoSpatialRelOverlaps'
  | 'geoSpatialRelCrosses'
  | 'geoSpatialRelWithin'
  | 'geoSpatialRelContains'
  | 'geoSpatialRelRelation';

export type geoRelCardinality =
  | 'geoRelCardinalityOneToOne'
  | 'geoRelCardinalityOneToMany'
  | 'geoRelCardinalityManyToMany';

export type geoRelRole = 'geoRelRoleAny' | 'geoRelRoleOrigin' | 'geoRelRoleDestination';

export interface Geometry {
  $type?: 'Geometry';
}

export type AnyGeometry =
  | Geometry
  | Tagged<Line>
  | Tagged<EllipticArc>
  | Tagged<CircularArc>
  | Tagged<BezierCurve>
  | Tagged<PolygonN>
  | Tagged<PolygonB>
  | Tagged<PolylineN>
  | Tagged<PolylineB>
  | Tagged<Path>
  | Tagged<Ring>
  | Tagged<EnvelopeN>
  | Tagged<EnvelopeB>
  | Tagged<PointN>
  | Tagged<PointB>
  | Tagged<MultipointB>
  | Tagged<MultipointN>
  | Tagged<MultiPatchB>
  | Tagged<MultiPatchN>
  | Tagged<Triangles>
  | Tagged<TriangleFan>
  | Tagged<TriangleStrip>;

export type Curve =
  | Tagged<Line>
  | Tagged<EllipticArc>
  | Tagged<CircularArc>
  | Tagged<BezierCurve>
  | Tagged<PolygonN>
  | Tagged<PolygonB>
  | Tagged<PolylineN>
  | Tagged<PolylineB>
  | Tagged<Path>
  | Tagged<Ring>;

export type Segment = Tagged<Line> | Tagged<EllipticArc> | Tagged<CircularArc> | Tagged<BezierCurve>;

export interface Line {
  $type?: 'Line';
  FromPoint: Point;
  ToPoint: Point;
}

export interface EllipticArc {
  $type?: 'EllipticArc';
  FromPoint: Point;
  ToPoint: Point;
  EllipseStd: boolean;
  CenterPoint: Point;
  Rotation: number;
  MinorMajorRatio: number;
  IsCounterClockwise: boolean;
  IsMinor: boolean;
}

export interface CircularArc {
  $type?: 'CircularArc';
  FromPoint: Point;
  ToPoint: Point;
  CenterPoint: Point;
  FromAngle?: number;
  ToAngle?: number;
  IsCounterClockwise: boolean;
  IsMinor: boolean;
  IsLine: boolean;
}

export interface BezierCurve {
  $type?: 'BezierCurve';
  FromPoint: Point;
  ToPoint: Point;
  Degree: number;
  ControlPointArray: Point[];
}

export type Polycurve = Tagged<PolygonN> | Tagged<PolygonB> | Tagged<PolylineN> | Tagged<PolylineB>;

export type Envelope = Tagged<EnvelopeN> | Tagged<EnvelopeB>;

export interface EnvelopeN {
  $type?: 'EnvelopeN';
  XMin: number;
  YMin: number;
  XMax: number;
  YMax: number;
  ZMin?: number;
  ZMax?: number;
  MMin?: number;
  MMax?: number;
  SpatialReference?: SpatialReference;
}

export interface EnvelopeB {
  $type?: 'EnvelopeB';
  Bytes: Uint8Array;
}

export type Point = Tagged<PointN> | Tagged<PointB>;

export interface PointN {
  $type?: 'PointN';
  X: number;
  Y: number;
  M?: number;
  Z?: number;
  ID?: number;
  SpatialReference?: SpatialReference;
}

export interface PointB {
  $type?: 'PointB';
  Bytes: Uint8Array;
}

export type Multipoint = Tagged<MultipointB> | Tagged<MultipointN>;

export interface MultipointB {
  $type?: 'MultipointB';
  Bytes: Uint8Array;
}

export interface MultipointN {
  $type?: 'MultipointN';
  HasID: boolean;
  HasZ: boolean;
  HasM: boolean;
  Extent?: Envelope;
  PointArray?: Point[];
  SpatialReference?: SpatialReference;
}

export interface Path {
  $type?: 'Path';
  PointArray?: Point[];
  SegmentArray?: Segment[];
}

export type AnyPath = Path | Tagged<Ring>;

export interface Ring {
  $type?: 'Ring';
  PointArray?: Point[];
  SegmentArray?: Segment[];
}

export type Polygon = Tagged<PolygonN> | Tagged<PolygonB>;

export interface PolygonN {
  $type?: 'PolygonN';
  HasID: boolean;
  HasZ: boolean;
  HasM: boolean;
  Extent?: Envelope;
  RingArray: Ring[];
  SpatialReference?: SpatialReference;
}

export interface PolygonB {
  $type?: 'PolygonB';
  Bytes: Uint8Array;
}

export type Polyline = Tagged<PolylineN> | Tagged<PolylineB>;

export interface PolylineN {
  $type?: 'PolylineN';
  HasID: boolean;
  HasZ: boolean;
  HasM: boolean;
  Extent?: Envelope;
  PathArray: AnyPath[];
  SpatialReference?: SpatialReference;
}

export interface PolylineB {
  $type?: 'PolylineB';
  Bytes: Uint8Array;
}

export type MultiPatch = Tagged<MultiPatchB> | Tagged<MultiPatchN>;

export interface MultiPatchB {
  $type?: 'MultiPatchB';
  Bytes: Uint8Array;
}

export interface MultiPatchN {
  $type?: 'MultiPatchN';
  HasID: boolean;
  HasZ: boolean;
  HasM: boolean;
  Extent: Envelope;
  SurfacePatchArray: AnyGeometry[];
}

export interface Triangles {
  $type?: 'Triangles';
  PointArray?: Point[];
}

export interface TriangleFan {
  $type?: 'TriangleFan';
  PointArray?: Point[];
}

export interface TriangleStrip {
  $type?: 'TriangleStrip';
  PointArray?: Point[];
}

export type SpatialReference =
  | Tagged<ProjectedCoordinateSystem>
  | Tagged<GeographicCoordinateSystem>
  | Tagged<UnknownCoordinateSystem>;

export interface ProjectedCoordinateSystem {
  $type?: 'ProjectedCoordinateSystem';
  WKT?: string;
  XOrigin?: number;
  YOrigin?: number;
  XYScale?: number;
  ZOrigin?: number;
  ZScale?: number;
  MOrigin?: number;
  MScale?: number;
  XYTolerance?: number;
  ZTolerance?: number;
  MTolerance?: number;
  HighPrecision?: boolean;
  LeftLongitude?: number;
  WKID?: number;
  LatestWKID?: number;
  VCSWKID?: number;
  LatestVCSWKID?: number;
}

export interface GeographicCoordinateSystem {
  $type?: 'GeographicCoordinateSystem';
  WKT?: string;
  XOrigin?: number;
  YOrigin?: number;
  XYScale?: number;
  ZOrigin?: number;
  ZScale?: number;
  MOrigin?: number;
  MScale?: number;
  XYTolerance?: number;
  ZTolerance?: number;
  MTolerance?: number;
  HighPrecision?: boolean;
  LeftLongitude?: number;
  WKID?: number;
  LatestWKID?: number;
  VCSWKID?: number;
  LatestVCSWKID?: number;
}

export interface UnknownCoordinateSystem {
  $type?: 'UnknownCoordinateSystem';
  WKT?: string;
  XOrigin?: number;
  YOrigin?: number;
  XYScale?: number;
  ZOrigin?: number;
  ZScale?: number;
  MOrigin?: number;
  MScale?: number;
  XYTolerance?: number;
  ZTolerance?: number;
  MTolerance?: number;
  HighPrecision?: boolean;
  LeftLongitude?: number;
  WKID?: number;
  LatestWKID?: number;
  VCSWKID?: number;
  LatestVCSWKID?: number;
}

export interface GeoTransformation {
  WKT?: string;
  WKID?: number;
}

export interface MapServerInfo {
  Name: string;
  Description: string;
  FullExtent?: Envelope;
  Extent?: Envelope;
  SpatialReference?: SpatialReference;
  MapLayerInfos?: MapLayerInfo[];
  BackgroundColor?: Color;
  Bookmarks?: MapServerBookmark[];
  DefaultMapDescription?: MapDescription;
  Units: geoUnits;
  SupportedImageReturnTypes: geoImageReturnType;
  BackgroundSymbol?: FillSymbol;
  CopyrightText: string;
  StandaloneTableInfos?: StandaloneTableInfo[];
  StandaloneTableDescriptions?: StandaloneTableDescription[];
  FullTimeExtent?: TimeExtent;
  DefaultTimeStepInterval?: number;
  DefaultTimeStepIntervalUnits?: geoTimeUnits;
  DefaultTimeWindow?: number;
  SupportsDynamicLayers?: boolean;
  HasLiveData?: boolean;
  MinScale?: number;
  MaxScale?: number;
}

export type MapTableInfo = Tagged<MapLayerInfo> | Tagged<StandaloneTableInfo>;

export interface MapLayerInfo {
  $type?: 'MapLayerInfo';
  LayerID: number;
  Name: string;
  Description: string;
  LayerType: string;
  SourceDescription: string;
  HasLabels: boolean;
  CanSelect: boolean;
  CanScaleSymbols: boolean;
  MinScale: number;
  MaxScale: number;
  Extent?: Envelope;
  HasHyperlinks: boolean;
  HasAttributes: boolean;
  CanIdentify: boolean;
  CanFind: boolean;
  IsFeatureLayer: boolean;
  Fields?: Fields;
  DisplayField: string;
  IDField: string;
  IsComposite: boolean;
  SubLayerIDs?: number[];
  ParentLayerID: number;
  FieldAliases?: string[];
  CopyrightText: string;
  RelateInfos?: RelateInfo[];
  SupportsTime?: boolean;
  StartTimeFieldName?: string;
  EndTimeFieldName?: string;
  TimeValueFormat?: string;
  TrackIDFieldName?: string;
  TimeReference?: TimeReference;
  FullTimeExtent?: TimeExtent;
  TimeInterval?: number;
  TimeIntervalUnits?: geoTimeUnits;
  HasAttachments?: boolean;
  HTMLPopupType?: geoServerHTMLPopupType;
  HasLayerDrawingDescription?: boolean;
  HasSubtype?: boolean;
  CanModifyDrawingDescription?: boolean;
  SupportsStatistics?: boolean;
  SupportsAdvancedQueries?: boolean;
  HasLiveData?: boolean;
}

export interface StandaloneTableInfo {
  $type?: 'StandaloneTableInfo';
  ID: number;
  Name: string;
  Fields?: Fields;
  RelateInfos?: RelateInfo[];
  SupportsTime?: boolean;
  StartTimeFieldName?: string;
  EndTimeFieldName?: string;
  TimeValueFormat?: string;
  TrackIDFieldName?: string;
  TimeReference?: TimeReference;
  FullTimeExtent?: TimeExtent;
  TimeInterval?: number;
  TimeIntervalUnits?: geoTimeUnits;
  HasAttachments?: boolean;
  DisplayField?: string;
  Description?: string;
  IDField?: string;
  HasSubtype?: boolean;
  SupportsStatistics?: boolean;
  SupportsAdvancedQueries?: boolean;
}

export type MapTableDescription = Tagged<LayerDescription> | Tagged<StandaloneTableDescription>;

export interface LayerDescription {
  $type?: 'LayerDescription';
  LayerID: number;
  Visible: boolean;
  ShowLabels: boolean;
  ScaleSymbols: boolean;
  SelectionFeatures?: number[];
  SelectionColor?: Color;
  SelectionSymbol?: Symbol;
  SetSelectionSymbol: boolean;
  SelectionBufferDistance: number;
  ShowSelectionBuffer: boolean;
  DefinitionExpression: string;
  SourceID?: string;
  SelectionBufferSymbol?: FillSymbol;
  LayerResultOptions?: LayerResultOptions;
  UseTime?: boolean;
  TimeDataCumulative?: boolean;
  TimeOffset?: number;
  TimeOffsetUnits?: geoTimeUnits;
  DrawingDescription?: LayerDrawingDescription;
  Source?: MapServerSourceDescription;
}

export interface StandaloneTableDescription {
  $type?: 'StandaloneTableDescription';
  ID: number;
  DefinitionExpression?: string;
  SourceID?: string;
  UseTime?: boolean;
  TimeDataCumulative?: boolean;
  TimeOffset?: number;
  TimeOffsetUnits?: geoTimeUnits;
  Source?: MapServerSourceDescription;
}

export interface LayerResultOptions {
  IncludeGeometry?: boolean;
  GeometryResultOptions?: GeometryResultOptions;
  ReturnFieldNamesInResults?: boolean;
  FormatValuesInResults?: boolean;
}

export interface MapDescription {
  Name: string;
  MapArea?: MapArea;
  LayerDescriptions?: LayerDescription[];
  Rotation: number;
  SpatialReference?: SpatialReference;
  TransparentColor?: Color;
  SelectionColor?: Color;
  BackgroundSymbol?: FillSymbol;
  CustomGraphics?: GraphicElement[];
  GeoTransformation?: GeoTransformation;
  TimeReference?: TimeReference;
  TimeValue?: AnyTimeValue;
  HonorLayerReordering?: boolean;
  TimeRelation?: geoTimeRelation;
}

export type MapArea =
  | Tagged<MapExtent>
  | Tagged<CenterAndScale>
  | Tagged<CenterAndSize>
  | Tagged<FeatureExtent>
  | Tagged<MapServerBookmark>;

export interface MapExtent {
  $type?: 'MapExtent';
  Extent?: Envelope;
}

export interface CenterAndScale {
  $type?: 'CenterAndScale';
  Extent?: Envelope;
  Center?: Point;
  Scale: number;
  DPI?: number;
  DevBottom?: number;
  DevLeft?: number;
  DevTop?: number;
  DevRight?: number;
}

export interface CenterAndSize {
  $type?: 'CenterAndSize';
  Extent?: Envelope;
  Center?: Point;
  Height: number;
  Width: number;
  Units: string;
}

export interface FeatureExtent {
  $type?: 'FeatureExtent';
  Extent?: Envelope;
  DefaultScale: number;
  ExpandRatio: number;
  FeatureIDs?: number[];
  LayerID: number;
  MapName: string;
}

export interface MapServerBookmark {
  $type?: 'MapServerBookmark';
  Extent?: Envelope;
  Name: string;
}

export interface ImageDescription {
  ImageType?: ImageType;
  ImageDisplay?: ImageDisplay;
}

export interface ImageDisplay {
  ImageHeight: number;
  ImageWidth: number;
  ImageDPI: number;
  TransparentColor?: Color;
}

export interface ImageType {
  ImageFormat: geoImageFormat;
  ImageReturnType: geoImageReturnType;
}

export interface ImageResult {
  ImageData?: Uint8Array;
  ImageURL: string;
  ImageHeight: number;
  ImageWidth: number;
  ImageDPI: number;
  ImageType?: string;
}

export interface MapImage {
  ImageData?: Uint8Array;
  ImageURL: string;
  Extent?: Envelope;
  VisibleLayerIDs?: number[];
  MapScale: number;
  ImageHeight: number;
  ImageWidth: number;
  ImageDPI: number;
  ImageType?: string;
}

export interface MapServerFindResult {
  Value: string;
  LayerID: number;
  FeatureID: number;
  FieldName: string;
  Shape?: AnyGeometry;
  Properties?: PropertySet;
}

export interface MapServerIdentifyResult {
  LayerID: number;
  Name: string;
  Properties?: PropertySet;
  Shape?: AnyGeometry;
  Relationships?: MapServerRelationship[];
  HTMLPopup?: string;
  FeatureID?: number;
}

export interface MapServerHyperlink {
  Location?: AnyGeometry;
  URL: string;
}

export interface MapServerRelationship {
  Name: string;
  Rows?: MapServerRow[];
}

export interface MapServerRow {
  Name: string;
  Properties?: PropertySet;
  Relationships?: MapServerRelationship[];
  FeatureID?: number;
}

export interface MapServerLegendInfo {
  LayerID: number;
  Name: string;
  LegendGroups?: MapServerLegendGroup[];
}

export interface MapServerLegendGroup {
  Heading: string;
  LegendClasses?: MapServerLegendClass[];
}

export interface MapServerLegendClass {
  Label: string;
  Description: string;
  SymbolImage?: ImageResult;
  TransparentColor?: Color;
}

export interface MapServerLegendPatch {
  Width: number;
  Height: number;
  ImageDPI: number;
  LinePatch?: LinePatch;
  AreaPatch?: AreaPatch;
}

export interface Patch {
  $type?: 'Patch';
  Name?: string;
  PreserveAspectRatio?: boolean;
  Geometry?: AnyGeometry;
}

export type AnyPatch = Patch | Tagged<LinePatch> | Tagged<AreaPatch>;

export interface LinePatch {
  $type?: 'LinePatch';
  Name?: string;
  PreserveAspectRatio?: boolean;
  Geometry?: AnyGeometry;
}

export interface AreaPatch {
  $type?: 'AreaPatch';
  Name?: string;
  PreserveAspectRatio?: boolean;
  Geometry?: AnyGeometry;
}

export interface LegendClass {
  Symbol?: Symbol;
  Label: string;
  Description: string;
  LegendClassFormat?: LegendClassFormat;
}

export interface LegendClassFormat {
  LabelSymbol?: Symbol;
  DescriptionSymbol?: Symbol;
  LinePatch?: LinePatch;
  AreaPatch?: AreaPatch;
  PatchWidth: number;
  PatchHeight: number;
}

export interface LegendGroup {
  Visible: boolean;
  Editable: boolean;
  Heading: string;
  LegendClasses?: LegendClass[];
}

export interface SQLSyntaxInfo {
  FunctionNames?: PropertySet;
  SpecialCharacters?: PropertySet;
  SupportedPredicates?: string[];
  SupportedClauses?: string[];
  IdentifierCase: boolean;
  DelimitedIdentifierCase: boolean;
  StringComparisonCase: boolean;
  Keywords?: string[];
  InvalidCharacters: string;
  InvalidStartingCharacters: string;
}

export type Element =
  | Tagged<LineElement>
  | Tagged<CircleElement>
  | Tagged<EllipseElement>
  | Tagged<RectangleElement>
  | Tagged<MarkerElement>
  | Tagged<ParagraphTextElement>
  | Tagged<PolygonElement>
  | Tagged<TextElement>
  | Tagged<GroupElement>;

export type GraphicElement =
  | Tagged<LineElement>
  | Tagged<CircleElement>
  | Tagged<EllipseElement>
  | Tagged<RectangleElement>
  | Tagged<MarkerElement>
  | Tagged<ParagraphTextElement>
  | Tagged<PolygonElement>
  | Tagged<TextElement>;

export interface LineElement {
  $type?: 'LineElement';
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Symbol?: Symbol;
  Line: AnyGeometry;
  Locked?: boolean;
  FixedAspectRatio?: boolean;
}

export interface CircleElement {
  $type?: 'CircleElement';
  Rectangle: AnyGeometry;
  Locked?: boolean;
  FixedAspectRatio?: boolean;
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Symbol?: Symbol;
}

export interface EllipseElement {
  $type?: 'EllipseElement';
  Rectangle: AnyGeometry;
  Locked?: boolean;
  FixedAspectRatio?: boolean;
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Symbol?: Symbol;
}

export interface RectangleElement {
  $type?: 'RectangleElement';
  Rectangle: AnyGeometry;
  Locked?: boolean;
  FixedAspectRatio?: boolean;
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Symbol?: Symbol;
}

export interface GroupElement {
  $type?: 'GroupElement';
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Elements: GraphicElement[];
  Rectangle?: AnyGeometry;
  Locked?: boolean;
  FixedAspectRatio?: boolean;
  Border?: Border;
  Background?: Background;
  DraftMode?: boolean;
  Shadow?: Shadow;
}

export interface MarkerElement {
  $type?: 'MarkerElement';
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Symbol?: Symbol;
  Point: Point;
  Locked?: boolean;
}

export interface ParagraphTextElement {
  $type?: 'ParagraphTextElement';
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Text?: string;
  Scale?: number;
  Symbol?: Symbol;
  TextGeometry: AnyGeometry;
  Locked?: boolean;
  FrameBorder?: Border;
  FrameBackground?: Background;
  FrameShadow?: Shadow;
  ColumnGap?: number;
  ColumnCount?: number;
  Margin?: number;
}

export interface PolygonElement {
  $type?: 'PolygonElement';
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Symbol?: Symbol;
  Polygon: AnyGeometry;
  Locked?: boolean;
  FixedAspectRatio?: boolean;
}

export interface TextElement {
  $type?: 'TextElement';
  Name?: string;
  Type?: string;
  AutoTransform?: boolean;
  ReferenceScale?: number;
  Text?: string;
  Scale?: boolean;
  Symbol?: Symbol;
  TextGeometry: AnyGeometry;
  Locked?: boolean;
}

export type Border = Tagged<SymbolBorder>;

export interface SymbolBorder {
  $type?: 'SymbolBorder';
  HorizontalGap: number;
  CornerRounding: number;
  VerticalGap: number;
  Symbol?: LineSymbol;
}

export type Background = Tagged<SymbolBackground>;

export interface SymbolBackground {
  $type?: 'SymbolBackground';
  HorizontalGap: number;
  CornerRounding: number;
  VerticalGap: number;
  Symbol?: FillSymbol;
}

export type Shadow = Tagged<SymbolShadow>;

export interface SymbolShadow {
  $type?: 'SymbolShadow';
  Symbol?: LineSymbol;
  CornerRounding: number;
  HorizontalOffset: number;
  VerticalOffset: number;
}

export type ScaleBar = Tagged<AlternatingScaleBar> | Tagged<SingleDivisionScaleBar>;

export interface AlternatingScaleBar {
  $type?: 'AlternatingScaleBar';
  BarHeight?: number;
  Division?: number;
  Divisions?: number;
  DivisionsBeforeZero?: number;
  Subdivisions?: number;
  Units?: geoUnits;
  UnitLabel?: string;
  UnitLabelPosition?: geoScaleBarPos;
  UnitLabelGap?: number;
  UnitLabelSymbol?: TextSymbol;
  LabelFrequency?: geoScaleBarFrequency;
  LabelPosition?: geoVertPosEnum;
  LabelGap?: number;
  LabelSymbol?: TextSymbol;
  NumberFormat?: NumericFormat;
  ResizeHint?: geoScaleBarResizeHint;
  FillSymbol1?: FillSymbol;
  FillSymbol2?: FillSymbol;
  DivisionMarkSymbol?: LineSymbol;
  SubdivisionMarkSymbol?: LineSymbol;
  DivisionMarkHeight?: number;
  SubdivisionMarkHeight?: number;
  MarkPosition?: geoVertPosEnum;
  MarkFrequency?: geoScaleBarFrequency;
}

export interface SingleDivisionScaleBar {
  $type?: 'SingleDivisionScaleBar';
  BarHeight?: number;
  Division?: number;
  Divisions?: number;
  DivisionsBeforeZero?: number;
  Subdivisions?: number;
  Units?: geoUnits;
  UnitLabel?: string;
  UnitLabelPosition?: geoScaleBarPos;
  UnitLabelGap?: number;
  UnitLabelSymbol?: TextSymbol;
  LabelFrequency?: geoScaleBarFrequency;
  LabelPosition?: geoVertPosEnum;
  LabelGap?: number;
  LabelSymbol?: TextSymbol;
  NumberFormat?: NumericFormat;
  ResizeHint?: geoScaleBarResizeHint;
  FillSymbol?: FillSymbol;
  DivisionMarkSymbol?: LineSymbol;
  SubdivisionMarkSymbol?: LineSymbol;
  DivisionMarkHeight?: number;
  SubdivisionMarkHeight?: number;
  MarkPosition?: geoVertPosEnum;
  MarkFrequency?: geoScaleBarFrequency;
}

export interface NumericFormat {
  RoundingOption?: geoRoundingOptionEnum;
  RoundingValue?: number;
  AlignmentOption?: geoNumericAlignmentEnum;
  AlignmentWidth?: number;
  UseSeparator?: boolean;
  ZeroPad?: boolean;
  ShowPlus?: boolean;
}

export type MapServerSourceDescription =
  | Tagged<DataSourceDescription>
  | Tagged<TableDataSourceDescription>
  | Tagged<QueryTableDataSourceDescription>
  | Tagged<RasterDataSourceDescription>
  | Tagged<MapTableSourceDescription>
  | Tagged<JoinTableSourceDescription>;

export interface DataSourceDescription {
  $type?: 'DataSourceDescription';
  WorkspaceID: string;
}

export type AnyDataSourceDescription =
  | DataSourceDescription
  | Tagged<TableDataSourceDescription>
  | Tagged<QueryTableDataSourceDescription>
  | Tagged<RasterDataSourceDescription>;

export interface TableDataSourceDescription {
  $type?: 'TableDataSourceDescription';
  WorkspaceID: string;
  TableName: string;
  VersionName: string;
}

export interface QueryTableDataSourceDescription {
  $type?: 'QueryTableDataSourceDescription';
  WorkspaceID: string;
  Query: string;
  OIDFields: string;
  GeometryType: geoGeometryType;
  SpatialReference: SpatialReference;
}

export interface RasterDataSourceDescription {
  $type?: 'RasterDataSourceDescription';
  WorkspaceID: string;
  RasterName: string;
}

export interface MapTableSourceDescription {
  $type?: 'MapTableSourceDescription';
  MapTableID: number;
  VersionName?: string;
}

export interface JoinTableSourceDescription {
  $type?: 'JoinTableSourceDescription';
  LeftSourceDescription: MapServerSourceDescription;
  RightSourceDescription: MapServerSourceDescription;
  LeftTableKey: string;
  RightTableKey: string;
  JoinType?: geoJoinType;
}

export type Color =
  | Tagged<GrayColor>
  | Tagged<RgbColor>
  | Tagged<CmykColor>
  | Tagged<HlsColor>
  | Tagged<HsvColor>;

export interface GrayColor {
  $type?: 'GrayColor';
  UseWindowsDithering?: boolean;
  AlphaValue?: number;
  GrayLevel: number;
}

export interface RgbColor {
  $type?: 'RgbColor';
  UseWindowsDithering?: boolean;
  AlphaValue?: number;
  Red: number;
  Green: number;
  Blue: number;
}

export interface CmykColor {
  $type?: 'CmykColor';
  UseWindowsDithering?: boolean;
  AlphaValue?: number;
  Cyan: number;
  Magenta: number;
  Yellow: number;
  Black: number;
  Overprint: boolean;
  IsSpot: boolean;
  SpotDescription: string;
  SpotPercent: number;
}

export interface HlsColor {
  $type?: 'HlsColor';
  UseWindowsDithering?: boolean;
  AlphaValue?: number;
  Hue: number;
  Lightness: number;
  Saturation: number;
}

export interface HsvColor {
  $type?: 'HsvColor';
  UseWindowsDithering?: boolean;
  AlphaValue?: number;
  Hue: number;
  Saturation: number;
  Value: number;
}

export type Symbol =
  | Tagged<SimpleFillSymbol>
  | Tagged<PictureFillSymbol>
  | Tagged<XMLBinaryFillSymbol>
  | Tagged<SimpleLineSymbol>
  | Tagged<CharacterMarkerSymbol>
  | Tagged<PictureMarkerSymbol>
  | Tagged<SimpleMarkerSymbol>
  | Tagged<SimpleTextSymbol>
  | Tagged<TextSymbol>
  | Tagged<XMLBinarySymbol>;

export type FillSymbol = Tagged<SimpleFillSymbol> | Tagged<PictureFillSymbol> | Tagged<XMLBinaryFillSymbol>;

export type LineSymbol = Tagged<SimpleLineSymbol>;

export type MarkerSymbol =
  | Tagged<CharacterMarkerSymbol>
  | Tagged<PictureMarkerSymbol>
  | Tagged<SimpleMarkerSymbol>;

export type CartographicMarkerSymbol = Tagged<CharacterMarkerSymbol> | Tagged<PictureMarkerSymbol>;

export interface SimpleFillSymbol {
  $type?: 'SimpleFillSymbol';
  Color?: Color;
  Outline?: LineSymbol;
  Style: geoSimpleFillStyle;
}

export interface SimpleLineSymbol {
  $type?: 'SimpleLineSymbol';
  Color?: Color;
  Width: number;
  Style: geoSimpleLineStyle;
}

export interface SimpleMarkerSymbol {
  $type?: 'SimpleMarkerSymbol';
  Angle: number;
  Color?: Color;
  Size: number;
  XOffset: number;
  YOffset: number;
  Outline: boolean;
  OutlineSize: number;
  OutlineColor: Color;
  Style: geoSimpleMarkerStyle;
}

export interface SimpleTextSymbol {
  $type?: 'SimpleTextSymbol';
  Color?: Color;
  BackgroundColor?: Color;
  OutlineColor?: Color;
  VerticalAlignment?: geoSimpleTextVerticalAlignment;
  HorizontalAlignment?: geoSimpleTextHorizontalAlignment;
  RightToLeft?: boolean;
  Angle?: number;
  XOffset?: number;
  YOffset?: number;
  Size?: number;
  FontFamilyName?: string;
  FontStyle?: geoFontStyle;
  FontWeight?: geoFontWeight;
  FontDecoration?: geoFontDecoration;
  OutlineWidth?: number;
  Kerning?: boolean;
  MaskStyle?: geoMaskStyle;
  MaskSize?: number;
  MaskSymbol?: Symbol;
}

export interface TextSymbol {
  $type?: 'TextSymbol';
  Color?: Color;
  BreakCharIndex: number;
  VerticalAlignment: geoTextVerticalAlignment;
  HorizontalAlignment: geoTextHorizontalAlignment;
  Clip: boolean;
  RightToLeft: boolean;
  Angle: number;
  XOffset: number;
  YOffset: number;
  ShadowColor?: Color;
  ShadowXOffset: number;
  ShadowYOffset: number;
  TextPosition: geoTextPosition;
  TextCase: geoTextCase;
  CharacterSpacing: number;
  CharacterWidth: number;
  WordSpacing: number;
  Kerning: boolean;
  Leading: number;
  TextDirection: geoTextDirection;
  FlipAngle: number;
  TypeSetting: boolean;
  TextPathClass?: string;
  FillSymbol?: Symbol;
  Text: string;
  Size: number;
  MaskStyle: geoMaskStyle;
  MaskSize: number;
  MaskSymbol?: Symbol;
  FontName?: string;
  FontItalic?: boolean;
  FontUnderline?: boolean;
  FontStrikethrough?: boolean;
  FontWeight?: number;
  FontCharset?: number;
  FontSizeHi?: number;
  FontSizeLo?: number;
  TextParserClass?: string;
}

export interface CharacterMarkerSymbol {
  $type?: 'CharacterMarkerSymbol';
  Angle: number;
  Color?: Color;
  Size: number;
  XOffset: number;
  YOffset: number;
  XScale: number;
  YScale: number;
  CharacterIndex: number;
  FontName?: string;
  FontItalic?: boolean;
  FontUnderline?: boolean;
  FontStrikethrough?: boolean;
  FontWeight?: number;
  FontCharset?: number;
  FontSizeHi?: number;
  FontSizeLo?: number;
}

export interface PictureMarkerSymbol {
  $type?: 'PictureMarkerSymbol';
  Angle: number;
  Color?: Color;
  Size: number;
  XOffset: number;
  YOffset: number;
  XScale: number;
  YScale: number;
  BgColor?: Color;
  BitmapTransColor?: Color;
  Picture?: Uint8Array;
  PictureUri?: string;
  Width?: number;
  FgColor?: Color;
  Swap1BitColor?: boolean;
}

export interface PictureFillSymbol {
  $type?: 'PictureFillSymbol';
  Color?: Color;
  Outline?: LineSymbol;
  Picture?: Uint8Array;
  PictureUri?: string;
  Width?: number;
  Height?: number;
  BgColor?: Color;
  FgColor?: Color;
  BitmapTransColor?: Color;
  XSeparation?: number;
  YSeparation?: number;
  Swap1BitColor?: boolean;
  Angle?: number;
  XOffset?: number;
  YOffset?: number;
  XScale?: number;
  YScale?: number;
}

export interface XMLBinarySymbol {
  $type?: 'XMLBinarySymbol';
  Data: XMLPersistedObject;
}

export interface XMLBinaryFillSymbol {
  $type?: 'XMLBinaryFillSymbol';
  Color?: Color;
  Outline?: LineSymbol;
  Data: XMLPersistedObject;
}

export interface XMLPersistedObject {
  Bytes: Uint8Array;
}

export type ColorRamp =
  | Tagged<AlgorithmicColorRamp>
  | Tagged<RandomColorRamp>
  | Tagged<PresetColorRamp>
  | Tagged<MultiPartColorRamp>;

export interface AlgorithmicColorRamp {
  $type?: 'AlgorithmicColorRamp';
  Name?: string;
  Algorithm?: string;
  FromColor?: HsvColor;
  ToColor?: HsvColor;
}

export interface RandomColorRamp {
  $type?: 'RandomColorRamp';
  Name?: string;
  NumColors?: number;
  UseSeed?: boolean;
  Seed?: number;
  MinValue?: number;
  MaxValue?: number;
  MinSaturation?: number;
  MaxSaturation?: number;
  StartHue?: number;
  EndHue?: number;
}

export interface PresetColorRamp {
  $type?: 'PresetColorRamp';
  Name?: string;
  NumColors?: number;
  PresetSize?: number;
  Colors?: Color[];
}

export interface MultiPartColorRamp {
  $type?: 'MultiPartColorRamp';
  Name?: string;
  NumColorRamps?: number;
  ColorRamps?: ColorRamp[];
}

export type FeatureRenderer =
  | Tagged<SimpleRenderer>
  | Tagged<UniqueValueRenderer>
  | Tagged<ClassBreaksRenderer>;

export interface SimpleRenderer {
  $type?: 'SimpleRenderer';
  Symbol: Symbol;
  Label?: string;
  Description?: string;
  RotationField?: string;
  RotationType?: geoRotationType;
  TransparencyField?: string;
}

export interface UniqueValueRenderer {
  $type?: 'UniqueValueRenderer';
  Field1: string;
  Field2?: string;
  Field3?: string;
  FieldDelimiter?: string;
  DefaultSymbol?: Symbol;
  DefaultLabel?: string;
  UniqueValueInfos?: UniqueValueInfo[];
  RotationField?: string;
  RotationType?: geoRotationType;
  TransparencyField?: string;
}

export interface ClassBreaksRenderer {
  $type?: 'ClassBreaksRenderer';
  Field: string;
  MinimumValue: number;
  ClassBreakInfos: ClassBreakInfo[];
  BackgroundSymbol?: FillSymbol;
  NormalizationField?: string;
  NormalizationType?: geoNormalizationType;
  NormalizationTotal?: number;
  RotationField?: string;
  RotationType?: geoRotationType;
}

export interface UniqueValueInfo {
  Value: string;
  Label?: string;
  Description?: string;
  Symbol?: Symbol;
}

export interface ClassBreakInfo {
  ClassMaximumValue: number;
  Label?: string;
  Description?: string;
  Symbol: Symbol;
  ClassMinimumValue: number;
}

export type DataClassificationDef = Tagged<UniqueValuesDef> | Tagged<ClassBreaksDef>;

export interface UniqueValuesDef {
  $type?: 'UniqueValuesDef';
  BaseSymbol?: Symbol;
  Fields?: string[];
  FieldDelimiter?: string;
  ColorRamp?: ColorRamp;
}

export interface ClassBreaksDef {
  $type?: 'ClassBreaksDef';
  ClassificationField: string;
  ClassificationMethod: geoClassifyMethod;
  BaseSymbol?: Symbol;
  ColorRamp?: ColorRamp;
  BreakCount?: number;
  NormalizationField?: string;
  StandardDeviationInterval?: number;
  NormalizationType?: geoNormalizationType;
}

export interface LabelingDescription {
  LabelClassDescriptions: LabelClassDescription[];
}

export type LabelPlacementDescription =
  | Tagged<PointLabelPlacementDescription>
  | Tagged<LineLabelPlacementDescription>
  | Tagged<PolygonLabelPlacementDescription>;

export interface PointLabelPlacementDescription {
  $type?: 'PointLabelPlacementDescription';
  Type: geoServerPointLabelPlacementType;
}

export interface LineLabelPlacementDescription {
  $type?: 'LineLabelPlacementDescription';
  Type: geoServerLineLabelPlacementType;
}

export interface PolygonLabelPlacementDescription {
  $type?: 'PolygonLabelPlacementDescription';
  Type: geoServerPolygonLabelPlacementType;
}

export interface LabelClassDescription {
  LabelPlacementDescription?: LabelPlacementDescription;
  LabelExpression?: string;
  Symbol?: SimpleTextSymbol;
  UseCodedValue?: boolean;
  MaximumScale?: number;
  MinimumScale?: number;
  LabelExpressionType?: geoLabelExpressionType;
  WhereClause?: string;
}

export type LayerDrawingDescription =
  | Tagged<FeatureLayerDrawingDescription>
  | Tagged<RasterLayerDrawingDescription>;

export interface FeatureLayerDrawingDescription {
  $type?: 'FeatureLayerDrawingDescription';
  FeatureRenderer?: FeatureRenderer;
  ScaleSymbols?: boolean;
  Transparency?: number;
  Brightness?: number;
  Contrast?: number;
  LabelingDescription?: LabelingDescription;
  SourceLayerID?: number;
}

export interface RasterLayerDrawingDescription {
  $type?: 'RasterLayerDrawingDescription';
  RasterRenderer?: RasterRenderer;
  Transparency?: number;
  Brightness?: number;
  Contrast?: number;
}

export interface ServerSymbolOutputOptions {
  PictureOutputType?: geoServerPictureOutputType;
  ConvertLabelExpressions?: boolean;
}

export type RasterRenderer =
  | Tagged<RasterUniqueValueRenderer>
  | Tagged<RasterRGBRenderer>
  | Tagged<RasterStretchRenderer>
  | Tagged<RasterClassifyRenderer>;

export interface RasterUniqueValueRenderer {
  $type?: 'RasterUniqueValueRenderer';
  Indexed?: boolean;
  Brightness?: number;
  Contrast?: number;
  ResamplingType?: string;
  NoDataColor?: Color;
  NoDataValue?: number[];
  AlphaBandIndex?: number;
  UseAlphaBand?: boolean;
  ValueField?: string;
  ClassField?: string;
  ColorSchema?: string;
  UseDefaultSymbol?: boolean;
  DefaultSymbol?: Symbol;
  DefaultLabel?: string;
  LegendGroupsCount?: number;
  LegendGroups?: LegendGroup[];
  ClassValuesCount?: number;
  ClassesInLegend?: number[];
  ClassesInLegendSize?: number[];
  UniqueValueVariants?: (AnyValue | null)[];
  Global?: boolean;
  UniqueValues?: RasterUniqueValues;
  ColorRamp?: ColorRamp;
}

export interface RasterRGBRenderer {
  $type?: 'RasterRGBRenderer';
  Indexed?: boolean;
  Brightness?: number;
  Contrast?: number;
  ResamplingType?: string;
  NoDataColor?: Color;
  NoDataValue?: number[];
  AlphaBandIndex?: number;
  UseAlphaBand?: boolean;
  LayerIndex1?: number;
  LayerIndex2?: number;
  LayerIndex3?: number;
  UseRGBBand?: number;
  StretchType?: string;
  StandardDeviations?: number;
  IsInvert?: boolean;
  DisplayBkValue?: boolean;
  BlackValue?: number[];
  IsLegendExpand?: boolean;
  BkColor?: Color;
}

export interface RasterStretchRenderer {
  $type?: 'RasterStretchRenderer';
  Indexed?: boolean;
  Brightness?: number;
  Contrast?: number;
  ResamplingType?: string;
  NoDataColor?: Color;
  NoDataValue?: number[];
  AlphaBandIndex?: number;
  UseAlphaBand?: boolean;
  ColorSchema?: string;
  LayerIndex1?: number;
  StretchType?: string;
  StandardDeviations?: number;
  IsInvert?: boolean;
  BlackValue?: number;
  ColorRamp?: ColorRamp;
  BkColor?: Color;
  LegendGroup?: LegendGroup;
  DisplayBkValue?: boolean;
  InitCustomMinMax?: boolean;
  UseCustomMinMax?: boolean;
  CustomMin?: number;
  CustomMax?: number;
}

export interface RasterClassifyRenderer {
  $type?: 'RasterClassifyRenderer';
  Indexed?: boolean;
  Brightness?: number;
  Contrast?: number;
  ResamplingType?: string;
  NoDataColor?: Color;
  NoDataValue?: number[];
  AlphaBandIndex?: number;
  UseAlphaBand?: boolean;
  ClassField?: string;
  NormField?: string;
  ClassificationComponent?: boolean;
  Guid?: string;
  ColorSchema?: string;
  LegendGroupsCount?: number;
  LegendGroups?: LegendGroup[];
  BreakSize?: number;
  ArrayOfBreak?: number[];
  Ascending?: boolean;
  NumberFormat?: NumericFormat;
  ShowClassGaps?: boolean;
  DeviationInterval?: number;
  ExlusionValues?: AnyValue;
  ExclusionRanges?: AnyValue;
  ExclusionShowClass?: boolean;
  ExclusionLegendClass?: LegendClass;
  UniqueValues?: RasterUniqueValues;
  UseHillShader?: boolean;
  ZScale?: number;
}

export interface RasterUniqueValues {
  UniqueValuesSize?: number;
  Values?: (AnyValue | null)[];
  Counts?: number[];
}

export interface QueryFilter {
  $type?: 'QueryFilter';
  SubFields?: string;
  WhereClause: string;
  SpatialReferenceFieldName?: string;
  Resolution: number;
  OutputSpatialReference?: SpatialReference;
  FIDSet?: FIDSet;
  PostfixClause?: string;
  FilterDefs?: FilterDef[];
  PrefixClause?: string;
}

export type AnyQueryFilter =
  | QueryFilter
  | Tagged<SpatialFilter>
  | Tagged<TimeQueryFilter>
  | Tagged<ImageQueryFilter>;

export interface SpatialFilter {
  $type?: 'SpatialFilter';
  SubFields?: string;
  WhereClause: string;
  SpatialReferenceFieldName?: string;
  Resolution: number;
  OutputSpatialReference?: SpatialReference;
  FIDSet?: FIDSet;
  PostfixClause?: string;
  FilterDefs?: FilterDef[];
  PrefixClause?: string;
  SearchOrder: geoSearchOrder;
  SpatialRel: geoSpatialRelEnum;
  SpatialRelDescription: string;
  FilterGeometry: AnyGeometry;
  GeometryFieldName: string;
  FilterOwnsGeometry: boolean;
}

export type AnySpatialFilter = SpatialFilter | Tagged<TimeQueryFilter> | Tagged<ImageQueryFilter>;

export interface TimeQueryFilter {
  $type?: 'TimeQueryFilter';
  SubFields?: string;
  WhereClause: string;
  SpatialReferenceFieldName?: string;
  Resolution: number;
  OutputSpatialReference?: SpatialReference;
  FIDSet?: FIDSet;
  PostfixClause?: string;
  FilterDefs?: FilterDef[];
  PrefixClause?: string;
  SearchOrder: geoSearchOrder;
  SpatialRel: geoSpatialRelEnum;
  SpatialRelDescription: string;
  FilterGeometry: AnyGeometry;
  GeometryFieldName: string;
  FilterOwnsGeometry: boolean;
  TimeValue: AnyTimeValue;
  OutputTimeReference: TimeReference;
  TimeRelation: geoTimeRelation;
}

export type AnyTimeQueryFilter = TimeQueryFilter | Tagged<ImageQueryFilter>;

export interface ImageQueryFilter {
  $type?: 'ImageQueryFilter';
  SubFields?: string;
  WhereClause: string;
  SpatialReferenceFieldName?: string;
  Resolution: number;
  OutputSpatialReference?: SpatialReference;
  FIDSet?: FIDSet;
  PostfixClause?: string;
  FilterDefs?: FilterDef[];
  PrefixClause?: string;
  SearchOrder: geoSearchOrder;
  SpatialRel: geoSpatialRelEnum;
  SpatialRelDescription: string;
  FilterGeometry: AnyGeometry;
  GeometryFieldName: string;
  FilterOwnsGeometry: boolean;
  TimeValue: AnyTimeValue;
  OutputTimeReference: TimeReference;
  TimeRelation: geoTimeRelation;
  PixelSize: Point;
}

export type FilterDef = Tagged<XMLFilterDef>;

export interface XMLFilterDef {
  $type?: 'XMLFilterDef';
  FieldName: string;
  Expression: string;
}

export interface FIDSet {
  FIDArray: number[];
}

export interface RecordSet {
  Fields: Fields;
  Records: Record[];
}

export interface Fields {
  FieldArray: Field[];
}

export interface Field {
  Name: string;
  Type: geoFieldType;
  IsNullable: boolean;
  Length: number;
  Precision: number;
  Scale: number;
  Required?: boolean;
  Editable?: boolean;
  DomainFixed?: boolean;
  GeometryDef?: GeometryDef;
  AliasName?: string;
  ModelName?: string;
  DefaultValue?: AnyValue;
  Domain?: Domain;
  RasterDef?: RasterDef;
}

export interface Record {
  Values: (AnyValue | null)[];
}

export interface GeometryDef {
  AvgNumPoints: number;
  GeometryType: geoGeometryType;
  HasM: boolean;
  HasZ: boolean;
  SpatialReference: SpatialReference;
  GridSize0?: number;
  GridSize1?: number;
  GridSize2?: number;
}

export interface RasterDef {
  Description?: string;
  IsByRef?: boolean;
  SpatialReference?: SpatialReference;
  IsByFunction?: boolean;
  IsInline?: boolean;
}

export type Domain = Tagged<RangeDomain> | Tagged<CodedValueDomain> | Tagged<BitMaskCodedValueDomain>;

export interface RangeDomain {
  $type?: 'RangeDomain';
  DomainName: string;
  FieldType: geoFieldType;
  MergePolicy: geoMergePolicyType;
  SplitPolicy: geoSplitPolicyType;
  Description?: string;
  Owner?: string;
  MaxValue: AnyValue;
  MinValue: AnyValue;
}

export interface CodedValueDomain {
  $type?: 'CodedValueDomain';
  DomainName: string;
  FieldType: geoFieldType;
  MergePolicy: geoMergePolicyType;
  SplitPolicy: geoSplitPolicyType;
  Description?: string;
  Owner?: string;
  CodedValues: CodedValue[];
}

export type AnyCodedValueDomain = CodedValueDomain | Tagged<BitMaskCodedValueDomain>;

export interface BitMaskCodedValueDomain {
  $type?: 'BitMaskCodedValueDomain';
  DomainName: string;
  FieldType: geoFieldType;
  MergePolicy: geoMergePolicyType;
  SplitPolicy: geoSplitPolicyType;
  Description?: string;
  Owner?: string;
  CodedValues: CodedValue[];
}

export interface CodedValue {
  Name: string;
  Code: AnyValue;
}

export interface QueryResultOptions {
  Format: geoQueryResultFormat;
  FormatProperties?: PropertySet;
  GeoTransformation?: GeoTransformation;
}

export interface QueryResult {
  MimeData?: Uint8Array;
  URL: string;
  Object: AnyValue;
}

export interface GeometryResultOptions {
  DensifyGeometries?: boolean;
  MaximumSegmentLength?: number;
  MaximumDeviation?: number;
  GeneralizeGeometries?: boolean;
  MaximumAllowableOffset?: number;
}

export interface StatisticDescription {
  StatisticFieldName: string;
  StatisticType: geoDataStatType;
  ResultFieldName?: string;
}

export interface StatisticsRequest {
  StatisticDescriptions?: StatisticDescription[];
  OrderByFields?: string;
  GroupByFields?: string;
}

export interface RelateInfo {
  Name: string;
  RelationshipID: number;
  RelatedTableID: number;
  Role?: geoRelRole;
  Cardinality?: geoRelCardinality;
  KeyField?: string;
  IsComposite?: boolean;
  RelationshipTableId?: number;
  KeyFieldInRelationshipTable?: string;
}

export interface RelateDescription {
  RelationshipID: number;
  RelatedTableDefinitionExpression?: string;
  RelatedTableFields?: string;
  OutputSpatialReference?: SpatialReference;
  GeoTransformation?: GeoTransformation;
  IncludeGeometry?: boolean;
  GeometryResultOptions?: GeometryResultOptions;
  ResultFormat: geoRelateResultFormat;
  OutputTimeReference?: TimeReference;
}

export interface RelatedRecordSet {
  RelatedRecordFields: Fields;
  RelatedRecordGroups: RelatedRecordGroup[];
}

export interface RelatedRecordGroup {
  SourceRowID: number;
  Records: Record[];
}

export interface MapTableSubtypeInfo {
  TableID: number;
  SubtypeFieldName: string;
  SubtypeInfos: SubtypeInfo[];
}

export interface SubtypeInfo {
  SubtypeCode: number;
  SubtypeName: string;
  FieldDomainInfos: FieldDomainInfo[];
}

export interface FieldDomainInfo {
  FieldName: string;
  Domain?: Domain;
  IsInherited?: boolean;
}

export interface AttachmentInfo {
  AttachmentID: number;
  ParentID: number;
  Name: string;
  ContentType: string;
  Size: number;
}

export interface AttachmentData {
  Data: Uint8Array;
  AttachmentInfo: AttachmentInfo;
  URL: string;
  TransportType: geoTransportType;
}

export interface PropertySet {
  PropertyArray: PropertySetProperty[];
}

export interface PropertySetProperty {
  Key: string;
  Value?: AnyValue;
}

export interface TimeReference {
  TimeZoneNameID: string;
  RespectsDaylightSavingTime?: boolean;
  RespectsDynamicAdjustmentRules?: boolean;
}

export interface TimeValue {
  $type?: 'TimeValue';
  TimeReference?: TimeReference;
}

export type AnyTimeValue = TimeValue | Tagged<TimeInstant> | Tagged<TimeExtent>;

export interface TimeInstant {
  $type?: 'TimeInstant';
  TimeReference?: TimeReference;
  Time: Date;
}

export interface TimeExtent {
  $type?: 'TimeExtent';
  TimeReference?: TimeReference;
  StartTime?: Date;
  EndTime?: Date;
  Empty?: boolean;
}

export interface TileCacheInfo {
  SpatialReference?: SpatialReference;
  TileOrigin?: Point;
  TileCols: number;
  TileRows: number;
  DPI: number;
  LODInfos?: LODInfo[];
  PreciseDPI?: number;
}

export interface LODInfo {
  LevelID: number;
  Scale: number;
  Resolution: number;
}

export interface TileImageInfo {
  CacheTileFormat: string;
  CompressionQuality: number;
  Antialiasing: string;
  BandCount?: number;
  LERCError?: number;
}

export interface CacheStorageInfo {
  StorageFormat: geoMapCacheStorageFormat;
  PacketSize: number;
}

export interface CacheControlInfo {
  ClientCachingAllowed: boolean;
}

export interface LayerCacheInfo {
  LayerID: number;
  HasCache: boolean;
}

export interface CacheDescriptionInfo {
  TileCacheInfo: TileCacheInfo;
  TileImageInfo: TileImageInfo;
  LayerCacheInfos: LayerCacheInfo[];
  CacheControlInfo: CacheControlInfo;
  ServiceType: geoCachedMapServiceType;
}

export type AnyComplexValue =
  | (Geometry & { $type: 'Geometry' })
  | (Line & { $type: 'Line' })
  | (EllipticArc & { $type: 'EllipticArc' })
  | (CircularArc & { $type: 'CircularArc' })
  | (BezierCurve & { $type: 'BezierCurve' })
  | (EnvelopeN & { $type: 'EnvelopeN' })
  | (EnvelopeB & { $type: 'EnvelopeB' })
  | (PointN & { $type: 'PointN' })
  | (PointB & { $type: 'PointB' })
  | (MultipointB & { $type: 'MultipointB' })
  | (MultipointN & { $type: 'MultipointN' })
  | (Path & { $type: 'Path' })
  | (Ring & { $type: 'Ring' })
  | (PolygonN & { $type: 'PolygonN' })
  | (PolygonB & { $type: 'PolygonB' })
  | (PolylineN & { $type: 'PolylineN' })
  | (PolylineB & { $type: 'PolylineB' })
  | (MultiPatchB & { $type: 'MultiPatchB' })
  | (MultiPatchN & { $type: 'MultiPatchN' })
  | (Triangles & { $type: 'Triangles' })
  | (TriangleFan & { $type: 'TriangleFan' })
  | (TriangleStrip & { $type: 'TriangleStrip' })
  | (ProjectedCoordinateSystem & { $type: 'ProjectedCoordinateSystem' })
  | (GeographicCoordinateSystem & { $type: 'GeographicCoordinateSystem' })
  | (UnknownCoordinateSystem & { $type: 'UnknownCoordinateSystem' })
  | (GeoTransformation & { $type: 'GeoTransformation' })
  | (MapServerInfo & { $type: 'MapServerInfo' })
  | (MapLayerInfo & { $type: 'MapLayerInfo' })
  | (StandaloneTableInfo & { $type: 'StandaloneTableInfo' })
  | (LayerDescription & { $type: 'LayerDescription' })
  | (StandaloneTableDescription & { $type: 'StandaloneTableDescription' })
  | (LayerResultOptions & { $type: 'LayerResultOptions' })
  | (MapDescription & { $type: 'MapDescription' })
  | (MapExtent & { $type: 'MapExtent' })
  | (CenterAndScale & { $type: 'CenterAndScale' })
  | (CenterAndSize & { $type: 'CenterAndSize' })
  | (FeatureExtent & { $type: 'FeatureExtent' })
  | (MapServerBookmark & { $type: 'MapServerBookmark' })
  | (ImageDescription & { $type: 'ImageDescription' })
  | (ImageDisplay & { $type: 'ImageDisplay' })
  | (ImageType & { $type: 'ImageType' })
  | (ImageResult & { $type: 'ImageResult' })
  | (MapImage & { $type: 'MapImage' })
  | (MapServerFindResult & { $type: 'MapServerFindResult' })
  | (MapServerIdentifyResult & { $type: 'MapServerIdentifyResult' })
  | (MapServerHyperlink & { $type: 'MapServerHyperlink' })
  | (MapServerRelationship & { $type: 'MapServerRelationship' })
  | (MapServerRow & { $type: 'MapServerRow' })
  | (MapServerLegendInfo & { $type: 'MapServerLegendInfo' })
  | (MapServerLegendGroup & { $type: 'MapServerLegendGroup' })
  | (MapServerLegendClass & { $type: 'MapServerLegendClass' })
  | (MapServerLegendPatch & { $type: 'MapServerLegendPatch' })
  | (Patch & { $type: 'Patch' })
  | (LinePatch & { $type: 'LinePatch' })
  | (AreaPatch & { $type: 'AreaPatch' })
  | (LegendClass & { $type: 'LegendClass' })
  | (LegendClassFormat & { $type: 'LegendClassFormat' })
  | (LegendGroup & { $type: 'LegendGroup' })
  | (SQLSyntaxInfo & { $type: 'SQLSyntaxInfo' })
  | (LineElement & { $type: 'LineElement' })
  | (CircleElement & { $type: 'CircleElement' })
  | (EllipseElement & { $type: 'EllipseElement' })
  | (RectangleElement & { $type: 'RectangleElement' })
  | (GroupElement & { $type: 'GroupElement' })
  | (MarkerElement & { $type: 'MarkerElement' })
  | (ParagraphTextElement & { $type: 'ParagraphTextElement' })
  | (PolygonElement & { $type: 'PolygonElement' })
  | (TextElement & { $type: 'TextElement' })
  | (SymbolBorder & { $type: 'SymbolBorder' })
  | (SymbolBackground & { $type: 'SymbolBackground' })
  | (SymbolShadow & { $type: 'SymbolShadow' })
  | (AlternatingScaleBar & { $type: 'AlternatingScaleBar' })
  | (SingleDivisionScaleBar & { $type: 'SingleDivisionScaleBar' })
  | (NumericFormat & { $type: 'NumericFormat' })
  | (DataSourceDescription & { $type: 'DataSourceDescription' })
  | (TableDataSourceDescription & { $type: 'TableDataSourceDescription' })
  | (QueryTableDataSourceDescription & { $type: 'QueryTableDataSourceDescription' })
  | (RasterDataSourceDescription & { $type: 'RasterDataSourceDescription' })
  | (MapTableSourceDescription & { $type: 'MapTableSourceDescription' })
  | (JoinTableSourceDescription & { $type: 'JoinTableSourceDescription' })
  | (GrayColor & { $type: 'GrayColor' })
  | (RgbColor & { $type: 'RgbColor' })
  | (CmykColor & { $type: 'CmykColor' })
  | (HlsColor & { $type: 'HlsColor' })
  | (HsvColor & { $type: 'HsvColor' })
  | (SimpleFillSymbol & { $type: 'SimpleFillSymbol' })
  | (SimpleLineSymbol & { $type: 'SimpleLineSymbol' })
  | (SimpleMarkerSymbol & { $type: 'SimpleMarkerSymbol' })
  | (SimpleTextSymbol & { $type: 'SimpleTextSymbol' })
  | (TextSymbol & { $type: 'TextSymbol' })
  | (CharacterMarkerSymbol & { $type: 'CharacterMarkerSymbol' })
  | (PictureMarkerSymbol & { $type: 'PictureMarkerSymbol' })
  | (PictureFillSymbol & { $type: 'PictureFillSymbol' })
  | (XMLBinarySymbol & { $type: 'XMLBinarySymbol' })
  | (XMLBinaryFillSymbol & { $type: 'XMLBinaryFillSymbol' })
  | (XMLPersistedObject & { $type: 'XMLPersistedObject' })
  | (AlgorithmicColorRamp & { $type: 'AlgorithmicColorRamp' })
  | (RandomColorRamp & { $type: 'RandomColorRamp' })
  | (PresetColorRamp & { $type: 'PresetColorRamp' })
  | (MultiPartColorRamp & { $type: 'MultiPartColorRamp' })
  | (SimpleRenderer & { $type: 'SimpleRenderer' })
  | (UniqueValueRenderer & { $type: 'UniqueValueRenderer' })
  | (ClassBreaksRenderer & { $type: 'ClassBreaksRenderer' })
  | (UniqueValueInfo & { $type: 'UniqueValueInfo' })
  | (ClassBreakInfo & { $type: 'ClassBreakInfo' })
  | (UniqueValuesDef & { $type: 'UniqueValuesDef' })
  | (ClassBreaksDef & { $type: 'ClassBreaksDef' })
  | (LabelingDescription & { $type: 'LabelingDescription' })
  | (PointLabelPlacementDescription & { $type: 'PointLabelPlacementDescription' })
  | (LineLabelPlacementDescription & { $type: 'LineLabelPlacementDescription' })
  | (PolygonLabelPlacementDescription & { $type: 'PolygonLabelPlacementDescription' })
  | (LabelClassDescription & { $type: 'LabelClassDescription' })
  | (FeatureLayerDrawingDescription & { $type: 'FeatureLayerDrawingDescription' })
  | (RasterLayerDrawingDescription & { $type: 'RasterLayerDrawingDescription' })
  | (ServerSymbolOutputOptions & { $type: 'ServerSymbolOutputOptions' })
  | (RasterUniqueValueRenderer & { $type: 'RasterUniqueValueRenderer' })
  | (RasterRGBRenderer & { $type: 'RasterRGBRenderer' })
  | (RasterStretchRenderer & { $type: 'RasterStretchRenderer' })
  | (RasterClassifyRenderer & { $type: 'RasterClassifyRenderer' })
  | (RasterUniqueValues & { $type: 'RasterUniqueValues' })
  | (QueryFilter & { $type: 'QueryFilter' })
  | (SpatialFilter & { $type: 'SpatialFilter' })
  | (TimeQueryFilter & { $type: 'TimeQueryFilter' })
  | (ImageQueryFilter & { $type: 'ImageQueryFilter' })
  | (XMLFilterDef & { $type: 'XMLFilterDef' })
  | (FIDSet & { $type: 'FIDSet' })
  | (RecordSet & { $type: 'RecordSet' })
  | (Fields & { $type: 'Fields' })
  | (Field & { $type: 'Field' })
  | (Record & { $type: 'Record' })
  | (GeometryDef & { $type: 'GeometryDef' })
  | (RasterDef & { $type: 'RasterDef' })
  | (RangeDomain & { $type: 'RangeDomain' })
  | (CodedValueDomain & { $type: 'CodedValueDomain' })
  | (BitMaskCodedValueDomain & { $type: 'BitMaskCodedValueDomain' })
  | (CodedValue & { $type: 'CodedValue' })
  | (QueryResultOptions & { $type: 'QueryResultOptions' })
  | (QueryResult & { $type: 'QueryResult' })
  | (GeometryResultOptions & { $type: 'GeometryResultOptions' })
  | (StatisticDescription & { $type: 'StatisticDescription' })
  | (StatisticsRequest & { $type: 'StatisticsRequest' })
  | (RelateInfo & { $type: 'RelateInfo' })
  | (RelateDescription & { $type: 'RelateDescription' })
  | (RelatedRecordSet & { $type: 'RelatedRecordSet' })
  | (RelatedRecordGroup & { $type: 'RelatedRecordGroup' })
  | (MapTableSubtypeInfo & { $type: 'MapTableSubtypeInfo' })
  | (SubtypeInfo & { $type: 'SubtypeInfo' })
  | (FieldDomainInfo & { $type: 'FieldDomainInfo' })
  | (AttachmentInfo & { $type: 'AttachmentInfo' })
  | (AttachmentData & { $type: 'AttachmentData' })
  | (PropertySet & { $type: 'PropertySet' })
  | (PropertySetProperty & { $type: 'PropertySetProperty' })
  | (TimeReference & { $type: 'TimeReference' })
  | (TimeValue & { $type: 'TimeValue' })
  | (TimeInstant & { $type: 'TimeInstant' })
  | (TimeExtent & { $type: 'TimeExtent' })
  | (TileCacheInfo & { $type: 'TileCacheInfo' })
  | (LODInfo & { $type: 'LODInfo' })
  | (TileImageInfo & { $type: 'TileImageInfo' })
  | (CacheStorageInfo & { $type: 'CacheStorageInfo' })
  | (CacheControlInfo & { $type: 'CacheControlInfo' })
  | (LayerCacheInfo & { $type: 'LayerCacheInfo' })
  | (CacheDescriptionInfo & { $type: 'CacheDescriptionInfo' });

export type AnyValue = null | string | number | boolean | Date | Uint8Array | TypedValue | AnyComplexValue;

export type GetDocumentInfoRequest = { [field: string]: never };

export type GetMapCountRequest = { [field: string]: never };

export interface GetMapNameRequest {
  Index: number;
}

export type GetDefaultMapNameRequest = { [field: string]: never };

export interface GetServerInfoRequest {
  MapName: string;
}

export interface ExportMapImageRequest {
  MapDescription: MapDescription;
  ImageDescription: ImageDescription;
}

export interface ExportScaleBarRequest {
  ScaleBar?: ScaleBar;
  MapDescription: MapDescription;
  MapDisplay: ImageDisplay;
  BackGroundColor?: Color;
  ImageDescription: ImageDescription;
}

export interface FindRequest {
  MapDescription: MapDescription;
  MapImageDisplay: ImageDisplay;
  SearchString: string;
  Contains: boolean;
  SearchFields: string;
  FindOption: geoFindOption;
  LayerIDs: number[];
}

export interface IdentifyRequest {
  MapDescription: MapDescription;
  MapImageDisplay: ImageDisplay;
  SearchShape: AnyGeometry;
  Tolerance: number;
  IdentifyOption: geoIdentifyOption;
  LayerIDs: number[];
}

export interface QueryFeatureCountRequest {
  MapName: string;
  LayerID: number;
  QueryFilter: AnyQueryFilter;
}

export interface QueryFeatureIDsRequest {
  MapName: string;
  LayerID: number;
  QueryFilter: AnyQueryFilter;
}

export interface QueryFeatureDataRequest {
  MapName: string;
  LayerID: number;
  QueryFilter: AnyQueryFilter;
}

export interface QueryFeatureCount2Request {
  MapName: string;
  LayerDescription: LayerDescription;
  QueryFilter: AnyQueryFilter;
}

export interface QueryFeatureIDs2Request {
  MapName: string;
  LayerDescription: LayerDescription;
  QueryFilter: AnyQueryFilter;
}

export interface QueryFeatureData2Request {
  MapName: string;
  LayerDescription: LayerDescription;
  QueryFilter: AnyQueryFilter;
  QueryResultOptions: QueryResultOptions;
}

export interface QueryHyperlinksRequest {
  MapDescription: MapDescription;
  MapImageDisplay: ImageDisplay;
  LayerIDs: number[];
}

export interface ComputeScaleRequest {
  MapDescription: MapDescription;
  MapImageDisplay: ImageDisplay;
}

export interface ComputeDistanceRequest {
  MapName: string;
  FromPoint: Point;
  ToPoint: Point;
  Units: geoUnits;
}

export interface ToMapPointsRequest {
  MapDescription: MapDescription;
  MapImageDisplay: ImageDisplay;
  ScreenXValues: number[];
  ScreenYValues: number[];
}

export interface FromMapPointsRequest {
  MapDescription: MapDescription;
  MapImageDisplay: ImageDisplay;
  MapPoints: Multipoint;
}

export interface FromMapPointsResponse {
  ScreenXValues: number[];
  ScreenYValues: number[];
}

export interface GetLegendInfoRequest {
  MapName: string;
  LayerIDs: number[];
  LegendPatch: MapServerLegendPatch;
  ImageType: ImageType;
}

export interface GetLegendInfo2Request {
  MapDescription: MapDescription;
  MapImageDisplay: ImageDisplay;
  LayerIDs: number[];
  LegendPatch: MapServerLegendPatch;
  ImageType: ImageType;
}

export interface GetSQLSyntaxInfoRequest {
  MapName: string;
  LayerID: number;
}

export type GetSupportedImageReturnTypesRequest = { [field: string]: never };

export interface IsFixedScaleMapRequest {
  MapName: string;
}

export interface HasSingleFusedMapCacheRequest {
  MapName: string;
}

export interface GetTileCacheInfoRequest {
  MapName: string;
}

export interface GetMapTileRequest {
  MapName: string;
  Level: number;
  Row: number;
  Column: number;
  Format?: string;
}

export interface HasLayerCacheRequest {
  MapName: string;
  LayerID: number;
}

export interface GetLayerTileRequest {
  MapName: string;
  LayerID: number;
  Level: number;
  Row: number;
  Column: number;
  Format?: string;
}

export interface GetVirtualCacheDirectoryRequest {
  MapName: string;
  LayerID: number;
}

export interface GetCacheNameRequest {
  MapName: string;
  LayerID: number;
}

export interface GetTileImageInfoRequest {
  MapName: string;
}

export interface GetCacheControlInfoRequest {
  MapName: string;
}

export type GetServiceConfigurationInfoRequest = { [field: string]: never };

export interface GetCacheDescriptionInfoRequest {
  MapName: string;
}

export interface GetCacheStorageInfoRequest {
  MapName: string;
}

export interface QueryRowCountRequest {
  MapName: string;
  MapTableDescription: MapTableDescription;
  QueryFilter: AnyQueryFilter;
}

export interface QueryRowIDsRequest {
  MapName: string;
  MapTableDescription: MapTableDescription;
  QueryFilter: AnyQueryFilter;
}

export interface QueryDataRequest {
  MapName: string;
  MapTableDescription: MapTableDescription;
  QueryFilter: AnyQueryFilter;
  QueryResultOptions: QueryResultOptions;
}

export interface QueryRelatedRecordsRequest {
  MapName: string;
  SourceTableID: number;
  SourceFIDSet: FIDSet;
  RelateDescription: RelateDescription;
}

export interface QueryRelatedRecords2Request {
  MapName: string;
  MapTableDescription: MapTableDescription;
  SourceFIDSet: FIDSet;
  RelateDescription: RelateDescription;
}

export interface QueryDataStatisticsRequest {
  MapName: string;
  MapTableDescription: MapTableDescription;
  StatisticsRequest: StatisticsRequest;
  QueryFilter: AnyQueryFilter;
}

export interface QueryRasterValueRequest {
  MapName: string;
  SourceTableID: number;
  RowIDs: number[];
  FieldName?: string;
  ImageType?: ImageType;
}

export interface QueryRasterValue2Request {
  MapName: string;
  MapTableDescription: MapTableDescription;
  RowIDs: number[];
  FieldName?: string;
  ImageType?: ImageType;
}

export interface QueryAttachmentInfosRequest {
  MapName: string;
  TableID: number;
  RowIDs: number[];
}

export interface QueryAttachmentInfos2Request {
  MapName: string;
  MapTableDescription: MapTableDescription;
  RowIDs: number[];
}

export interface QueryAttachmentDataRequest {
  MapName: string;
  TableID: number;
  AttachmentIDs: number[];
  TransportType: geoTransportType;
}

export interface QueryAttachmentData2Request {
  MapName: string;
  MapTableDescription: MapTableDescription;
  AttachmentIDs: number[];
  TransportType: geoTransportType;
}

export interface QueryHTMLPopupsRequest {
  MapName: string;
  TableID: number;
  RowIDs: number[];
}

export interface QueryHTMLPopups2Request {
  MapName: string;
  MapTableDescription: MapTableDescription;
  RowIDs: number[];
}

export interface GetDefaultLayerDrawingDescriptionsRequest {
  MapName: string;
  LayerIDs: number[];
  SymbolOutputOptions: ServerSymbolOutputOptions;
}

export interface GetMapTableSubtypeInfosRequest {
  MapName: string;
  TableIDs?: number[];
}

export interface GetMapTableSubtypeInfos2Request {
  MapName: string;
  LayerDescriptions?: LayerDescription[];
}

export interface GenerateDataClassesRequest {
  MapName: string;
  MapTableDescription: MapTableDescription;
  DataClassificationDef: DataClassificationDef;
}

export interface SoapOperationTypes {
  GetDocumentInfo: {
    request: GetDocumentInfoRequest;
    response: PropertySet;
  };
  GetMapCount: {
    request: GetMapCountRequest;
    response: number;
  };
  GetMapName: {
    request: GetMapNameRequest;
    response: string;
  };
  GetDefaultMapName: {
    request: GetDefaultMapNameRequest;
    response: string;
  };
  GetServerInfo: {
    request: GetServerInfoRequest;
    response: MapServerInfo;
  };
  ExportMapImage: {
    request: ExportMapImageRequest;
    response: MapImage;
  };
  ExportScaleBar: {
    request: ExportScaleBarRequest;
    response: ImageResult;
  };
  Find: {
    request: FindRequest;
    response: MapServerFindResult[];
  };
  Identify: {
    request: IdentifyRequest;
    response: MapServerIdentifyResult[];
  };
  QueryFeatureCount: {
    request: QueryFeatureCountRequest;
    response: number;
  };
  QueryFeatureIDs: {
    request: QueryFeatureIDsRequest;
    response: FIDSet;
  };
  QueryFeatureData: {
    request: QueryFeatureDataRequest;
    response: RecordSet;
  };
  QueryFeatureCount2: {
    request: QueryFeatureCount2Request;
    response: number;
  };
  QueryFeatureIDs2: {
    request: QueryFeatureIDs2Request;
    response: FIDSet;
  };
  QueryFeatureData2: {
    request: QueryFeatureData2Request;
    response: QueryResult;
  };
  QueryHyperlinks: {
    request: QueryHyperlinksRequest;
    response: MapServerHyperlink[];
  };
  ComputeScale: {
    request: ComputeScaleRequest;
    response: number;
  };
  ComputeDistance: {
    request: ComputeDistanceRequest;
    response: number;
  };
  ToMapPoints: {
    request: ToMapPointsRequest;
    response: Multipoint;
  };
  FromMapPoints: {
    request: FromMapPointsRequest;
    response: FromMapPointsResponse;
  };
  GetLegendInfo: {
    request: GetLegendInfoRequest;
    response: MapServerLegendInfo[];
  };
  GetLegendInfo2: {
    request: GetLegendInfo2Request;
    response: MapServerLegendInfo[];
  };
  GetSQLSyntaxInfo: {
    request: GetSQLSyntaxInfoRequest;
    response: SQLSyntaxInfo;
  };
  GetSupportedImageReturnTypes: {
    request: GetSupportedImageReturnTypesRequest;
    response: geoImageReturnType;
  };
  IsFixedScaleMap: {
    request: IsFixedScaleMapRequest;
    response: boolean;
  };
  HasSingleFusedMapCache: {
    request: HasSingleFusedMapCacheRequest;
    response: boolean;
  };
  GetTileCacheInfo: {
    request: GetTileCacheInfoRequest;
    response: TileCacheInfo;
  };
  GetMapTile: {
    request: GetMapTileRequest;
    response: Uint8Array;
  };
  HasLayerCache: {
    request: HasLayerCacheRequest;
    response: boolean;
  };
  GetLayerTile: {
    request: GetLayerTileRequest;
    response: Uint8Array;
  };
  GetVirtualCacheDirectory: {
    request: GetVirtualCacheDirectoryRequest;
    response: string;
  };
  GetCacheName: {
    request: GetCacheNameRequest;
    response: string;
  };
  GetTileImageInfo: {
    request: GetTileImageInfoRequest;
    response: TileImageInfo;
  };
  GetCacheControlInfo: {
    request: GetCacheControlInfoRequest;
    response: CacheControlInfo;
  };
  GetServiceConfigurationInfo: {
    request: GetServiceConfigurationInfoRequest;
    response: PropertySet;
  };
  GetCacheDescriptionInfo: {
    request: GetCacheDescriptionInfoRequest;
    response: CacheDescriptionInfo;
  };
  GetCacheStorageInfo: {
    request: GetCacheStorageInfoRequest;
    response: CacheStorageInfo;
  };
  QueryRowCount: {
    request: QueryRowCountRequest;
    response: number;
  };
  QueryRowIDs: {
    request: QueryRowIDsRequest;
    response: number[];
  };
  QueryData: {
    request: QueryDataRequest;
    response: QueryResult;
  };
  QueryRelatedRecords: {
    request: QueryRelatedRecordsRequest;
    response: QueryResult;
  };
  QueryRelatedRecords2: {
    request: QueryRelatedRecords2Request;
    response: QueryResult;
  };
  QueryDataStatistics: {
    request: QueryDataStatisticsRequest;
    response: RecordSet;
  };
  QueryRasterValue: {
    request: QueryRasterValueRequest;
    response: ImageResult[];
  };
  QueryRasterValue2: {
    request: QueryRasterValue2Request;
    response: ImageResult[];
  };
  QueryAttachmentInfos: {
    request: QueryAttachmentInfosRequest;
    response: AttachmentInfo[];
  };
  QueryAttachmentInfos2: {
    request: QueryAttachmentInfos2Request;
    response: AttachmentInfo[];
  };
  QueryAttachmentData: {
    request: QueryAttachmentDataRequest;
    response: AttachmentData[];
  };
  QueryAttachmentData2: {
    request: QueryAttachmentData2Request;
    response: AttachmentData[];
  };
  QueryHTMLPopups: {
    request: QueryHTMLPopupsRequest;
    response: string[];
  };
  QueryHTMLPopups2: {
    request: QueryHTMLPopups2Request;
    response: string[];
  };
  GetDefaultLayerDrawingDescriptions: {
    request: GetDefaultLayerDrawingDescriptionsRequest;
    response: LayerDrawingDescription[];
  };
  GetMapTableSubtypeInfos: {
    request: GetMapTableSubtypeInfosRequest;
    response: MapTableSubtypeInfo[];
  };
  GetMapTableSubtypeInfos2: {
    request: GetMapTableSubtypeInfos2Request;
    response: MapTableSubtypeInfo[];
  };
  GenerateDataClasses: {
    request: GenerateDataClassesRequest;
    response: FeatureRenderer;
  };
}
