/**
 * GetServerInfo's MapServerInfo for a hosted service: the one data frame, its extents and spatial
 * reference, a MapLayerInfo per feature layer and a StandaloneTableInfo per table (fields with the
 * Shape field, display and ID fields), and the DefaultMapDescription clients start every display
 * request from. Scale limits come from the tile cache when there is one.
 */
import type {
  Fields,
  LayerDescription,
  MapDescription,
  MapLayerInfo,
  MapServerInfo,
  StandaloneTableInfo,
} from '../schema/generated-types.js';
import { type HostedMap, MAP_NAME, type MapLayer } from './map-context.js';
import { defaultExtent } from './map-display.js';
import { envelopeN, toSoapSpatialReference } from './wire-geometry.js';
import { shapeField, soapField } from './wire-records.js';

const fieldsOf = (map: HostedMap, layer: MapLayer): Fields => {
  const fields = layer.catalog.fields.all().map(soapField);
  if (layer.geometryType) fields.splice(1, 0, shapeField(layer.geometryType, map.spatialReference));
  return { FieldArray: fields };
};

const aliasesOf = (fields: Fields): string[] => fields.FieldArray.map((f) => f.AliasName ?? f.Name);

function layerInfo(map: HostedMap, layer: MapLayer): MapLayerInfo {
  const def = layer.definition;
  const fields = fieldsOf(map, layer);
  return {
    LayerID: layer.id,
    Name: layer.name,
    Description: String(def.description ?? ''),
    LayerType: 'Feature Layer',
    SourceDescription: `Hosted feature table ${layer.row.tableName}`,
    HasLabels: false,
    CanSelect: true,
    CanScaleSymbols: false,
    MinScale: Number(def.minScale) || 0,
    MaxScale: Number(def.maxScale) || 0,
    ...(layer.extent ? { Extent: envelopeN(layer.extent, map.spatialReference) } : {}),
    HasHyperlinks: false,
    HasAttributes: true,
    CanIdentify: true,
    CanFind: true,
    IsFeatureLayer: true,
    Fields: fields,
    DisplayField: layer.displayField,
    IDField: layer.catalog.objectIdField,
    IsComposite: false,
    ParentLayerID: -1,
    FieldAliases: aliasesOf(fields),
    CopyrightText: String(def.copyrightText ?? map.copyrightText),
    RelateInfos: [],
    SupportsTime: false,
    HasAttachments: Boolean(def.hasAttachments),
    HTMLPopupType: 'geoServerHTMLPopupTypeAsHTMLText',
    HasLayerDrawingDescription: true,
    HasSubtype: false,
    CanModifyDrawingDescription: true,
    SupportsStatistics: true,
    SupportsAdvancedQueries: true,
    HasLiveData: true,
  };
}

function tableInfo(map: HostedMap, layer: MapLayer): StandaloneTableInfo {
  const def = layer.definition;
  return {
    ID: layer.id,
    Name: layer.name,
    Fields: fieldsOf(map, layer),
    RelateInfos: [],
    SupportsTime: false,
    HasAttachments: Boolean(def.hasAttachments),
    DisplayField: layer.displayField,
    Description: String(def.description ?? ''),
    IDField: layer.catalog.objectIdField,
    HasSubtype: false,
    SupportsStatistics: true,
    SupportsAdvancedQueries: true,
  };
}

export function defaultLayerDescription(layer: MapLayer): LayerDescription {
  return {
    LayerID: layer.id,
    Visible: layer.definition.defaultVisibility !== false,
    ShowLabels: false,
    ScaleSymbols: false,
    SetSelectionSymbol: false,
    SelectionBufferDistance: 0,
    ShowSelectionBuffer: false,
    DefinitionExpression: String(layer.definition.definitionExpression ?? ''),
    LayerResultOptions: {
      IncludeGeometry: true,
      ReturnFieldNamesInResults: false,
      FormatValuesInResults: true,
    },
  };
}

export function defaultMapDescription(map: HostedMap): MapDescription {
  return {
    Name: MAP_NAME,
    MapArea: { $type: 'MapExtent', Extent: envelopeN(defaultExtent(map), map.spatialReference) },
    LayerDescriptions: map.layers.filter((l) => !l.isTable).map(defaultLayerDescription),
    Rotation: 0,
    SpatialReference: toSoapSpatialReference(map.spatialReference),
    TransparentColor: { $type: 'RgbColor', Red: 254, Green: 254, Blue: 254 },
    SelectionColor: { $type: 'RgbColor', Red: 0, Green: 255, Blue: 255 },
  };
}

export function mapServerInfo(map: HostedMap): MapServerInfo {
  const geographic = map.units === 'esriDecimalDegrees';
  const scales = map.cache?.definition.lods.map((l) => l.scale) ?? [];
  return {
    Name: MAP_NAME,
    Description: map.description,
    ...(map.extent ? { FullExtent: envelopeN(map.extent, map.spatialReference) } : {}),
    Extent: envelopeN(defaultExtent(map), map.spatialReference),
    SpatialReference: toSoapSpatialReference(map.spatialReference),
    MapLayerInfos: map.layers.filter((l) => !l.isTable).map((l) => layerInfo(map, l)),
    BackgroundColor: { $type: 'RgbColor', Red: 255, Green: 255, Blue: 255 },
    Bookmarks: [],
    DefaultMapDescription: defaultMapDescription(map),
    Units: geographic ? 'geoDecimalDegrees' : 'geoMeters',
    SupportedImageReturnTypes: 'geoImageReturnURL',
    CopyrightText: map.copyrightText,
    StandaloneTableInfos: map.layers.filter((l) => l.isTable).map((l) => tableInfo(map, l)),
    StandaloneTableDescriptions: map.layers
      .filter((l) => l.isTable)
      .map((l) => ({ ID: l.id, DefinitionExpression: String(l.definition.definitionExpression ?? '') })),
    SupportsDynamicLayers: false,
    HasLiveData: true,
    MinScale: scales.length ? Math.max(...scales) : 0,
    MaxScale: scales.length ? Math.min(...scales) : 0,
  };
}
