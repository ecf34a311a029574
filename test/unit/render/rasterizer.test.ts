import { describe, expect, it } from 'vitest';
import { Canvas } from '../../../lib/render/canvas.js';
import { Rasterizer } from '../../../lib/render/rasterizer.js';

const BLACK = [0, 0, 0, 255];
const alphaAt = (c: Canvas, x: number, y: number): number => c.data[(y * c.width + x) * 4 + 3];

function fillRings(rings: number[][], rule: 'nonzero' | 'evenodd' = 'nonzero', size = 32): Canvas {
  const canvas = new Canvas(size, size);
  const r = new Rasterizer(size, size);
  for (const ring of rings) r.addRing(ring, ring.length / 2);
  r.fill(canvas, BLACK, rule);
  return canvas;
}

const rect = (x0: number, y0: number, x1: number, y1: number): number[] => [x0, y0, x1, y0, x1, y1, x0, y1];
const reversed = (ring: number[]): number[] => {
  const out: number[] = [];
  for (let i = ring.length - 2; i >= 0; i -= 2) out.push(ring[i], ring[i + 1]);
  return out;
};

describe('coverage rasterizer', () => {
  it('fills pixels wholly inside a shape opaquely and leaves outside ones empty', () => {
    const c = fillRings([rect(4, 4, 12, 12)]);
    expect(alphaAt(c, 8, 8)).toBe(255);
    expect(alphaAt(c, 4, 4)).toBe(255);
    expect(alphaAt(c, 12, 12)).toBe(0);
    expect(alphaAt(c, 3, 8)).toBe(0);
  });

  it('covers a pixel cut in half by a vertical edge at half alpha', () => {
    const c = fillRings([rect(4.5, 4, 12, 12)]);
    expect(alphaAt(c, 4, 8)).toBe(128);
    expect(alphaAt(c, 5, 8)).toBe(255);
  });

  it('covers a pixel cut by a horizontal edge in proportion', () => {
    const c = fillRings([rect(4, 4.75, 12, 12)]);
    expect(alphaAt(c, 8, 4)).toBe(64);
  });

  it('covers a pixel crossed by a diagonal edge with the exact triangle area', () => {
    // Triangle (0,0)-(8,0)-(0,8): the pixel (3,4) lies on the hypotenuse x + y = 8; half of it is inside.
    const c = fillRings([[0, 0, 8, 0, 0, 8]]);
    expect(alphaAt(c, 3, 4)).toBe(128);
    expect(alphaAt(c, 2, 2)).toBe(255);
    expect(alphaAt(c, 5, 5)).toBe(0);
  });

  it('adds up to the shape area over all pixels', () => {
    const c = fillRings([[3.3, 2.1, 20.7, 5.9, 11.2, 17.4]]);
    let sum = 0;
    for (let i = 3; i < c.data.length; i += 4) sum += c.data[i] / 255;
    const area = Math.abs((20.7 - 3.3) * (17.4 - 2.1) - (11.2 - 3.3) * (5.9 - 2.1)) / 2;
    expect(sum).toBeCloseTo(area, 0);
  });

  it('keeps a hole open with even-odd whatever the ring orientation', () => {
    const c = fillRings([rect(2, 2, 20, 20), rect(8, 8, 14, 14)], 'evenodd');
    expect(alphaAt(c, 4, 4)).toBe(255);
    expect(alphaAt(c, 10, 10)).toBe(0);
  });

  it('keeps a hole open with nonzero when the hole runs the other way', () => {
    const c = fillRings([rect(2, 2, 20, 20), reversed(rect(8, 8, 14, 14))], 'nonzero');
    expect(alphaAt(c, 10, 10)).toBe(0);
  });

  it('fills overlapping same-direction rings once with nonzero', () => {
    const c = fillRings([rect(2, 2, 12, 12), rect(6, 6, 16, 16)], 'nonzero');
    expect(alphaAt(c, 8, 8)).toBe(255);
  });

  it('fills a shape reaching past every canvas edge exactly inside the canvas', () => {
    const c = fillRings([rect(-50, -40, 70, 90)], 'nonzero', 16);
    expect(alphaAt(c, 0, 0)).toBe(255);
    expect(alphaAt(c, 15, 15)).toBe(255);
  });

  it('fills the visible part of a triangle whose edges cross the left border', () => {
    // Edge from (-8, 0) to (8, 16): inside the canvas it crosses x = 0 at y = 8.
    const c = fillRings([[-8, 0, 24, 0, 8, 16]], 'nonzero', 16);
    expect(alphaAt(c, 0, 2)).toBe(255);
    expect(alphaAt(c, 1, 12)).toBe(0);
    expect(alphaAt(c, 5, 13)).toBe(128);
    expect(alphaAt(c, 6, 13)).toBe(255);
  });

  it('forces stroke pieces to positive winding so opposite orientations do not cancel', () => {
    const canvas = new Canvas(16, 16);
    const r = new Rasterizer(16, 16);
    r.addRing(rect(2, 2, 10, 10), 4, 1);
    r.addRing(reversed(rect(4, 4, 12, 12)), 4, 1);
    r.fill(canvas, BLACK, 'nonzero');
    expect(alphaAt(canvas, 6, 6)).toBe(255);
  });

  it('clears its cells after each fill so the next shape starts clean', () => {
    const canvas = new Canvas(16, 16);
    const r = new Rasterizer(16, 16);
    r.addRing(rect(2, 2, 6, 6), 4);
    r.fill(canvas, BLACK);
    r.addRing(rect(10, 10, 14, 14), 4);
    r.fill(canvas, [255, 0, 0, 255]);
    expect([...canvas.data.subarray((3 * 16 + 3) * 4, (3 * 16 + 3) * 4 + 4)]).toEqual([0, 0, 0, 255]);
    expect([...canvas.data.subarray((11 * 16 + 11) * 4, (11 * 16 + 11) * 4 + 4)]).toEqual([255, 0, 0, 255]);
  });
});

describe('canvas compositing', () => {
  it('composites source-over in straight alpha', () => {
    const c = new Canvas(1, 1);
    c.blend(0, 255, 0, 0, 0.5);
    c.blend(0, 0, 0, 255, 0.5);
    expect([...c.data]).toEqual([85, 0, 170, 192]);
  });

  it('replaces a pixel under an opaque source', () => {
    const c = new Canvas(1, 1);
    c.blend(0, 255, 0, 0, 0.5);
    c.blend(0, 1, 2, 3, 1);
    expect([...c.data]).toEqual([1, 2, 3, 255]);
  });
});
