import type { EsriEnvelope, EsriPolygon } from '../../../lib/geometry/types.js';

/** Shapes the predicate tests share: squares (clockwise, as Esri outer rings run) and a square with a hole. */
export const square = (x0: number, y0: number, x1: number, y1: number): EsriPolygon => ({
  rings: [
    [
      [x0, y0],
      [x0, y1],
      [x1, y1],
      [x1, y0],
      [x0, y0],
    ],
  ],
});

export const envelope = (xmin: number, ymin: number, xmax: number, ymax: number): EsriEnvelope => ({
  xmin,
  ymin,
  xmax,
  ymax,
});

/** A 10×10 square with a 4×4 hole (counter-clockwise) in the middle. */
export const donut: EsriPolygon = {
  rings: [
    ...square(0, 0, 10, 10).rings,
    [
      [3, 3],
      [7, 3],
      [7, 7],
      [3, 7],
      [3, 3],
    ],
  ],
};

export const line = (...coords: number[][]) => ({ paths: [coords] });
