/** MapServer `legend`: 20×20 patches of each layer's renderer classes, as base64 PNG. */
import sharp from 'sharp';
import { renderLegendSwatch } from '../../lib/render/legend-swatch.js';
import { legendClasses } from '../../lib/render/renderer-symbols.js';
import type { DrawingInfo } from '../../lib/render/types.js';
import type { MapServiceLayer } from './map-server-json.js';

const PATCH = 20;

export async function mapServerLegend(layers: MapServiceLayer[]): Promise<Record<string, unknown>> {
  const out = [];
  for (const layer of layers) {
    const renderer = (layer.drawingInfo as DrawingInfo | undefined)?.renderer;
    const legend = [];
    for (const c of renderer ? legendClasses(renderer) : []) {
      const rgba = renderLegendSwatch(c.symbol, PATCH, PATCH);
      const png = await sharp(Buffer.from(rgba), { raw: { width: PATCH, height: PATCH, channels: 4 } })
        .png()
        .toBuffer();
      legend.push({
        label: c.label,
        url: '',
        imageData: png.toString('base64'),
        contentType: 'image/png',
        height: PATCH,
        width: PATCH,
        ...(c.values ? { values: c.values } : {}),
      });
    }
    out.push({
      layerId: layer.id,
      layerName: layer.name,
      layerType: 'Feature Layer',
      minScale: 0,
      maxScale: 0,
      legend,
    });
  }
  return { layers: out };
}
