import type { Bounds, EsriEnvelope, EsriGeometryType } from '../geometry/types.js';
import { Canvas, compositeLayer } from './canvas.js';
import { defaultDrawingInfo } from './default-drawing-info.js';
import type { DrawContext } from './draw-context.js';
import { drawFeature, drawPoint } from './draw-feature.js';
import { MarkerSpriteCache } from './marker-sprites.js';
import { NO_ATTRIBUTES, type PackedPoints, packedPointsIn } from './packed-points.js';
import { type FillRule, Rasterizer } from './rasterizer.js';
import { rendererSymbol } from './renderer-symbols.js';
import { symbolReach } from './symbol-reach.js';
import type { DrawingInfo, FeatureRenderer, RenderFeature, RgbaImage, VisualVariable } from './types.js';
import { applyVisualVariables } from './visual-variables.js';

export interface RenderTileInput {
  /** Features with Esri JSON geometries in the envelope's coordinate system (EPSG:3857 for tiles). */
  features: Iterable<RenderFeature>;
  drawingInfo?: DrawingInfo | null;
  /** The map area the image covers: [xmin, ymin, xmax, ymax] or an Esri envelope. */
  envelope: Bounds | EsriEnvelope;
  width: number;
  height: number;
  /** Output DPI for symbol sizes in points (default 96, the tiling DPI). */
  dpi?: number;
  /** Used for the default symbology when drawingInfo has no renderer. */
  geometryType?: EsriGeometryType;
  /** Polygon fill rule (default even-odd, which keeps holes open whatever the ring orientation). */
  fillRule?: FillRule;
  /** Decoded images of picture symbols, keyed by pictureKey(symbol). */
  pictures?: ReadonlyMap<string, RgbaImage>;
  /** Paint over this RGBA buffer (earlier layers) instead of a fresh transparent one; it is modified. */
  target?: Uint8Array;
  /** Marker sprites to reuse across tiles of one layer at one DPI (one is made per call otherwise). */
  sprites?: MarkerSpriteCache;
}

/**
 * Renders features with their layer's drawingInfo into a width×height RGBA buffer, returned as
 * **straight (non-premultiplied) alpha**, rows top to bottom: pass it to
 * `sharp(buf, { raw: { width, height, channels: 4 } }).png()`. Transparent where nothing is drawn.
 * Features whose symbols cannot reach the image are skipped; those crossing its edge are drawn in
 * part, so neighbouring tiles line up.
 */
export function renderTile(input: RenderTileInput): Uint8Array {
  const layer = beginLayerDraw(input);
  layer.draw(input.features);
  return layer.finish();
}

/** One layer being drawn by renderTile, its features given in parts. */
export interface LayerDraw {
  /** Draws these features over the ones drawn before (in the order given). */
  draw(features: Iterable<RenderFeature>): void;
  /**
   * Draws packed points (those within `area`, edges included, when given) as `draw(packedPointsIn(points,
   * area))` would, pixel for pixel, without a feature object for each.
   */
  drawPoints(points: PackedPoints, area?: Bounds): void;
  /** Composites the layer onto the target (at the layer's opacity) and returns the target's pixels. */
  finish(): Uint8Array;
}

/**
 * renderTile in parts: the features may come in several batches (a bundle's pages of a large layer), and
 * the result is the same as one call with all of them in the same order. A transparent layer is drawn
 * on a canvas of its own until `finish`, so its features overlap one another as in one call.
 */
export function beginLayerDraw(input: Omit<RenderTileInput, 'features'>): LayerDraw {
  const { width, height } = input;
  const target = new Canvas(width, height, input.target);
  const drawingInfo = input.drawingInfo?.renderer
    ? input.drawingInfo
    : {
        ...defaultDrawingInfo(input.geometryType ?? 'esriGeometryPoint'),
        transparency: input.drawingInfo?.transparency,
      };
  const renderer = drawingInfo.renderer as FeatureRenderer;
  const transparency = Math.min(100, Math.max(0, Number(drawingInfo.transparency ?? 0) || 0));
  const opacity = 1 - transparency / 100;
  if (opacity <= 0) return { draw: () => {}, drawPoints: () => {}, finish: () => target.data };
  // Layer transparency applies to the layer as a whole (overlaps do not show through each other):
  // draw opaque on a layer of its own, then composite it at the layer's opacity.
  const canvas = opacity < 1 ? new Canvas(width, height) : target;
  const dpi = input.dpi ?? 96;

  const [xmin, ymin, xmax, ymax] = Array.isArray(input.envelope)
    ? input.envelope
    : [input.envelope.xmin, input.envelope.ymin, input.envelope.xmax, input.envelope.ymax];
  // Point layers stamp sprites and never need the (large) accumulation buffer: make it on first use.
  let raster: Rasterizer | undefined;
  const ctx: DrawContext = {
    canvas,
    get raster(): Rasterizer {
      raster ??= new Rasterizer(width, height);
      return raster;
    },
    dpi,
    opacity: 1,
    clip: { xmin: 0, ymin: 0, xmax: width, ymax: height },
    fillRule: input.fillRule ?? 'evenodd',
    pictures: input.pictures,
    sprites:
      input.sprites && input.sprites.dpi === dpi ? input.sprites : new MarkerSpriteCache(dpi, input.pictures),
  };
  const view = { xmin, ymax, sx: width / (xmax - xmin), sy: height / (ymax - ymin), width, height };
  const variables = visualVariablesOf(renderer);
  let finished = false;
  const symbolOf = (attributes: Record<string, unknown> | null | undefined) => {
    const base = rendererSymbol(renderer, attributes);
    return base && applyVisualVariables(base, variables, attributes);
  };
  // Points without attributes all take one symbol: the same object each time the renderer is asked
  // (checked, since the marker sprites are kept per symbol object), else each is drawn as a feature.
  let bareSymbol: ReturnType<typeof symbolOf> | null = null;
  const bareSymbolOf = () => {
    if (bareSymbol === null) {
      const bare = symbolOf(NO_ATTRIBUTES);
      bareSymbol = bare !== undefined && bare === symbolOf(NO_ATTRIBUTES) ? bare : undefined;
    }
    return bareSymbol;
  };
  const draw = (features: Iterable<RenderFeature>) => {
    if (finished) throw new Error('the layer was finished');
    for (const feature of features) {
      if (!feature.geometry) continue;
      const symbol = symbolOf(feature.attributes);
      if (symbol) drawFeature(ctx, view, feature.geometry, symbol);
    }
  };
  return {
    draw,
    drawPoints(points, area) {
      const symbol = bareSymbolOf();
      if (!symbol) {
        draw(packedPointsIn(points, area));
        return;
      }
      if (finished) throw new Error('the layer was finished');
      // drawFeature draws a point only with a marker symbol.
      if (symbol.type !== 'esriSMS' && symbol.type !== 'esriPMS') return;
      const reach = symbolReach(symbol, ctx.dpi);
      const { xy } = points;
      for (let i = 0; i + 1 < xy.length; i += 2) {
        const x = xy[i];
        const y = xy[i + 1];
        if (area && (x < area[0] || x > area[2] || y < area[1] || y > area[3])) continue;
        drawPoint(ctx, view, x, y, symbol, reach);
      }
    },
    finish() {
      if (!finished && canvas !== target) compositeLayer(target, canvas, opacity);
      finished = true;
      return target.data;
    },
  };
}

/** The renderer's visual variables, plus the older `rotationExpression: "[field]"` form as a rotation. */
function visualVariablesOf(renderer: FeatureRenderer): VisualVariable[] | undefined {
  const legacy = renderer as { rotationExpression?: string; rotationType?: 'geographic' | 'arithmetic' };
  const field = /^\[([^\]]+)\]$/.exec(legacy.rotationExpression ?? '')?.[1];
  if (!field) return renderer.visualVariables;
  return [
    ...(renderer.visualVariables ?? []),
    { type: 'rotationInfo', field, rotationType: legacy.rotationType ?? 'geographic' },
  ];
}

/** True when no pixel has any alpha: the tile need not be encoded or stored. */
export function isEmptyTile(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 0) return false;
  return true;
}
