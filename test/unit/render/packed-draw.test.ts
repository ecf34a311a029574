import { describe, expect, it } from 'vitest';
import { MarkerSpriteCache } from '../../../lib/render/marker-sprites.js';
import { packedPointsIn, packedPointsMeet } from '../../../lib/render/packed-points.js';
import { beginLayerDraw } from '../../../lib/render/render-tile.js';
import type { DrawingInfo } from '../../../lib/render/types.js';

const marker = (color: number[], size: number) => ({
  type: 'esriSMS' as const,
  style: 'esriSMSCircle' as const,
  color,
  size,
  outline: {
    type: 'esriSLS' as const,
    style: 'esriSLSSolid' as const,
    color: [255, 255, 255, 255],
    width: 1,
  },
});

/** Renderers a point layer may have, each drawn bare (without attributes). */
const renderers: Record<string, DrawingInfo | null> = {
  'none (the default symbol)': null,
  simple: { renderer: { type: 'simple', symbol: marker([0, 122, 194, 255], 8) } },
  'simple, 40% transparent': {
    renderer: { type: 'simple', symbol: marker([200, 60, 20, 255], 10) },
    transparency: 40,
  },
  'unique values (the default symbol for no value)': {
    renderer: {
      type: 'uniqueValue',
      field1: 'kind',
      defaultSymbol: marker([10, 160, 40, 255], 7),
      uniqueValueInfos: [{ value: 'a', symbol: marker([250, 0, 0, 255], 12) }],
    },
  },
  'size by a field (no value: the base size)': {
    renderer: {
      type: 'simple',
      symbol: marker([90, 40, 160, 255], 6),
      visualVariables: [
        { type: 'sizeInfo', field: 'pop', minDataValue: 0, maxDataValue: 10, minSize: 4, maxSize: 20 },
      ],
    },
  },
  'a line symbol (points not drawn)': {
    renderer: {
      type: 'simple',
      symbol: { type: 'esriSLS', style: 'esriSLSSolid', color: [0, 0, 0, 255], width: 2 },
    },
  },
} as Record<string, DrawingInfo | null>;

describe('drawing packed points', () => {
  // 3,000 points piled on a 512 px square's middle and spread past its edges (a seeded generator).
  let seed = 5;
  const rand = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const xy = new Float64Array(6000);
  for (let i = 0; i < 3000; i++) {
    const spread = i % 3 === 0 ? 700 : 60;
    xy[2 * i] = 1000 + (rand() - 0.5) * spread;
    xy[2 * i + 1] = 2000 + (rand() - 0.5) * spread;
  }
  const envelope: [number, number, number, number] = [744, 1744, 1256, 2256];
  const areas = [undefined, [900, 1900, 1100, 2100] as [number, number, number, number]];

  for (const [name, drawingInfo] of Object.entries(renderers)) {
    it(`gives the pixels of drawing them as features: ${name}`, () => {
      for (const area of areas) {
        const draw = (packed: boolean) => {
          const target = new Uint8Array(512 * 512 * 4);
          const input = {
            drawingInfo,
            geometryType: 'esriGeometryPoint' as const,
            envelope,
            width: 512,
            height: 512,
            sprites: new MarkerSpriteCache(96),
            target,
          };
          const layer = beginLayerDraw(input);
          // In two parts, as a bundle's pages come.
          const halves = [{ xy: xy.subarray(0, 3000) }, { xy: xy.subarray(3000) }];
          for (const half of halves) {
            if (packed) layer.drawPoints(half, area);
            else layer.draw(packedPointsIn(half, area));
          }
          return Buffer.from(layer.finish());
        };
        const asFeatures = draw(false);
        const bare = draw(true);
        expect(bare.equals(asFeatures)).toBe(true);
        const painted = asFeatures.some((v, i) => i % 4 === 3 && v > 0);
        expect(painted).toBe(!name.startsWith('a line symbol'));
      }
    });
  }

  it('tells whether any point lies in an area, edges included', () => {
    const p = { xy: new Float64Array([0, 0, 10, 5]) };
    expect(packedPointsMeet(p, [10, 5, 20, 20])).toBe(true);
    expect(packedPointsMeet(p, [-1, -1, 0, 0])).toBe(true);
    expect(packedPointsMeet(p, [1, 1, 9, 9])).toBe(false);
    expect(packedPointsMeet({ xy: new Float64Array() }, [0, 0, 1, 1])).toBe(false);
  });
});
