/**
 * GetLegendInfo(2) with swatch images drawn by lib/render, GetDefaultLayerDrawingDescriptions, and
 * GenerateDataClasses (class breaks by lib/render's classification, or unique values) over the
 * layer's data.
 */
import sharp from 'sharp';
import { defaultDrawingInfo } from '../../lib/render/default-drawing-info.js';
import { renderLegendSwatch } from '../../lib/render/legend-swatch.js';
import type * as Esri from '../../lib/render/types.js';
import type {
  ImageType,
  LayerDrawingDescription,
  MapServerLegendClass,
  MapServerLegendInfo,
  MapServerLegendPatch,
} from '../schema/generated-types.js';
import type { SoapContext, SoapHandlerGroup } from '../service-types.js';
import { generateDataClasses } from './data-classes.js';
import { deliverImage } from './image-handlers.js';
import { displayView } from './map-area.js';
import {
  type HostedMap,
  layersOf,
  type MapLayer,
  type MapServerLocals,
  type MapServiceDeps,
  openMapFor,
} from './map-context.js';
import { visibleAtScale } from './map-display.js';
import { imageEncoding } from './render-map.js';
import { toSoapRenderer } from './renderer-wire.js';

export type LegendOperations =
  | 'GetLegendInfo'
  | 'GetLegendInfo2'
  | 'GetDefaultLayerDrawingDescriptions'
  | 'GenerateDataClasses';

export function layerRenderer(layer: MapLayer): Esri.FeatureRenderer {
  return (layer.drawingInfo?.renderer ??
    defaultDrawingInfo(layer.geometryType ?? 'esriGeometryPoint').renderer) as Esri.FeatureRenderer;
}

interface LegendEntry {
  label: string;
  description: string;
  symbol: Esri.EsriSymbol | null | undefined;
}

export function legendEntries(renderer: Esri.FeatureRenderer): LegendEntry[] {
  switch (renderer.type) {
    case 'simple':
      return [
        { label: renderer.label ?? '', description: renderer.description ?? '', symbol: renderer.symbol },
      ];
    case 'uniqueValue': {
      const entries = (renderer.uniqueValueInfos ?? []).map((u) => ({
        label: u.label ?? String(u.value),
        description: u.description ?? '',
        symbol: u.symbol,
      }));
      if (renderer.defaultSymbol)
        entries.push({
          label: renderer.defaultLabel ?? '<all other values>',
          description: '',
          symbol: renderer.defaultSymbol,
        });
      return entries;
    }
    case 'classBreaks':
      return renderer.classBreakInfos.map((c) => ({
        label: c.label ?? String(c.classMaxValue),
        description: c.description ?? '',
        symbol: c.symbol,
      }));
  }
}

const PATCH_DEFAULT = 20;

async function legendInfos(
  deps: MapServiceDeps,
  ctx: SoapContext<unknown>,
  layers: MapLayer[],
  patch: MapServerLegendPatch | undefined,
  type: ImageType | undefined,
): Promise<MapServerLegendInfo[]> {
  const width = patch?.Width && patch.Width > 0 ? Math.min(Math.round(patch.Width), 256) : PATCH_DEFAULT;
  const height = patch?.Height && patch.Height > 0 ? Math.min(Math.round(patch.Height), 256) : PATCH_DEFAULT;
  const dpi = patch?.ImageDPI && patch.ImageDPI > 0 ? patch.ImageDPI : 96;
  const encoding = imageEncoding(type?.ImageFormat ?? 'geoImagePNG');
  const swatch = async (
    symbol: Esri.EsriSymbol | null | undefined,
  ): Promise<MapServerLegendClass['SymbolImage']> => {
    const rgba = symbol
      ? renderLegendSwatch(symbol, width, height, { dpi })
      : new Uint8Array(width * height * 4);
    const img = sharp(Buffer.from(rgba), { raw: { width, height, channels: 4 } });
    const bytes =
      encoding.extension === 'jpg'
        ? await img.flatten({ background: '#ffffff' }).jpeg().toBuffer()
        : await img.png().toBuffer();
    const image = { ...encoding, bytes: new Uint8Array(bytes) };
    return {
      ...(await deliverImage(deps, ctx, image, type)),
      ImageHeight: height,
      ImageWidth: width,
      ImageDPI: dpi,
      ImageType: encoding.mimeType,
    };
  };
  const infos: MapServerLegendInfo[] = [];
  for (const layer of layers.filter((l) => !l.isTable)) {
    const classes: MapServerLegendClass[] = [];
    for (const entry of legendEntries(layerRenderer(layer))) {
      classes.push({
        Label: entry.label,
        Description: entry.description,
        SymbolImage: await swatch(entry.symbol),
      });
    }
    infos.push({
      LayerID: layer.id,
      Name: layer.name,
      LegendGroups: [{ Heading: '', LegendClasses: classes }],
    });
  }
  return infos;
}

function drawingDescription(layer: MapLayer): LayerDrawingDescription {
  return {
    $type: 'FeatureLayerDrawingDescription',
    FeatureRenderer: toSoapRenderer(layerRenderer(layer)),
    ScaleSymbols: false,
    Transparency: Number(layer.drawingInfo?.transparency ?? 0),
    Brightness: 0,
    Contrast: 0,
    SourceLayerID: layer.id,
  };
}

const inScale = (map: HostedMap, layers: MapLayer[], scale: number) =>
  layers.filter(
    (l) => visibleAtScale(scale, l.definition.minScale, l.definition.maxScale) && map.layers.includes(l),
  );

export function createLegendHandlers(
  deps: MapServiceDeps,
): SoapHandlerGroup<LegendOperations, MapServerLocals> {
  return {
    async GetLegendInfo(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapName);
      return legendInfos(deps, ctx, layersOf(map, q.LayerIDs), q.LegendPatch, q.ImageType);
    },
    async GetLegendInfo2(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapDescription.Name);
      const view = await displayView(deps, map, q.MapDescription, q.MapImageDisplay);
      return legendInfos(
        deps,
        ctx,
        inScale(map, layersOf(map, q.LayerIDs), view.scale),
        q.LegendPatch,
        q.ImageType,
      );
    },
    async GetDefaultLayerDrawingDescriptions(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapName);
      return layersOf(map, q.LayerIDs)
        .filter((l) => !l.isTable)
        .map(drawingDescription);
    },
    async GenerateDataClasses(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapName);
      return generateDataClasses(deps, map, q.MapTableDescription, q.DataClassificationDef);
    },
  };
}
