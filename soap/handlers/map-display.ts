/**
 * The map area a MapDescription and ImageDisplay describe, fitted to the image's aspect ratio the
 * way ExportMapImage draws it (keep the centre, grow the short side), and the conversions every
 * display-based operation shares: scale, pixel ↔ map coordinates, pixel tolerance → map units.
 */
import type { Bounds, SpatialReference as EsriSpatialReference } from '../../lib/geometry/types.js';
import { clientFault } from '../fault.js';
import type { Envelope, ImageDisplay, MapDescription, Point } from '../schema/generated-types.js';
import type { HostedMap } from './map-context.js';
import { fromSoapSpatialReference } from './wire-geometry.js';

/** Esri's constants: 39.37 inches per metre and 111319.49079327358 metres per degree at the equator. */
export const INCHES_PER_METER = 39.37;
export const METERS_PER_DEGREE = 111319.49079327358;
export const DEFAULT_DPI = 96;
export const MAX_IMAGE_SIZE = 4096;

export interface MapView {
  /** The fitted extent: the image's pixels cover exactly this. */
  extent: Bounds;
  width: number;
  height: number;
  dpi: number;
  /** Map units per pixel. */
  resolution: number;
  scale: number;
  sr: EsriSpatialReference;
}

const GEOGRAPHIC = new Set([4326, 4269, 4267, 4258, 4283]);

export function metersPerUnit(sr: EsriSpatialReference): number {
  const wkid = sr.latestWkid ?? sr.wkid;
  return wkid !== undefined && GEOGRAPHIC.has(wkid) ? METERS_PER_DEGREE : 1;
}

function envelopeBounds(e: Envelope | undefined): Bounds | null {
  if (!e) return null;
  if (e.$type !== 'EnvelopeN') throw clientFault('Envelope type EnvelopeB is not supported; send EnvelopeN.');
  if (![e.XMin, e.YMin, e.XMax, e.YMax].every(Number.isFinite))
    throw clientFault('The map extent is not a number.');
  return [
    Math.min(e.XMin, e.XMax),
    Math.min(e.YMin, e.YMax),
    Math.max(e.XMin, e.XMax),
    Math.max(e.YMin, e.YMax),
  ];
}

const centerOf = (p: Point | undefined, fallback: Bounds): [number, number] =>
  p?.$type === 'PointN' ? [p.X, p.Y] : [(fallback[0] + fallback[2]) / 2, (fallback[1] + fallback[3]) / 2];

/** The map's default extent, a little wider than the data (or the world when there is none). */
export function defaultExtent(map: HostedMap): Bounds {
  const e = map.extent;
  if (!e) return [-20037508.342789244, -20037508.342789244, 20037508.342789244, 20037508.342789244];
  const padX = Math.max((e[2] - e[0]) * 0.05, 100);
  const padY = Math.max((e[3] - e[1]) * 0.05, 100);
  return [e[0] - padX, e[1] - padY, e[2] + padX, e[3] + padY];
}

/** The requested extent before fitting, from whichever MapArea kind the client sent. */
export function requestedExtent(md: MapDescription, display: ImageDisplay, map: HostedMap): Bounds {
  const area = md.MapArea;
  const sr = fromSoapSpatialReference(md.SpatialReference) ?? map.spatialReference;
  const fallback = defaultExtent(map);
  if (!area) return fallback;
  switch (area.$type) {
    case 'CenterAndScale': {
      const [cx, cy] = centerOf(area.Center, envelopeBounds(area.Extent) ?? fallback);
      const dpi = area.DPI || display.ImageDPI || DEFAULT_DPI;
      const res = area.Scale / (dpi * INCHES_PER_METER * metersPerUnit(sr));
      const [hw, hh] = [(display.ImageWidth * res) / 2, (display.ImageHeight * res) / 2];
      return [cx - hw, cy - hh, cx + hw, cy + hh];
    }
    case 'CenterAndSize': {
      const [cx, cy] = centerOf(area.Center, envelopeBounds(area.Extent) ?? fallback);
      return [cx - area.Width / 2, cy - area.Height / 2, cx + area.Width / 2, cy + area.Height / 2];
    }
    default:
      return envelopeBounds(area.Extent) ?? fallback;
  }
}

export function checkDisplay(display: ImageDisplay | undefined): {
  width: number;
  height: number;
  dpi: number;
} {
  const width = display?.ImageWidth ?? 400;
  const height = display?.ImageHeight ?? 400;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw clientFault(`Invalid image size ${width}×${height}.`);
  }
  return {
    width: Math.min(width, MAX_IMAGE_SIZE),
    height: Math.min(height, MAX_IMAGE_SIZE),
    dpi: display?.ImageDPI && display.ImageDPI > 0 ? display.ImageDPI : DEFAULT_DPI,
  };
}

/** Grows the short side of `extent` about its centre so it has the image's aspect ratio. */
export function fitExtent(extent: Bounds, width: number, height: number): Bounds {
  let [xmin, ymin, xmax, ymax] = extent;
  if (xmax - xmin <= 0 || ymax - ymin <= 0) throw clientFault('The map extent is empty.');
  const res = Math.max((xmax - xmin) / width, (ymax - ymin) / height);
  const [cx, cy] = [(xmin + xmax) / 2, (ymin + ymax) / 2];
  [xmin, xmax] = [cx - (res * width) / 2, cx + (res * width) / 2];
  [ymin, ymax] = [cy - (res * height) / 2, cy + (res * height) / 2];
  return [xmin, ymin, xmax, ymax];
}

export function mapView(md: MapDescription, display: ImageDisplay | undefined, map: HostedMap): MapView {
  const { width, height, dpi } = checkDisplay(display);
  const sr = fromSoapSpatialReference(md.SpatialReference) ?? map.spatialReference;
  const extent = fitExtent(
    requestedExtent(md, { ImageWidth: width, ImageHeight: height, ImageDPI: dpi }, map),
    width,
    height,
  );
  const resolution = (extent[2] - extent[0]) / width;
  const scale = resolution * dpi * INCHES_PER_METER * metersPerUnit(sr);
  return { extent, width, height, dpi, resolution, scale, sr };
}

/** Pixel (0,0 top-left, y down) to map; pixels are addressed by their top-left corner. */
export const toMap = (v: MapView, px: number, py: number): [number, number] => [
  v.extent[0] + px * v.resolution,
  v.extent[3] - py * v.resolution,
];

/** Map to pixel, rounded to the nearest pixel. */
export const toScreen = (v: MapView, x: number, y: number): [number, number] => [
  Math.round((x - v.extent[0]) / v.resolution),
  Math.round((v.extent[3] - y) / v.resolution),
];

/** Whether a layer with this scale range draws at the view's scale (0 means no limit). */
export function visibleAtScale(scale: number, minScale: unknown, maxScale: unknown): boolean {
  const min = Number(minScale) || 0;
  const max = Number(maxScale) || 0;
  return (min === 0 || scale <= min) && (max === 0 || scale >= max);
}
