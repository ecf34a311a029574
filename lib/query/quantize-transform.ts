import type { Bounds } from '../geometry/types.js';
import type { QuantizationParameters } from './quantize-parameters.js';

/**
 * The integer grid of a quantized answer, as ArcGIS returns it (`transform` in JSON, Transform in
 * PBF): world x = translate[0] + qx * scale[0]; world y = translate[1] - qy * scale[1] from an
 * upper-left origin (y grows downwards, as on a screen) or translate[1] + qy * scale[1] from a
 * lower-left one.
 */
export interface QuantizeTransform {
  originPosition: 'upperLeft' | 'lowerLeft';
  scale: [number, number];
  translate: [number, number];
  /** PBF answers with z or m: value = translate + cell · scale (zScale/zTranslate, mScale/mTranslate). */
  z?: OrdinateGrid;
  m?: OrdinateGrid;
}

export interface OrdinateGrid {
  scale: number;
  translate: number;
}

/** The finest grid PBF's 32-bit coordinates need without quantizationParameters. */
const FINEST_CELL = 1e-9;
const MAX_CELLS = 2 ** 31 - 1;

/** ArcGIS's default when neither tolerance nor maxAllowableOffset is given: 10^6 cells across. */
const DEFAULT_CELLS = 1e6;

/**
 * The grid a request's quantizationParameters describe. `extent` is the parameters' extent already in
 * the output spatial reference, or null to use the bounds of the answer's geometries (`resultBounds`,
 * null when there are none).
 */
export function requestedTransform(
  q: QuantizationParameters,
  extent: Bounds | null,
  resultBounds: Bounds | null,
  maxAllowableOffset: number | null,
): QuantizeTransform {
  const b = extent ?? resultBounds ?? [0, 0, 0, 0];
  const span = Math.max(b[2] - b[0], b[3] - b[1]);
  const cell = q.tolerance ?? maxAllowableOffset ?? (span > 0 ? span / DEFAULT_CELLS : 1);
  return {
    originPosition: q.originPosition,
    scale: [cell, cell],
    translate: [b[0], q.originPosition === 'upperLeft' ? b[3] : b[1]],
  };
}

/**
 * The grid of an f=pbf answer asked without quantizationParameters (the format has integer
 * coordinates only): the smallest power of ten, 1e-9 at finest, whose cells cover the answer's
 * bounds within 32 bits, so every coordinate comes back within half a cell of its stored value.
 */
export function finestTransform(resultBounds: Bounds | null): QuantizeTransform {
  const b = resultBounds ?? [0, 0, 0, 0];
  const span = Math.max(b[2] - b[0], b[3] - b[1]);
  let cell = FINEST_CELL;
  while (span / cell > MAX_CELLS) cell *= 10;
  // Powers of ten built by repeated multiplication drift (1e-9 * 10 ≠ 1e-8); read the decimal back.
  cell = Number(cell.toPrecision(1));
  return { originPosition: 'upperLeft', scale: [cell, cell], translate: [b[0], b[3]] };
}

/**
 * The grid of z or m values from `min` to `max`: the smallest power of ten, 1e-9 at finest, that
 * covers the span within 32 bits, from the smallest value (so every value is within half a cell).
 */
export function finestOrdinateGrid(min: number, max: number): OrdinateGrid {
  const span = max > min ? max - min : 0;
  let cell = FINEST_CELL;
  while (span / cell > MAX_CELLS) cell *= 10;
  return { scale: Number(cell.toPrecision(1)), translate: Number.isFinite(min) ? min : 0 };
}

/** The transform as ArcGIS writes it in a JSON answer (z and m members unused: 0). */
export function transformJson(t: QuantizeTransform): Record<string, unknown> {
  return {
    originPosition: t.originPosition,
    scale: [t.scale[0], t.scale[1], 0, 0],
    translate: [t.translate[0], t.translate[1], 0, 0],
  };
}
