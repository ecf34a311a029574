/**
 * MapServer `export`: a map image of the layers, drawn with their drawingInfo by the same renderMap
 * SOAP's ExportMapImage uses. The bbox (in bboxSR) is projected to imageSR and grown to the image's
 * aspect ratio, as ArcGIS Server does; f=image answers the bytes, f=json the image's URL and extent.
 */
import sharp from 'sharp';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { createTransformer } from '../../lib/projection/index.js';
import { fail } from '../../lib/query/normalize/parameter-values.js';
import { readTimeExtent } from '../../lib/query/normalize/time.js';
import type { TimeFilter } from '../../lib/query/normalized-query.js';
import type { HostedMap, MapServiceDeps } from '../../soap/handlers/map-context.js';
import {
  fitExtent,
  INCHES_PER_METER,
  type MapView,
  metersPerUnit,
  visibleAtScale,
} from '../../soap/handlers/map-display.js';
import { type LayerToDraw, renderMap } from '../../soap/handlers/render-map.js';
import type { RequestParams } from '../params.js';
import {
  type ExportFormat,
  readDpi,
  readEnvelope,
  readExportFormat,
  readExportLayers,
  readImageSize,
  readLayerDefs,
  readSpatialReference,
} from './map-request-params.js';

export interface ExportRequest {
  view: MapView;
  layers: LayerToDraw[];
  format: ExportFormat;
  transparent: boolean;
}

/** Projects an extent's corners and edge midpoints; the bounds of the results. */
export function projectBounds(b: Bounds, from: SpatialReference, to: SpatialReference): Bounds {
  const t = createTransformer(from, to);
  if (t.identity) return b;
  const [x0, y0, x1, y1] = b;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const fx of [0, 0.5, 1])
    for (const fy of [0, 0.5, 1]) {
      const [x, y] = t.project(x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy);
      if (Number.isFinite(x) && Number.isFinite(y)) {
        xs.push(x);
        ys.push(y);
      }
    }
  if (xs.length === 0) throw fail('bbox', 'the extent lies outside the image spatial reference');
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** The view an export (or WMS GetMap) draws: `bounds` in `sr`, fitted to the image, at `dpi`. */
export function exportView(
  bounds: Bounds,
  sr: SpatialReference,
  width: number,
  height: number,
  dpi: number,
): MapView {
  const extent = fitExtent(bounds, width, height);
  const resolution = (extent[2] - extent[0]) / width;
  return {
    extent,
    width,
    height,
    dpi,
    resolution,
    sr,
    scale: resolution * dpi * INCHES_PER_METER * metersPerUnit(sr),
  };
}

/** Which layers draw, in drawing order, each with its layerDefs expression, at the view's scale. */
export function layersToDraw(
  map: HostedMap,
  ids: readonly number[],
  defs: Map<number, string>,
  scale: number,
  time: TimeFilter | null = null,
): LayerToDraw[] {
  return map.layers
    .filter((l) => !l.isTable && ids.includes(l.id))
    .filter((l) => visibleAtScale(scale, l.definition.minScale, l.definition.maxScale))
    .map((l) => ({
      id: l.id,
      definitionExpression: defs.get(l.id),
      // Time-aware layers draw the features of the asked time; others draw everything, as in ArcGIS.
      ...(time && l.definition.timeInfo ? { time } : {}),
    }));
}

export function readExportRequest(map: HostedMap, params: RequestParams): ExportRequest {
  const bbox = readEnvelope('bbox', params.get('bbox'));
  const bboxSR = readSpatialReference('bboxSR', params.get('bboxsr')) ?? bbox.sr ?? map.spatialReference;
  const imageSR = readSpatialReference('imageSR', params.get('imagesr')) ?? map.spatialReference;
  const { width, height } = readImageSize('size', params.get('size'), { width: 400, height: 400 });
  const dpi = readDpi('dpi', params.get('dpi'));
  const format = readExportFormat(params.get('format'));
  const transparent = readTransparent(params.get('transparent'));
  const time = readTimeExtent(params.get('time'));
  const featureLayers = map.layers.filter((l) => !l.isTable);
  const all = featureLayers.map((l) => l.id);
  const byDefault = featureLayers.filter((l) => l.definition.defaultVisibility !== false).map((l) => l.id);
  const ids = readExportLayers(params.get('layers'), all, byDefault);
  const defs = readLayerDefs(params.get('layerdefs'), all);
  const view = exportView(projectBounds(bbox.bounds, bboxSR, imageSR), imageSR, width, height, dpi);
  return { view, layers: layersToDraw(map, ids, defs, view.scale, time), format, transparent };
}

function readTransparent(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  if (!v) return false;
  if (v === 'true' || v === 'false') return v === 'true';
  throw fail('transparent', `'${value}' is not true or false`);
}

export interface EncodedMap {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
}

/** Draws the view; the background is white unless the image is transparent. */
export async function drawExport(
  deps: MapServiceDeps,
  map: HostedMap,
  r: ExportRequest,
): Promise<EncodedMap> {
  const rgba = await renderMap(deps, map, r.view, r.layers, r.transparent ? null : [255, 255, 255, 255]);
  return encodeImage(rgba, r.view.width, r.view.height, r.format, r.transparent);
}

/**
 * png and png32 are RGBA; png24 is RGB (RGBA when transparent, as 24-bit colour plus alpha); png8 a
 * palette of at most 256 colours with alpha; jpg has no alpha and is flattened on white.
 */
export async function encodeImage(
  rgba: Uint8Array,
  width: number,
  height: number,
  format: ExportFormat,
  transparent: boolean,
): Promise<EncodedMap> {
  const image = sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
    raw: { width, height, channels: 4 },
  });
  if (format === 'jpg') {
    const bytes = await image.flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
    return { bytes, contentType: 'image/jpeg', extension: 'jpg' };
  }
  let png = image;
  if (format === 'png24' && !transparent) png = image.flatten({ background: '#ffffff' });
  const bytes = await png.png(format === 'png8' ? { palette: true, colours: 256, dither: 0 } : {}).toBuffer();
  return { bytes, contentType: 'image/png', extension: 'png' };
}
