/**
 * Draws a map view: every visible feature layer in drawing order (last listed at the bottom, as
 * the real server draws its layer list), each with its drawingInfo, then encodes the RGBA with
 * sharp. Layers honour their LayerDescription's visibility and DefinitionExpression.
 */
import sharp from 'sharp';
import type { EsriGeometryType } from '../../lib/geometry/types.js';
import { renderTile } from '../../lib/render/render-tile.js';
import { clientFault } from '../fault.js';
import type { geoImageFormat, LayerDescription } from '../schema/generated-types.js';
import { queryLayer } from './layer-query.js';
import type { HostedMap, MapServiceDeps } from './map-context.js';
import { type MapView, visibleAtScale } from './map-display.js';

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

/** The layers a display request shows: its LayerDescriptions when given, else every layer's default. */
export function visibleLayers(
  map: HostedMap,
  descriptions: readonly LayerDescription[] | undefined,
  scale: number,
): { id: number; definitionExpression?: string }[] {
  const given = new Map((descriptions ?? []).map((d) => [d.LayerID, d]));
  return map.layers
    .filter((l) => !l.isTable)
    .filter((l) =>
      given.size ? given.get(l.id)?.Visible === true : l.definition.defaultVisibility !== false,
    )
    .filter((l) => visibleAtScale(scale, l.definition.minScale, l.definition.maxScale))
    .map((l) => ({ id: l.id, definitionExpression: given.get(l.id)?.DefinitionExpression || undefined }));
}

export async function renderMap(
  deps: MapServiceDeps,
  map: HostedMap,
  view: MapView,
  layers: { id: number; definitionExpression?: string }[],
): Promise<Uint8Array> {
  const target = new Uint8Array(view.width * view.height * 4);
  // The first layer of the list is on top, so draw from the last one up.
  for (const { id, definitionExpression } of [...layers].reverse()) {
    const layer = map.layers.find((l) => l.id === id);
    if (!layer) continue;
    // Symbols reach a few pixels beyond their geometry; widen the query so edge features still draw.
    const pad = view.resolution * 32;
    const [xmin, ymin, xmax, ymax] = view.extent;
    const result = await queryLayer(deps, map, layer, {
      mode: 'features',
      definitionExpression,
      geometry: {
        geometry: { xmin: xmin - pad, ymin: ymin - pad, xmax: xmax + pad, ymax: ymax + pad },
        sr: view.sr,
        spatialRel: 'esriSpatialRelEnvelopeIntersects',
      },
      outSR: view.sr,
      maxRecords: MAX_DRAWN_FEATURES,
    });
    renderTile({
      features: result.rows.map((r) => ({ geometry: r.shape, attributes: r.attrs })),
      drawingInfo: layer.drawingInfo,
      envelope: view.extent,
      width: view.width,
      height: view.height,
      dpi: view.dpi,
      geometryType: (layer.geometryType ?? 'esriGeometryPoint') as EsriGeometryType,
      target,
    });
  }
  return target;
}
