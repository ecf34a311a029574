/**
 * OGC WMS 1.1.1 and 1.3.0 at `…/services/Hosted/{name}/MapServer/WMSServer`, where ArcGIS Server puts
 * it: GetCapabilities, GetMap (drawn by the export's code), GetFeatureInfo (the identify of the pixel)
 * and GetLegendGraphic, over the map of a hosted feature service or of a cache with its data. Layer
 * names are the layer ids, as on ArcGIS. Errors are ServiceExceptionReports.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ServedTiles } from '../../infra/served-tiles.js';
import { isGeoError } from '../../lib/errors.js';
import { esriToGeoJSON } from '../../lib/geometry/geojson.js';
import type { Bounds, EsriGeometry } from '../../lib/geometry/types.js';
import { renderLegendSwatch } from '../../lib/render/legend-swatch.js';
import { legendClasses } from '../../lib/render/renderer-symbols.js';
import { renderMap } from '../../soap/handlers/render-map.js';
import { escapeAttribute, escapeText } from '../../soap/xml-text.js';
import type { AppEnv } from '../env.js';
import type { RequestParams } from '../params.js';
import { publicRoot } from '../urls.js';
import { encodeImage, exportView, layersToDraw, projectBounds } from './map-export.js';
import { identify } from './map-search.js';
import { createMapTargets } from './map-service-target.js';
import {
  checkStyles,
  readBackground,
  readBbox,
  readCrs,
  readFormat,
  readLayerNames,
  readPixel,
  readSize,
  readTransparent,
  WMS_CRS,
  WMS_FORMATS,
  WmsException,
  type WmsVersion,
  wmsVersion,
} from './wms-request.js';

const XML = 'text/xml; charset=utf-8';

function exceptionReport(e: WmsException, version: WmsVersion): { body: string; type: string } {
  const attrs =
    version === '1.3.0' ? ' version="1.3.0" xmlns="http://www.opengis.net/ogc"' : ' version="1.1.1"';
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ServiceExceptionReport${attrs}><ServiceException code="${e.code}">${escapeText(e.message)}</ServiceException></ServiceExceptionReport>`;
  return { body, type: version === '1.3.0' ? XML : 'application/vnd.ogc.se_xml' };
}

/** An access or data error from the shared code, as a WMS exception (the token is asked for in the URL). */
const asWmsException = (e: unknown): WmsException =>
  e instanceof WmsException
    ? e
    : isGeoError(e) && e.code < 500
      ? new WmsException(
          e.code === 499 ? 'TokenRequired' : 'InvalidParameterValue',
          [e.message, ...e.details].join(' '),
        )
      : new WmsException('NoApplicableCode', 'The request could not be completed.');

/** `tiles`: the app's tile reader and cache rows (the maps WMS draws are the MapServer's). */
export function createWmsRouter(tiles: ServedTiles): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const maps = createMapTargets(tiles);

  router.on(['GET', 'POST'], '/Hosted/:name/MapServer/WMSServer', async (c) => {
    const params = c.get('params');
    const version = wmsVersion(params);
    try {
      const service = params.get('service');
      if (service && service.toUpperCase() !== 'WMS')
        throw new WmsException('InvalidParameterValue', 'SERVICE must be WMS.');
      const request = (params.get('request') ?? '').toLowerCase();
      const opened = await maps.open(c);
      if (!opened.map.service)
        throw new WmsException(
          'OperationNotSupported',
          'The map service is a tile cache imported from a package: it has no data to draw.',
        );
      switch (request) {
        case 'getcapabilities':
          return c.body(capabilities(c, opened.map, version), 200, {
            'Content-Type': version === '1.3.0' ? XML : 'application/vnd.ogc.wms_xml',
          });
        case 'getmap':
          return await getMap(c, opened, version);
        case 'getfeatureinfo':
          return await getFeatureInfo(c, opened, version);
        case 'getlegendgraphic':
          return await getLegendGraphic(c, opened.map);
        default:
          throw new WmsException(
            'OperationNotSupported',
            `REQUEST must be GetCapabilities, GetMap, GetFeatureInfo or GetLegendGraphic.`,
          );
      }
    } catch (e) {
      const report = exceptionReport(asWmsException(e), version);
      if (!(e instanceof WmsException) && !isGeoError(e)) c.get('deps').log.error('wms failure', { err: e });
      return c.body(report.body, 200, { 'Content-Type': report.type });
    }
  });
  return router;
}

type Opened = Awaited<ReturnType<ReturnType<typeof createMapTargets>['open']>>;
type Map = Opened['map'];

const featureLayers = (map: Map) => map.layers.filter((l) => !l.isTable);

async function getMap(c: Context<AppEnv>, { map, deps }: Opened, version: WmsVersion) {
  const params = c.get('params');
  const ids = readLayerNames(
    params,
    'LAYERS',
    featureLayers(map).map((l) => l.id),
  );
  checkStyles(params);
  const crs = readCrs(params, version);
  const bbox = readBbox(params, version, crs.latFirst130);
  const { width, height } = readSize(params);
  const format = readFormat(params);
  const transparent = readTransparent(params) && format !== 'jpg';
  // WMS draws the BBOX into the image as asked, stretched if need be: the view is the bbox itself.
  const view = {
    ...exportView(bbox, crs.sr, width, height, 96),
    extent: bbox,
    resolution: (bbox[2] - bbox[0]) / width,
  };
  // Layers listed first are drawn first, i.e. at the bottom, in WMS; the map draws its list bottom-up.
  const layers = layersToDraw(map, ids, new Map(), view.scale).sort(
    (a, b) => ids.indexOf(b.id) - ids.indexOf(a.id),
  );
  const rgba = await renderMap(deps, map, view, layers, transparent ? null : readBackground(params));
  const image = await encodeImage(rgba, width, height, format, transparent);
  return c.body(new Uint8Array(image.bytes), 200, { 'Content-Type': image.contentType });
}

async function getFeatureInfo(c: Context<AppEnv>, { map, deps, ctx }: Opened, version: WmsVersion) {
  const params = c.get('params');
  const all = featureLayers(map).map((l) => l.id);
  readLayerNames(params, 'LAYERS', all);
  const queryLayers = readLayerNames(params, 'QUERY_LAYERS', all);
  const crs = readCrs(params, version);
  const bbox = readBbox(params, version, crs.latFirst130);
  const size = readSize(params);
  const { x, y } = readPixel(params, version, size);
  const infoFormat = (params.get('info_format') ?? 'text/xml').toLowerCase();
  if (!['text/xml', 'application/json', 'application/geojson'].includes(infoFormat))
    throw new WmsException(
      'InvalidFormat',
      'INFO_FORMAT must be text/xml, application/json or application/geojson.',
    );
  const count = Math.max(1, Number(params.get('feature_count') ?? 1) || 1);
  const mx = bbox[0] + ((x + 0.5) / size.width) * (bbox[2] - bbox[0]);
  const my = bbox[3] - ((y + 0.5) / size.height) * (bbox[3] - bbox[1]);
  const found = (await identify(
    deps,
    ctx,
    map,
    fixedParams({
      geometry: `${mx},${my}`,
      geometrytype: 'esriGeometryPoint',
      sr: JSON.stringify(crs.sr),
      layers: `all:${queryLayers.join(',')}`,
      tolerance: '3',
      mapextent: bbox.join(','),
      imagedisplay: `${size.width},${size.height},96`,
      returngeometry: 'true',
      returnfieldname: 'true',
    }),
  )) as {
    results: {
      layerId: number;
      layerName: string;
      attributes: Record<string, unknown>;
      geometry?: EsriGeometry;
    }[];
  };
  const results = found.results.slice(0, count);
  if (infoFormat === 'text/xml') {
    const layers = results
      .map(
        (r) =>
          `<FIELDS ${Object.entries(r.attributes)
            .map(([k, v]) => `${k.replace(/[^A-Za-z0-9_.-]/g, '_')}="${escapeAttribute(String(v))}"`)
            .join(' ')}/>`,
      )
      .join('');
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<FeatureInfoResponse>${layers}</FeatureInfoResponse>`,
      200,
      { 'Content-Type': XML },
    );
  }
  return c.json({
    type: 'FeatureCollection',
    features: results.map((r) => ({
      type: 'Feature',
      id: Number(r.attributes.OBJECTID ?? 0) || undefined,
      layerId: r.layerId,
      layerName: r.layerName,
      properties: r.attributes,
      geometry: r.geometry ? esriToGeoJSON(r.geometry) : null,
    })),
  });
}

/** Parameters built here for the shared REST code (names lower-cased, as the parser gives them). */
const fixedParams = (values: Record<string, string>): RequestParams => ({
  get: (name) => values[name.toLowerCase()],
  has: (name) => name.toLowerCase() in values,
  all: () => ({ ...values }),
  file: () => undefined,
  files: () => [],
});

const PATCH = 20;

async function getLegendGraphic(c: Context<AppEnv>, map: Map) {
  const params = c.get('params');
  const [id] = readLayerNames(
    params,
    'LAYER',
    featureLayers(map).map((l) => l.id),
  );
  const format = (params.get('format') ?? 'image/png').toLowerCase();
  if (!WMS_FORMATS[format])
    throw new WmsException('InvalidFormat', `${format} is not offered; use image/png or image/jpeg.`);
  const layer = map.layers.find((l) => l.id === id);
  const classes = layer?.drawingInfo?.renderer ? legendClasses(layer.drawingInfo.renderer) : [];
  // One swatch per class, stacked from the top.
  const rgba = new Uint8Array(PATCH * PATCH * 4 * Math.max(1, classes.length));
  classes.forEach((k, i) => {
    rgba.set(renderLegendSwatch(k.symbol, PATCH, PATCH), i * PATCH * PATCH * 4);
  });
  const image = await encodeImage(
    rgba,
    PATCH,
    PATCH * Math.max(1, classes.length),
    WMS_FORMATS[format],
    true,
  );
  return c.body(new Uint8Array(image.bytes), 200, { 'Content-Type': image.contentType });
}

function capabilities(c: Context<AppEnv>, map: Map, version: WmsVersion): string {
  const name = map.name;
  const url = `${publicRoot(c)}/services/Hosted/${encodeURIComponent(name)}/MapServer/WMSServer`;
  const token = c.get('params').get('token');
  const href = escapeAttribute(`${url}?${token ? `token=${encodeURIComponent(token)}&` : ''}`);
  const online = `<OnlineResource xmlns:xlink="http://www.w3.org/1999/xlink" xlink:type="simple" xlink:href="${href}"/>`;
  const dcp = `<DCPType><HTTP><Get>${online}</Get><Post>${online}</Post></HTTP></DCPType>`;
  const formats = Object.keys(WMS_FORMATS)
    .map((f) => `<Format>${f}</Format>`)
    .join('');
  const extent = map.extent ?? [
    -20037508.342789244, -20037508.342789244, 20037508.342789244, 20037508.342789244,
  ];
  const geo = projectBounds(extent as Bounds, map.spatialReference, { wkid: 4326 });
  const mercator = projectBounds(extent as Bounds, map.spatialReference, { wkid: 102100, latestWkid: 3857 });
  const crsTag = version === '1.3.0' ? 'CRS' : 'SRS';
  const crsList = Object.keys(WMS_CRS)
    .filter((n) => version === '1.3.0' || n !== 'CRS:84')
    .map((n) => `<${crsTag}>${n}</${crsTag}>`)
    .join('');
  const geoBox =
    version === '1.3.0'
      ? `<EX_GeographicBoundingBox><westBoundLongitude>${geo[0]}</westBoundLongitude><eastBoundLongitude>${geo[2]}</eastBoundLongitude><southBoundLatitude>${geo[1]}</southBoundLatitude><northBoundLatitude>${geo[3]}</northBoundLatitude></EX_GeographicBoundingBox>`
      : `<LatLonBoundingBox minx="${geo[0]}" miny="${geo[1]}" maxx="${geo[2]}" maxy="${geo[3]}"/>`;
  const boxes =
    version === '1.3.0'
      ? `<BoundingBox CRS="EPSG:4326" minx="${geo[1]}" miny="${geo[0]}" maxx="${geo[3]}" maxy="${geo[2]}"/><BoundingBox CRS="EPSG:3857" minx="${mercator[0]}" miny="${mercator[1]}" maxx="${mercator[2]}" maxy="${mercator[3]}"/>`
      : `<BoundingBox SRS="EPSG:4326" minx="${geo[0]}" miny="${geo[1]}" maxx="${geo[2]}" maxy="${geo[3]}"/><BoundingBox SRS="EPSG:3857" minx="${mercator[0]}" miny="${mercator[1]}" maxx="${mercator[2]}" maxy="${mercator[3]}"/>`;
  const layers = featureLayers(map)
    .map((l) => {
      const legend = escapeAttribute(
        `${url}?${token ? `token=${encodeURIComponent(token)}&` : ''}request=GetLegendGraphic&version=${version}&format=image/png&layer=${l.id}`,
      );
      return `<Layer queryable="1"><Name>${l.id}</Name><Title>${escapeText(l.name)}</Title>${geoBox}${boxes}<Style><Name>default</Name><Title>default</Title><LegendURL><Format>image/png</Format><OnlineResource xmlns:xlink="http://www.w3.org/1999/xlink" xlink:type="simple" xlink:href="${legend}"/></LegendURL></Style></Layer>`;
    })
    .join('');
  const exceptions =
    version === '1.3.0' ? '<Format>XML</Format>' : '<Format>application/vnd.ogc.se_xml</Format>';
  const root =
    version === '1.3.0'
      ? `<WMS_Capabilities version="1.3.0" xmlns="http://www.opengis.net/wms" xmlns:xlink="http://www.w3.org/1999/xlink">`
      : '<WMT_MS_Capabilities version="1.1.1">';
  const end = version === '1.3.0' ? '</WMS_Capabilities>' : '</WMT_MS_Capabilities>';
  const capsFormat = version === '1.3.0' ? 'text/xml' : 'application/vnd.ogc.wms_xml';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    root,
    `<Service><Name>WMS</Name><Title>${escapeText(name)}</Title><Abstract>${escapeText(map.description)}</Abstract>${online}<Fees>none</Fees><AccessConstraints>none</AccessConstraints></Service>`,
    '<Capability><Request>',
    `<GetCapabilities><Format>${capsFormat}</Format>${dcp}</GetCapabilities>`,
    `<GetMap>${formats}${dcp}</GetMap>`,
    `<GetFeatureInfo><Format>text/xml</Format><Format>application/json</Format><Format>application/geojson</Format>${dcp}</GetFeatureInfo>`,
    `<GetLegendGraphic>${formats}${dcp}</GetLegendGraphic>`,
    `</Request><Exception>${exceptions}</Exception>`,
    `<Layer><Title>${escapeText(name)}</Title>${crsList}${geoBox}${boxes}${layers}</Layer>`,
    '</Capability>',
    end,
  ].join('');
}
