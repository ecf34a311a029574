import { describe, expect, it } from 'vitest';
import type { Bounds } from '../../../lib/geometry/types.js';
import { isEmptyTile, renderTile } from '../../../lib/render/render-tile.js';
import type { DrawingInfo, EsriSymbol, RenderFeature } from '../../../lib/render/types.js';
import { tileBounds } from '../../../lib/tiles/web-mercator.js';
import { pixel, throughPng } from './png-roundtrip.js';

const TILE = { level: 10, row: 380, col: 262 };
const ENV = tileBounds(TILE);
const [XMIN, , XMAX, YMAX] = ENV;
const RES = (XMAX - XMIN) / 256;
/** Map coordinates of pixel position (px, py) in the tile. */
const at = (px: number, py: number): [number, number] => [XMIN + px * RES, YMAX - py * RES];

const simple = (symbol: EsriSymbol, transparency = 0): DrawingInfo => ({
  renderer: { type: 'simple', symbol },
  transparency,
});
const RED_DOT: EsriSymbol = { type: 'esriSMS', style: 'esriSMSCircle', color: [255, 0, 0, 255], size: 6 };
const BLUE_FILL: EsriSymbol = { type: 'esriSFS', style: 'esriSFSSolid', color: [0, 0, 255, 255] };
const render = (features: RenderFeature[], drawingInfo: DrawingInfo, envelope: Bounds = ENV): Uint8Array =>
  renderTile({ features, drawingInfo, envelope, width: 256, height: 256 });
const point = (px: number, py: number, attributes: Record<string, unknown> = {}): RenderFeature => {
  const [x, y] = at(px, py);
  return { geometry: { x, y }, attributes };
};
/** A ring in map coordinates from pixel corners, clockwise on the map as Esri outer rings are. */
const ring = (x0: number, y0: number, x1: number, y1: number): number[][] => [
  at(x0, y0),
  at(x1, y0),
  at(x1, y1),
  at(x0, y1),
  at(x0, y0),
];

describe('renderTile', () => {
  it('colors the pixel under a point and leaves an empty place transparent, through PNG', async () => {
    const png = await throughPng(render([point(100.5, 60.5)], simple(RED_DOT)), 256, 256);
    expect(pixel(png, 256, 100, 60)).toEqual([255, 0, 0, 255]);
    expect(pixel(png, 256, 200, 200)).toEqual([0, 0, 0, 0]);
  });

  it('sizes markers in points at 96 DPI (6 pt = 8 px across)', () => {
    const tile = render([point(100, 60)], simple(RED_DOT));
    expect(pixel(tile, 256, 102, 60)[3]).toBe(255);
    expect(pixel(tile, 256, 103, 60)[3]).toBeGreaterThan(200);
    expect(pixel(tile, 256, 104, 60)[3]).toBe(0);
  });

  it('leaves the hole of a polygon transparent', async () => {
    const polygon = { geometry: { rings: [ring(20, 20, 200, 200), ring(80, 80, 140, 140)] } };
    const png = await throughPng(render([polygon], simple(BLUE_FILL)), 256, 256);
    expect(pixel(png, 256, 40, 40)).toEqual([0, 0, 255, 255]);
    expect(pixel(png, 256, 110, 110)).toEqual([0, 0, 0, 0]);
  });

  it('covers pixels cut by a polygon edge partially (antialiasing)', () => {
    const tile = render([{ geometry: { rings: [ring(20.5, 20, 200, 200)] } }], simple(BLUE_FILL));
    expect(pixel(tile, 256, 20, 100)[3]).toBe(128);
    expect(pixel(tile, 256, 21, 100)[3]).toBe(255);
  });

  it('draws a point just past the tile edge on both neighbouring tiles', () => {
    const [x, y] = at(257, 128);
    const features = [{ geometry: { x, y } }];
    const right = tileBounds({ ...TILE, col: TILE.col + 1 });
    expect(pixel(render(features, simple(RED_DOT)), 256, 255, 128)[3]).toBe(255);
    expect(pixel(render(features, simple(RED_DOT), right), 256, 1, 128)[3]).toBe(255);
  });

  it('renders nothing for features away from the tile', () => {
    const far = { geometry: { x: XMAX + 100 * RES, y: YMAX } };
    expect(isEmptyTile(render([far], simple(RED_DOT)))).toBe(true);
  });

  it('tells an empty tile from one with a single faint pixel', () => {
    const tile = new Uint8Array(256 * 256 * 4);
    expect(isEmptyTile(tile)).toBe(true);
    tile[(77 * 256 + 3) * 4 + 3] = 1;
    expect(isEmptyTile(tile)).toBe(false);
  });

  it('applies layer transparency to the layer as a whole', () => {
    const features = [point(50, 50), point(51, 50)];
    const tile = render(features, simple(RED_DOT, 50));
    expect(pixel(tile, 256, 50, 50)).toEqual([255, 0, 0, 128]);
  });

  it('strokes a line with its width in points', () => {
    const line = { geometry: { paths: [[at(10, 100), at(240, 100)]] } };
    const tile = render(
      [line],
      simple({ type: 'esriSLS', style: 'esriSLSSolid', color: [0, 128, 0, 255], width: 3 }),
    );
    // 3 pt = 4 px, centred on y = 100: rows 98 and 99 full, 97 empty.
    expect(pixel(tile, 256, 120, 98)).toEqual([0, 128, 0, 255]);
    expect(pixel(tile, 256, 120, 101)[3]).toBe(255);
    expect(pixel(tile, 256, 120, 96)[3]).toBe(0);
  });

  it('leaves gaps in a dashed line', () => {
    const line = { geometry: { paths: [[at(0, 100), at(256, 100)]] } };
    const tile = render(
      [line],
      simple({ type: 'esriSLS', style: 'esriSLSDash', color: [0, 0, 0, 255], width: 1.5 }),
    );
    const row = Array.from({ length: 256 }, (_, x) => pixel(tile, 256, x, 100)[3]);
    expect(row.filter((a) => a === 0).length).toBeGreaterThan(60);
    expect(row.filter((a) => a === 255).length).toBeGreaterThan(100);
  });

  it('fills a square marker into its corners where a circle leaves them empty', () => {
    const square = render([point(100, 100)], simple({ ...RED_DOT, style: 'esriSMSSquare', size: 12 }));
    const circle = render([point(100, 100)], simple({ ...RED_DOT, size: 12 }));
    expect(pixel(square, 256, 93, 93)[3]).toBe(255);
    expect(pixel(circle, 256, 93, 93)[3]).toBe(0);
  });

  it('draws every point of a multipoint', () => {
    const tile = render([{ geometry: { points: [at(30.5, 30.5), at(200.5, 150.5)] } }], simple(RED_DOT));
    expect(pixel(tile, 256, 30, 30)[3]).toBe(255);
    expect(pixel(tile, 256, 200, 150)[3]).toBe(255);
  });

  it('draws the outline of a fill symbol over its fill', () => {
    const symbol: EsriSymbol = {
      ...BLUE_FILL,
      outline: { type: 'esriSLS', style: 'esriSLSSolid', color: [0, 0, 0, 255], width: 1.5 },
    } as EsriSymbol;
    const tile = render([{ geometry: { rings: [ring(20, 20, 200, 200)] } }], simple(symbol));
    expect(pixel(tile, 256, 20, 100)).toEqual([0, 0, 0, 255]);
    expect(pixel(tile, 256, 100, 100)).toEqual([0, 0, 255, 255]);
  });

  it('hatches a fill, leaving pixels between the hatch lines empty', () => {
    const tile = render(
      [{ geometry: { rings: [ring(0, 0, 256, 256)] } }],
      simple({ type: 'esriSFS', style: 'esriSFSHorizontal', color: [0, 0, 0, 255] }),
    );
    expect(pixel(tile, 256, 10, 16)[3]).toBe(255);
    expect(pixel(tile, 256, 10, 17)[3]).toBe(0);
  });

  it('paints over a target buffer of earlier layers', () => {
    const below = render([{ geometry: { rings: [ring(0, 0, 256, 256)] } }], simple(BLUE_FILL));
    const both = renderTile({
      features: [point(100.5, 100.5)],
      drawingInfo: simple(RED_DOT),
      envelope: ENV,
      width: 256,
      height: 256,
      target: below,
    });
    expect(pixel(both, 256, 100, 100)).toEqual([255, 0, 0, 255]);
    expect(pixel(both, 256, 10, 10)).toEqual([0, 0, 255, 255]);
  });

  it('uses the default point symbology when drawingInfo has no renderer', () => {
    const tile = renderTile({ features: [point(60.5, 60.5)], envelope: ENV, width: 256, height: 256 });
    expect(pixel(tile, 256, 60, 60)).toEqual([0, 122, 194, 255]);
  });

  it('renders a metatile of any size', () => {
    const tile = renderTile({
      features: [point(100.5, 60.5)],
      drawingInfo: simple(RED_DOT),
      envelope: [XMIN, YMAX - 2 * 256 * RES, XMIN + 4 * 256 * RES, YMAX],
      width: 1024,
      height: 512,
    });
    expect(tile.length).toBe(1024 * 512 * 4);
    expect(pixel(tile, 1024, 100, 60)).toEqual([255, 0, 0, 255]);
  });
});
