/**
 * MapServer `identify` and `find`: the REST parameters become the SOAP Identify and Find requests, run
 * by the same handlers, and their results are written as ArcGIS REST JSON (attributes as formatted
 * values keyed by alias, or by field name with returnFieldName, geometries as Esri JSON).
 */
import type { EsriGeometry, SpatialReference } from '../../lib/geometry/types.js';
import { normalizeGeometryFilter } from '../../lib/query/normalize/geometry.js';
import { fail, present, readBoolean, readInteger } from '../../lib/query/normalize/parameter-values.js';
import { readTimeExtent } from '../../lib/query/normalize/time.js';
import type {
  HostedMap,
  MapLayer,
  MapServerLocals,
  MapServiceDeps,
} from '../../soap/handlers/map-context.js';
import { defaultExtent } from '../../soap/handlers/map-display.js';
import { createSearchHandlers } from '../../soap/handlers/search-handlers.js';
import {
  envelopeN,
  toEsriGeometry,
  toSoapGeometry,
  toSoapSpatialReference,
} from '../../soap/handlers/wire-geometry.js';
import type {
  AnyGeometry,
  geoIdentifyOption,
  LayerDescription,
  MapDescription,
  PropertySet,
} from '../../soap/schema/generated-types.js';
import type { SoapContext } from '../../soap/service-types.js';
import type { RequestParams } from '../params.js';
import {
  readEnvelope,
  readFindLayers,
  readIdentifyLayers,
  readImageSize,
  readLayerDefs,
  readSpatialReference,
} from './map-request-params.js';
import { restErrors } from './map-service-target.js';

const IDENTIFY_OPTIONS: Record<string, geoIdentifyOption> = {
  top: 'geoIdentifyTopmost',
  visible: 'geoIdentifyVisibleLayers',
  all: 'geoIdentifyAllLayers',
};

function layerDescriptions(map: HostedMap, defs: Map<number, string>): LayerDescription[] {
  return map.layers
    .filter((l) => !l.isTable)
    .map((l) => ({
      LayerID: l.id,
      Visible: l.definition.defaultVisibility !== false,
      ShowLabels: false,
      ScaleSymbols: false,
      SetSelectionSymbol: false,
      SelectionBufferDistance: 0,
      ShowSelectionBuffer: false,
      DefinitionExpression: defs.get(l.id) ?? '',
    }));
}

const mapDescription = (
  map: HostedMap,
  extent: [number, number, number, number],
  sr: SpatialReference,
  defs: Map<number, string>,
): MapDescription => ({
  Name: 'Layers',
  MapArea: { $type: 'MapExtent', Extent: envelopeN(extent) },
  LayerDescriptions: layerDescriptions(map, defs),
  Rotation: 0,
  SpatialReference: toSoapSpatialReference(sr),
});

/** PropertySet → attributes; keys are aliases, renamed to field names when asked. */
function attributesOf(props: PropertySet | undefined, layer: MapLayer | undefined, byName: boolean) {
  const out: Record<string, unknown> = {};
  for (const { Key, Value } of props?.PropertyArray ?? []) {
    const field = byName ? layer?.fields.find((f) => (f.alias ?? f.name) === Key) : undefined;
    out[field?.name ?? Key] = Value;
  }
  return out;
}

function geometryJson(shape: AnyGeometry | undefined, returnGeometry: boolean, sr: SpatialReference) {
  if (!shape || !returnGeometry) return {};
  const g = toEsriGeometry(shape) as EsriGeometry & { spatialReference?: SpatialReference };
  return { geometry: { ...g, spatialReference: sr } };
}

const geometryTypeOf = (layer: MapLayer | undefined) => layer?.geometryType ?? 'esriGeometryPoint';

export async function identify(
  deps: MapServiceDeps,
  ctx: SoapContext<MapServerLocals>,
  map: HostedMap,
  params: RequestParams,
): Promise<Record<string, unknown>> {
  const all = map.layers.filter((l) => !l.isTable).map((l) => l.id);
  const filter = normalizeGeometryFilter({
    geometry: params.get('geometry'),
    geometrytype: params.get('geometrytype'),
  });
  if (!filter) throw fail('geometry', 'the geometry to identify at is required');
  const sr = readSpatialReference('sr', params.get('sr')) ?? map.spatialReference;
  const { option, ids } = readIdentifyLayers(params.get('layers'), all);
  const toleranceText = present(params.get('tolerance'));
  if (toleranceText === undefined) throw fail('tolerance', 'the tolerance in pixels is required');
  const tolerance = readInteger('tolerance', toleranceText, 0, 1000);
  const extent = readEnvelope('mapExtent', params.get('mapextent'));
  const display = readImageSize('imageDisplay', params.get('imagedisplay'));
  const returnGeometry = readBoolean('returnGeometry', params.get('returngeometry'), true);
  const byName = readBoolean('returnFieldName', params.get('returnfieldname'), false);
  const defs = readLayerDefs(params.get('layerdefs'), all);
  // Identify answers without a time filter: on a time-aware layer `time` would be silently ignored.
  if (
    readTimeExtent(params.get('time')) &&
    map.layers.some((l) => (ids ?? all).includes(l.id) && l.definition.timeInfo)
  )
    throw fail('time', 'identify does not filter by time; query the time-aware layer with time instead');
  const results = await restErrors(() =>
    createSearchHandlers(deps).Identify(
      {
        MapDescription: mapDescription(map, extent.bounds, sr, defs),
        MapImageDisplay: {
          ImageWidth: display.width,
          ImageHeight: display.height,
          ImageDPI: display.dpi ?? 96,
        },
        SearchShape: toSoapGeometry(filter.geometry, sr),
        Tolerance: tolerance,
        IdentifyOption: IDENTIFY_OPTIONS[option],
        LayerIDs: ids ?? [],
      },
      { ...ctx, operation: 'Identify' },
    ),
  );
  return {
    results: results.map((r) => {
      const layer = map.layers.find((l) => l.id === r.LayerID);
      return {
        layerId: r.LayerID,
        layerName: layer?.name ?? '',
        value: r.Name,
        displayFieldName: layer?.displayField ?? '',
        attributes: attributesOf(r.Properties, layer, byName),
        geometryType: geometryTypeOf(layer),
        ...geometryJson(r.Shape, returnGeometry, sr),
      };
    }),
  };
}

export async function find(
  deps: MapServiceDeps,
  ctx: SoapContext<MapServerLocals>,
  map: HostedMap,
  params: RequestParams,
): Promise<Record<string, unknown>> {
  const all = map.layers.filter((l) => !l.isTable).map((l) => l.id);
  const searchText = params.get('searchtext');
  if (!searchText) throw fail('searchText', 'the text to find is required');
  const contains = readBoolean('contains', params.get('contains'), true);
  const sr = readSpatialReference('sr', params.get('sr')) ?? map.spatialReference;
  const layerIds = readFindLayers(params.get('layers'), all);
  const returnGeometry = readBoolean('returnGeometry', params.get('returngeometry'), true);
  const byName = readBoolean('returnFieldName', params.get('returnfieldname'), false);
  const defs = readLayerDefs(params.get('layerdefs'), all);
  const results = await restErrors(() =>
    createSearchHandlers(deps).Find(
      {
        // Find draws nothing: the extent only carries the spatial reference the shapes come back in.
        MapDescription: mapDescription(map, defaultExtent(map), sr, defs),
        MapImageDisplay: { ImageWidth: 400, ImageHeight: 400, ImageDPI: 96 },
        SearchString: searchText,
        Contains: contains,
        SearchFields: params.get('searchfields') ?? '',
        FindOption: 'geoFindAllLayers',
        LayerIDs: layerIds,
      },
      { ...ctx, operation: 'Find' },
    ),
  );
  return {
    results: results.map((r) => {
      const layer = map.layers.find((l) => l.id === r.LayerID);
      return {
        layerId: r.LayerID,
        layerName: layer?.name ?? '',
        displayFieldName: layer?.displayField ?? '',
        foundFieldName: byName
          ? r.FieldName
          : (layer?.fields.find((f) => f.name === r.FieldName)?.alias ?? r.FieldName),
        value: r.Value,
        attributes: attributesOf(r.Properties, layer, byName),
        geometryType: geometryTypeOf(layer),
        ...geometryJson(r.Shape, returnGeometry, sr),
      };
    }),
  };
}
