/**
 * Draws an alternating scale bar: a round ground length (1, 2 or 5 × 10ⁿ in the bar's units) that
 * fits the image, split into divisions of alternating fill, with the labels 0, the midpoint and
 * the length, and the unit abbreviation after it.
 */
import { Canvas } from '../../lib/render/canvas.js';
import type { geoUnits } from '../schema/generated-types.js';
import { drawText, fillRect, TEXT_HEIGHT, textWidth } from './pixel-font.js';

export const UNIT_METERS: Partial<Record<geoUnits, [number, string]>> = {
  geoInches: [0.0254, 'in'],
  geoFeet: [0.3048, 'ft'],
  geoYards: [0.9144, 'yd'],
  geoMiles: [1609.344, 'mi'],
  geoNauticalMiles: [1852, 'nmi'],
  geoMillimeters: [0.001, 'mm'],
  geoCentimeters: [0.01, 'cm'],
  geoMeters: [1, 'm'],
  geoKilometers: [1000, 'km'],
  geoDecimeters: [0.1, 'dm'],
};

export interface ScaleBarInput {
  width: number;
  height: number;
  /** Ground metres one pixel of the map covers. */
  metersPerPixel: number;
  units: geoUnits;
  divisions: number;
  barColor: readonly [number, number, number];
  background?: readonly [number, number, number];
}

export interface ScaleBarLayout {
  /** The bar's ground length in its units. */
  length: number;
  unitLabel: string;
  /** The bar's length in pixels. */
  barPixels: number;
}

export function niceLength(max: number): number {
  const p = 10 ** Math.floor(Math.log10(max));
  for (const f of [5, 2, 1]) if (f * p <= max) return f * p;
  return p;
}

const label = (v: number): string => String(Number(v.toPrecision(6)));

export function layoutScaleBar(input: ScaleBarInput): ScaleBarLayout {
  const [perUnit, unitLabel] = UNIT_METERS[input.units] ?? UNIT_METERS.geoMeters!;
  const size = Math.max(1, Math.floor(input.height / 12));
  const reserved = textWidth(` ${unitLabel}`, size) + textWidth('00000', size) / 2 + 4;
  const available = Math.max(8, input.width - reserved);
  const unitsPerPixel = (input.metersPerPixel * 1) / perUnit;
  const length = niceLength(available * unitsPerPixel);
  return { length, unitLabel, barPixels: Math.max(1, Math.round(length / unitsPerPixel)) };
}

export function drawScaleBar(input: ScaleBarInput): { rgba: Uint8Array; layout: ScaleBarLayout } {
  const canvas = new Canvas(input.width, input.height);
  if (input.background) fillRect(canvas, 0, 0, input.width, input.height, input.background);
  const layout = layoutScaleBar(input);
  const size = Math.max(1, Math.floor(input.height / 12));
  const x0 = 2;
  const barTop = Math.round(input.height * 0.2);
  const barHeight = Math.max(2, Math.round(input.height * 0.3));
  const divisions = Math.max(1, Math.min(10, Math.round(input.divisions)));
  const step = layout.barPixels / divisions;
  const white: [number, number, number] = [255, 255, 255];
  fillRect(canvas, x0 - 1, barTop - 1, layout.barPixels + 2, barHeight + 2, input.barColor);
  for (let i = 0; i < divisions; i++) {
    fillRect(canvas, x0 + i * step, barTop, step, barHeight, i % 2 === 0 ? input.barColor : white);
  }
  const textTop = barTop + barHeight + size * 2;
  if (textTop + TEXT_HEIGHT * size <= input.height) {
    const marks = [0, layout.length / 2, layout.length];
    for (const [i, v] of marks.entries()) {
      const text = label(v);
      const cx = x0 + (layout.barPixels * i) / 2;
      const left = Math.min(input.width - textWidth(text, size), Math.max(0, cx - textWidth(text, size) / 2));
      drawText(canvas, text, left, textTop, size, input.barColor);
    }
  }
  drawText(canvas, layout.unitLabel, x0 + layout.barPixels + 2 * size + 2, barTop, size, input.barColor);
  return { rgba: canvas.data, layout };
}
