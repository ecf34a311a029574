import { describe, expect, it } from 'vitest';
import { Canvas } from '../../../lib/render/canvas.js';
import { defaultDrawingInfo } from '../../../lib/render/default-drawing-info.js';
import { pictureKey } from '../../../lib/render/draw-context.js';
import { drawMarker } from '../../../lib/render/draw-marker.js';
import { renderLegendSwatch } from '../../../lib/render/legend-swatch.js';
import { MarkerSpriteCache } from '../../../lib/render/marker-sprites.js';
import { Rasterizer } from '../../../lib/render/rasterizer.js';
import { renderTile } from '../../../lib/render/render-tile.js';
import type { EsriSymbol, PictureMarkerSymbol, RgbaImage } from '../../../lib/render/types.js';
import { pixel } from './png-roundtrip.js';

const ENV: [number, number, number, number] = [0, 0, 256, 256];
const draw = (
  symbol: EsriSymbol,
  x: number,
  y: number,
  extra: Partial<Parameters<typeof renderTile>[0]> = {},
) =>
  renderTile({
    features: [{ geometry: { x, y: 256 - y } }],
    drawingInfo: { renderer: { type: 'simple', symbol } },
    envelope: ENV,
    width: 64,
    height: 64,
    ...extra,
  });

const PIN: PictureMarkerSymbol = {
  type: 'esriPMS',
  url: 'pin.png',
  imageData: 'AAAA',
  width: 12,
  height: 12,
};
const GREEN_IMAGE: RgbaImage = {
  width: 4,
  height: 4,
  data: new Uint8Array(64).fill(255).map((v, i) => (i % 4 === 1 || i % 4 === 3 ? v : 0)),
};

describe('picture markers', () => {
  it('draws the decoded picture looked up by its key', () => {
    const tile = draw(PIN, 32, 32, {
      pictures: new Map([[pictureKey(PIN), GREEN_IMAGE]]),
      envelope: [0, 192, 64, 256],
    });
    expect(pixel(tile, 64, 32, 32)).toEqual([0, 255, 0, 255]);
  });

  it('falls back to a red dot of the picture size without a decoded image', () => {
    const tile = draw(PIN, 32, 32, { envelope: [0, 192, 64, 256] });
    const [r, g, b, a] = pixel(tile, 64, 32, 32);
    expect(a).toBe(255);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(100);
  });

  it('keys pictures by imageData before url', () => {
    expect(pictureKey(PIN)).toBe('AAAA');
    expect(pictureKey({ type: 'esriPMS', url: 'a.png' })).toBe('a.png');
  });
});

describe('marker sprites', () => {
  it('stamp the same pixels as drawing the marker in place, within rounding', () => {
    const symbol: EsriSymbol = {
      type: 'esriSMS',
      style: 'esriSMSDiamond',
      color: [10, 200, 30, 200],
      size: 14,
      outline: { type: 'esriSLS', style: 'esriSLSSolid', color: [0, 0, 0, 255], width: 1.5 },
    };
    const stamped = new Canvas(64, 64);
    new MarkerSpriteCache(96).stamp(stamped, symbol, 30.25, 29.5, 1);
    const direct = new Canvas(64, 64);
    drawMarker(
      {
        canvas: direct,
        raster: new Rasterizer(64, 64),
        dpi: 96,
        opacity: 1,
        clip: { xmin: 0, ymin: 0, xmax: 64, ymax: 64 },
        fillRule: 'nonzero',
      },
      symbol,
      30.25,
      29.5,
    );
    let maxDiff = 0;
    for (let i = 0; i < direct.data.length; i++)
      maxDiff = Math.max(maxDiff, Math.abs(stamped.data[i] - direct.data[i]));
    expect(maxDiff).toBeLessThanOrEqual(2);
    expect(pixel(stamped.data, 64, 30, 34)).toEqual([10, 200, 30, 200]);
  });
});

describe('marker sprite stamping over earlier paint', () => {
  it('gives the pixels of compositing each sprite pixel source-over with Canvas.blend', () => {
    const symbol: EsriSymbol = {
      type: 'esriSMS',
      style: 'esriSMSCircle',
      color: [0, 122, 194, 255],
      size: 8,
      outline: { type: 'esriSLS', style: 'esriSLSSolid', color: [255, 255, 255, 255], width: 1 },
    };
    // The sprite itself, alone at a known sub-pixel phase, is the reference's source.
    const sprites = new MarkerSpriteCache(96);
    const alone = new Canvas(24, 24);
    sprites.stamp(alone, symbol, 12.25, 11.75, 1);
    // Many overlapping, clipped stamps at that phase: compare with blending the sprite's pixels by hand.
    const stamped = new Canvas(40, 40);
    const reference = new Canvas(40, 40);
    const spots = [
      [3, 4],
      [6, 6],
      [8, 5],
      [20, 20],
      [22, 21],
      [38, 39],
      [0, 20],
      [21, 21],
    ];
    for (const [x, y] of spots) {
      sprites.stamp(stamped, symbol, x + 0.25, y - 0.25, 1);
      for (let sy = 0; sy < 24; sy++)
        for (let sx = 0; sx < 24; sx++) {
          const [r, g, b, a] = pixel(alone.data, 24, sx, sy);
          const tx = x - 12 + sx;
          const ty = y - 12 + sy;
          if (a === 0 || tx < 0 || ty < 0 || tx >= 40 || ty >= 40) continue;
          reference.blend(ty * 40 + tx, r, g, b, a / 255);
        }
    }
    expect(stamped.data.some((v, i) => i % 4 === 3 && v > 0 && v < 255)).toBe(true);
    expect(Buffer.from(stamped.data).equals(Buffer.from(reference.data))).toBe(true);
  });
});

describe('marker sprite stamping where markers pile up', () => {
  it('gives the pixels of Canvas.blend over opaque, partial and clear paint, at every sub-pixel phase', () => {
    const symbol: EsriSymbol = {
      type: 'esriSMS',
      style: 'esriSMSCircle',
      color: [200, 40, 90, 255],
      size: 9,
      outline: { type: 'esriSLS', style: 'esriSLSSolid', color: [250, 240, 10, 255], width: 1.5 },
    };
    let seed = 11;
    const rand = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    // Earlier paint: opaque, partly transparent and clear pixels of random colours.
    const stamped = new Canvas(32, 32);
    for (let i = 0; i < stamped.data.length; i += 4) {
      const kind = rand();
      stamped.data[i] = Math.floor(rand() * 256);
      stamped.data[i + 1] = Math.floor(rand() * 256);
      stamped.data[i + 2] = Math.floor(rand() * 256);
      stamped.data[i + 3] = kind < 0.5 ? 255 : kind < 0.8 ? 1 + Math.floor(rand() * 254) : 0;
    }
    const reference = new Canvas(32, 32);
    reference.data.set(stamped.data);
    const sprites = new MarkerSpriteCache(96);
    // Each phase's sprite alone on a clear canvas (stamping over clear pixels copies them).
    const alone = new Map<string, Canvas>();
    const spriteAt = (fx: number, fy: number) => {
      const k = `${fx} ${fy}`;
      let c = alone.get(k);
      if (!c) {
        c = new Canvas(24, 24);
        new MarkerSpriteCache(96).stamp(c, symbol, 12 + fx, 12 + fy, 1);
        alone.set(k, c);
      }
      return c;
    };
    // 600 markers piled on a few pixels, as a low level's are: most sprite pixels land on opaque paint.
    for (let n = 0; n < 600; n++) {
      const x = 10 + Math.floor(rand() * 12);
      const y = 10 + Math.floor(rand() * 12);
      const fx = Math.floor(rand() * 4) / 4;
      const fy = Math.floor(rand() * 4) / 4;
      sprites.stamp(stamped, symbol, x + fx, y + fy, 1);
      const sprite = spriteAt(fx, fy);
      for (let sy = 0; sy < 24; sy++)
        for (let sx = 0; sx < 24; sx++) {
          const [r, g, b, a] = pixel(sprite.data, 24, sx, sy);
          const tx = x - 12 + sx;
          const ty = y - 12 + sy;
          if (a === 0 || tx < 0 || ty < 0 || tx >= 32 || ty >= 32) continue;
          reference.blend(ty * 32 + tx, r, g, b, a / 255);
        }
    }
    expect(alone.size).toBe(16);
    expect(Buffer.from(stamped.data).equals(Buffer.from(reference.data))).toBe(true);
  });
});

describe('default drawing info', () => {
  it('gives points a simple renderer with a circle marker', () => {
    const info = defaultDrawingInfo('esriGeometryPoint');
    expect(info.renderer?.type).toBe('simple');
    expect(info.renderer?.type === 'simple' && info.renderer.symbol?.type).toBe('esriSMS');
    expect(info.transparency).toBe(0);
  });

  it('gives polylines a line symbol and polygons a fill with an outline', () => {
    const line = defaultDrawingInfo('esriGeometryPolyline').renderer;
    const fill = defaultDrawingInfo('esriGeometryPolygon').renderer;
    expect(line?.type === 'simple' && line.symbol?.type).toBe('esriSLS');
    expect(fill?.type === 'simple' && fill.symbol?.type).toBe('esriSFS');
  });
});

describe('legend swatches', () => {
  it('centres a marker in the patch', () => {
    const patch = renderLegendSwatch(
      { type: 'esriSMS', style: 'esriSMSCircle', color: [255, 0, 0, 255], size: 8 },
      20,
      20,
    );
    expect(pixel(patch, 20, 10, 10)).toEqual([255, 0, 0, 255]);
    expect(pixel(patch, 20, 0, 0)[3]).toBe(0);
  });

  it('draws a line symbol as a horizontal stroke across the patch', () => {
    const patch = renderLegendSwatch(
      { type: 'esriSLS', style: 'esriSLSSolid', color: [0, 0, 255, 255], width: 3 },
      20,
      20,
    );
    expect(pixel(patch, 20, 10, 9)[3]).toBe(255);
    expect(pixel(patch, 20, 10, 3)[3]).toBe(0);
  });

  it('fills a fill symbol patch with its outline inside the patch', () => {
    const patch = renderLegendSwatch(
      {
        type: 'esriSFS',
        style: 'esriSFSSolid',
        color: [0, 255, 0, 255],
        outline: { type: 'esriSLS', style: 'esriSLSSolid', color: [0, 0, 0, 255], width: 1 },
      },
      20,
      20,
    );
    expect(pixel(patch, 20, 10, 10)).toEqual([0, 255, 0, 255]);
    const [, green, , alpha] = pixel(patch, 20, 1, 10);
    expect(alpha).toBeGreaterThan(240);
    expect(green).toBeLessThan(80);
  });
});
