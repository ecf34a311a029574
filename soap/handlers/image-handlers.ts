/**
 * ExportMapImage and ExportScaleBar: images drawn with lib/render, encoded with sharp, returned as
 * MIME data or published for a URL, as the ImageType asks.
 */
import { clientFault } from '../fault.js';
import type { Color, ImageResult, ImageType, MapImage } from '../schema/generated-types.js';
import type { SoapContext, SoapHandlerGroup } from '../service-types.js';
import { displayView } from './map-area.js';
import { type MapServerLocals, type MapServiceDeps, openMapFor } from './map-context.js';
import { checkDisplay, metersPerUnit } from './map-display.js';
import { clearColor, type EncodedImage, encodeRgba, renderMap, visibleLayers } from './render-map.js';
import { fromSoapColor } from './renderer-wire.js';
import { drawScaleBar } from './scale-bar.js';
import { envelopeN } from './wire-geometry.js';

export type ImageOperations = 'ExportMapImage' | 'ExportScaleBar';

/** ImageData for MIME requests, ImageURL (and no data) for URL requests. */
export async function deliverImage(
  deps: MapServiceDeps,
  ctx: SoapContext<unknown>,
  image: EncodedImage,
  type: ImageType | undefined,
): Promise<{ ImageData?: Uint8Array; ImageURL: string }> {
  if ((type?.ImageReturnType ?? 'geoImageReturnMimeData') === 'geoImageReturnMimeData') {
    return { ImageData: image.bytes, ImageURL: '' };
  }
  return { ImageURL: await deps.images.publish(image.bytes, image.extension, ctx.endpointUrl) };
}

export function rgbOf(color: Color | undefined): [number, number, number] | undefined {
  if (!color) return undefined;
  switch (color.$type) {
    case 'RgbColor':
      return [color.Red, color.Green, color.Blue];
    case 'GrayColor':
      return [color.GrayLevel, color.GrayLevel, color.GrayLevel];
    default:
      throw clientFault(`Color type ${color.$type} is not supported; send RgbColor or GrayColor.`);
  }
}

export function createImageHandlers(
  deps: MapServiceDeps,
): SoapHandlerGroup<ImageOperations, MapServerLocals> {
  return {
    async ExportMapImage(q, ctx): Promise<MapImage> {
      const md = q.MapDescription;
      const map = await openMapFor(deps, ctx, md.Name);
      const view = await displayView(deps, map, md, q.ImageDescription?.ImageDisplay);
      const layers = visibleLayers(map, md.LayerDescriptions, view.scale, md.SelectionColor);
      const background =
        md.BackgroundSymbol?.$type === 'SimpleFillSymbol' ? fromSoapColor(md.BackgroundSymbol.Color) : null;
      const rgba = await renderMap(deps, map, view, layers, background);
      const transparent = q.ImageDescription?.ImageDisplay?.TransparentColor ?? md.TransparentColor;
      if (transparent && background) clearColor(rgba, fromSoapColor(transparent) ?? []);
      const image = await encodeRgba(
        rgba,
        view.width,
        view.height,
        q.ImageDescription?.ImageType?.ImageFormat,
      );
      return {
        ...(await deliverImage(deps, ctx, image, q.ImageDescription?.ImageType)),
        Extent: envelopeN(view.extent, view.sr),
        VisibleLayerIDs: layers.map((l) => l.id),
        MapScale: view.scale,
        ImageHeight: view.height,
        ImageWidth: view.width,
        ImageDPI: view.dpi,
        ImageType: image.mimeType,
      };
    },
    async ExportScaleBar(q, ctx): Promise<ImageResult> {
      const map = await openMapFor(deps, ctx, q.MapDescription.Name);
      const view = await displayView(deps, map, q.MapDescription, q.MapDisplay);
      const display = checkDisplay(q.ImageDescription?.ImageDisplay);
      const bar = q.ScaleBar;
      const fill = bar?.$type === 'AlternatingScaleBar' ? bar.FillSymbol1 : bar?.FillSymbol;
      const barColor = (fill?.$type === 'SimpleFillSymbol' ? rgbOf(fill.Color) : undefined) ?? [0, 0, 0];
      const { rgba } = drawScaleBar({
        width: display.width,
        height: display.height,
        metersPerPixel: view.resolution * metersPerUnit(view.sr),
        units: bar?.Units && bar.Units !== 'geoUnknownUnits' ? bar.Units : 'geoMeters',
        divisions: bar?.$type === 'SingleDivisionScaleBar' ? 1 : (bar?.Divisions ?? 4),
        barColor,
        background: rgbOf(q.BackGroundColor),
      });
      const image = await encodeRgba(
        rgba,
        display.width,
        display.height,
        q.ImageDescription?.ImageType?.ImageFormat,
      );
      return {
        ...(await deliverImage(deps, ctx, image, q.ImageDescription?.ImageType)),
        ImageHeight: display.height,
        ImageWidth: display.width,
        ImageDPI: display.dpi,
        ImageType: image.mimeType,
      };
    },
  };
}
