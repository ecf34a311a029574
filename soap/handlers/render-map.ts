/**
 * Draws a map view: every visible feature layer in drawing order (last listed at the bottom, as
 * the real server draws its layer list), each with its drawingInfo, then encodes the RGBA with
 * sharp. Layers honour their LayerDescription's visibility and DefinitionExpression.
 */
import sharp from 'sharp';
import type { EsriGeometryType } from '../../lib/geometry/types.js';
import { renderTile } from '../../lib/render/render-tile.js';
import type * as Esri from '../../lib/render/types.js';
import type { RenderFeature } from '../../lib/render/types.js';
import { clientFault } from '../fault.js';
import type { Color, geoImageFormat, LayerDescription } from '../schema/generated-types.js';
import { queryMapLayer } from './layer-query.js';
import type { HostedMap, MapLayer, MapServiceDeps } from './map-context.js';
import { type MapView, visibleAtScale } from './map-display.js';
import { fromSoapRenderer } from './renderer-from-wire.js';
import { fromSoapColor } from './renderer-wire.js';

/** Features drawn per layer at most; beyond this an image is no longer a useful map anyway. */
const MAX_DRAWN_FEATURES = 200_000;

export interface EncodedImage {
  bytes: Uint8Array;
  mimeType: string;
  extension: 'png' | 'jpg';
}

export function imageEncoding(format: geoImageFormat | undefined): Omit<EncodedImage, 'bytes'> {
  switch (format ?? 'geoImagePNG') {
    case 'geoImagePNG':
    case 'geoImagePNG24':
    case 'geoImagePNG32':
      return { mimeType: 'image/png', extension: 'png' };
    case 'geoImageJPG':
      return { mimeType: 'image/jpeg', extension: 'jpg' };
    default:
      throw clientFault(`Image format ${format} is not supported; use PNG, PNG24, PNG32 or JPG.`);
  }
}

export async function encodeRgba(
  rgba: Uint8Array,
  width: number,
  height: number,
  format: geoImageFormat | undefined,
): Promise<EncodedImage> {
  const encoding = imageEncoding(format);
  const image = sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
    raw: { width, height, channels: 4 },
  });
  const bytes =
    encoding.extension === 'jpg'
      ? await image.flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer()
      : await image.png().toBuffer();
  return { ...encoding, bytes: new Uint8Array(bytes) };
}

export interface LayerToDraw {
  id: number;
  definitionExpression?: string;
  /** Only features of this time extent are drawn (time-aware layers; the REST export's `time`). */
  time?: { start: number | null; end: number | null };
  /** The request's DrawingDescription renderer, drawn instead of the layer's own. */
  renderer?: Esri.FeatureRenderer;
  /** Selected feature ids, drawn on top of every layer in the selection color. */
  selection?: number[];
  selectionColor?: number[];
}

/** The layers a display request shows: its LayerDescriptions when given, else every layer's default. */
export function visibleLayers(
  map: HostedMap,
  descriptions: readonly LayerDescription[] | undefined,
  scale: number,
  mapSelectionColor?: Color,
): LayerToDraw[] {
  const given = new Map((descriptions ?? []).map((d) => [d.LayerID, d]));
  const drawing = (d: LayerDescription | undefined) =>
    d?.DrawingDescription?.$type === 'FeatureLayerDrawingDescription' && d.DrawingDescription.FeatureRenderer
      ? { renderer: fromSoapRenderer(d.DrawingDescription.FeatureRenderer) }
      : {};
  const selection = (d: LayerDescription | undefined) =>
    d?.SelectionFeatures?.length
      ? {
          selection: d.SelectionFeatures,
          selectionColor: fromSoapColor(d.SelectionColor ?? mapSelectionColor) ?? [0, 255, 255, 255],
        }
      : {};
  return map.layers
    .filter((l) => !l.isTable)
    .filter((l) =>
      given.size ? given.get(l.id)?.Visible === true : l.definition.defaultVisibility !== false,
    )
    .filter((l) => visibleAtScale(scale, l.definition.minScale, l.definition.maxScale))
    .map((l) => {
      const d = given.get(l.id);
      return {
        id: l.id,
        definitionExpression: d?.DefinitionExpression || undefined,
        ...drawing(d),
        ...selection(d),
      };
    });
}

export async function renderMap(
  deps: MapServiceDeps,
  map: HostedMap,
  view: MapView,
  layers: LayerToDraw[],
  background?: readonly number[] | null,
): Promise<Uint8Array> {
  const target = new Uint8Array(view.width * view.height * 4);
  if (background && (background[3] ?? 255) > 0) {
    const [r, g, b, a = 255] = background;
    for (let i = 0; i < target.length; i += 4) target.set([r, g, b, a], i);
  }
  const selected: { layer: MapLayer; rows: RenderFeature[]; color: number[] }[] = [];
  // The first layer of the list is on top, so draw from the last one up.
  for (const { id, definitionExpression, time, renderer, selection, selectionColor } of [
    ...layers,
  ].reverse()) {
    const layer = map.layers.find((l) => l.id === id);
    if (!layer) continue;
    // Symbols reach a few pixels beyond their geometry; widen the query so edge features still draw.
    const pad = view.resolution * 32;
    const [xmin, ymin, xmax, ymax] = view.extent;
    const result = await queryMapLayer(deps, map, layer, {
      mode: 'features',
      definitionExpression,
      geometry: {
        geometry: { xmin: xmin - pad, ymin: ymin - pad, xmax: xmax + pad, ymax: ymax + pad },
        sr: view.sr,
        spatialRel: 'esriSpatialRelEnvelopeIntersects',
      },
      outSR: view.sr,
      maxRecords: MAX_DRAWN_FEATURES,
      ...(time ? { time } : {}),
    });
    const features = result.rows.map((r) => ({ geometry: r.shape, attributes: r.attrs }));
    renderTile({
      features,
      drawingInfo: renderer ? { renderer, transparency: layer.drawingInfo?.transparency } : layer.drawingInfo,
      envelope: view.extent,
      width: view.width,
      height: view.height,
      dpi: view.dpi,
      geometryType: (layer.geometryType ?? 'esriGeometryPoint') as EsriGeometryType,
      target,
    });
    if (selection?.length) {
      const ids = new Set(selection);
      const rows = features.filter((_, i) => ids.has(result.rows[i].objectid));
      selected.push({ layer, rows, color: selectionColor ?? [0, 255, 255, 255] });
    }
  }
  for (const { layer, rows, color } of selected) {
    renderTile({
      features: rows,
      drawingInfo: { renderer: { type: 'simple', symbol: selectionSymbol(layer.geometryType, color) } },
      envelope: view.extent,
      width: view.width,
      height: view.height,
      dpi: view.dpi,
      target,
    });
  }
  return target;
}

/**
 * Makes every pixel of one color transparent, as ImageDisplay/MapDescription TransparentColor asks
 * (clients pass the background color to get a map they can lay over another).
 */
export function clearColor(rgba: Uint8Array, [r, g, b]: readonly number[]): void {
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i] === r && rgba[i + 1] === g && rgba[i + 2] === b) rgba[i + 3] = 0;
  }
}

/** Selected features are outlined (areas, lines) or ringed (points) in the selection color. */
function selectionSymbol(geometryType: string | null, color: number[]): Esri.EsriSymbol {
  const line: Esri.SimpleLineSymbol = { type: 'esriSLS', style: 'esriSLSSolid', color, width: 2 };
  if (geometryType === 'esriGeometryPolygon')
    return { type: 'esriSFS', style: 'esriSFSNull', color: null, outline: line };
  if (geometryType === 'esriGeometryPolyline') return line;
  return { type: 'esriSMS', style: 'esriSMSCircle', color: null, size: 10, outline: line };
}
