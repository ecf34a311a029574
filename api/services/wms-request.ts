/**
 * OGC WMS 1.1.1 and 1.3.0 request parameters, read as the standard says: names in any case, the CRS
 * as `SRS` (1.1.1) or `CRS` (1.3.0), and the BBOX axis order of the CRS in 1.3.0 (latitude first for
 * EPSG:4326, longitude first for CRS:84 and in 1.1.1). Bad input is a WmsException with the standard's
 * exception code, rendered as a ServiceExceptionReport.
 */
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import type { RequestParams } from '../params.js';
import { MAX_IMAGE_SIZE } from './map-request-params.js';

export type WmsVersion = '1.1.1' | '1.3.0';

export class WmsException extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WmsException';
  }
}

/** The CRSs offered (WGS84 and Web Mercator, as every web map uses), by their WMS names. */
export const WMS_CRS: Record<string, { sr: SpatialReference; latFirst130: boolean }> = {
  'EPSG:3857': { sr: { wkid: 102100, latestWkid: 3857 }, latFirst130: false },
  'EPSG:102100': { sr: { wkid: 102100, latestWkid: 3857 }, latFirst130: false },
  'EPSG:4326': { sr: { wkid: 4326 }, latFirst130: true },
  'CRS:84': { sr: { wkid: 4326 }, latFirst130: false },
};

export const WMS_FORMATS: Record<string, 'png' | 'png8' | 'jpg'> = {
  'image/png': 'png',
  'image/png8': 'png8',
  'image/jpeg': 'jpg',
};

export function wmsVersion(params: RequestParams): WmsVersion {
  const v = params.get('version') ?? params.get('wmtver') ?? '1.3.0';
  if (v === '1.1.1' || v === '1.1.0' || v === '1.1') return '1.1.1';
  return '1.3.0';
}

const required = (params: RequestParams, name: string): string => {
  const v = params.get(name.toLowerCase())?.trim();
  if (!v) throw new WmsException('MissingParameterValue', `The ${name} parameter is required.`);
  return v;
};

export function readCrs(params: RequestParams, version: WmsVersion) {
  const name = required(params, version === '1.3.0' ? 'CRS' : 'SRS').toUpperCase();
  const crs = WMS_CRS[name];
  if (!crs)
    throw new WmsException(
      version === '1.3.0' ? 'InvalidCRS' : 'InvalidSRS',
      `${name} is not offered; use ${Object.keys(WMS_CRS).join(', ')}.`,
    );
  return { name, ...crs };
}

export function readBbox(params: RequestParams, version: WmsVersion, latFirst130: boolean): Bounds {
  const n = required(params, 'BBOX').split(',').map(Number);
  if (n.length !== 4 || !n.every(Number.isFinite))
    throw new WmsException('InvalidParameterValue', 'BBOX must be four numbers: minx,miny,maxx,maxy.');
  const [a, b, c, d] = version === '1.3.0' && latFirst130 ? [n[1], n[0], n[3], n[2]] : n;
  if (!(c > a && d > b))
    throw new WmsException('InvalidParameterValue', 'BBOX is empty: its minima must be below its maxima.');
  return [a, b, c, d];
}

export function readSize(params: RequestParams): { width: number; height: number } {
  const read = (name: string) => {
    const text = required(params, name);
    const v = Number(text);
    if (!Number.isInteger(v) || v < 1 || v > MAX_IMAGE_SIZE)
      throw new WmsException(
        'InvalidParameterValue',
        `${name} must be an integer from 1 to ${MAX_IMAGE_SIZE}.`,
      );
    return v;
  };
  return { width: read('WIDTH'), height: read('HEIGHT') };
}

/** LAYERS (or QUERY_LAYERS): layer names, which are the layer ids as ArcGIS names them. */
export function readLayerNames(params: RequestParams, name: string, known: readonly number[]): number[] {
  const ids = required(params, name)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const id = /^\d+$/.test(s) ? Number(s) : Number.NaN;
      if (!known.includes(id))
        throw new WmsException(
          'LayerNotDefined',
          `Layer '${s}' is not defined; the layers are ${known.join(', ')}.`,
        );
      return id;
    });
  if (ids.length === 0) throw new WmsException('MissingParameterValue', `The ${name} parameter is required.`);
  return ids;
}

/** STYLES: empty or `default` for each layer (each layer has its one drawingInfo). */
export function checkStyles(params: RequestParams): void {
  const styles = params.get('styles');
  for (const s of (styles ?? '').split(',').map((x) => x.trim()))
    if (s && s.toLowerCase() !== 'default')
      throw new WmsException(
        'StyleNotDefined',
        `Style '${s}' is not defined; each layer has the style 'default'.`,
      );
}

export function readFormat(params: RequestParams) {
  const name = required(params, 'FORMAT').toLowerCase();
  const format = WMS_FORMATS[name];
  if (!format)
    throw new WmsException(
      'InvalidFormat',
      `${name} is not offered; use ${Object.keys(WMS_FORMATS).join(', ')}.`,
    );
  return format;
}

export function readTransparent(params: RequestParams): boolean {
  const v = (params.get('transparent') ?? 'FALSE').toUpperCase();
  if (v !== 'TRUE' && v !== 'FALSE')
    throw new WmsException('InvalidParameterValue', 'TRANSPARENT must be TRUE or FALSE.');
  return v === 'TRUE';
}

/** BGCOLOR 0xRRGGBB (white by default). */
export function readBackground(params: RequestParams): [number, number, number, number] {
  const v = params.get('bgcolor');
  if (!v) return [255, 255, 255, 255];
  const m = /^0x([0-9a-f]{6})$/i.exec(v.trim());
  if (!m) throw new WmsException('InvalidParameterValue', 'BGCOLOR must be 0xRRGGBB.');
  const n = Number.parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 255];
}

/** The pixel GetFeatureInfo asks about: I/J in 1.3.0, X/Y in 1.1.1, inside the image. */
export function readPixel(
  params: RequestParams,
  version: WmsVersion,
  size: { width: number; height: number },
) {
  const [xName, yName] = version === '1.3.0' ? ['I', 'J'] : ['X', 'Y'];
  const read = (name: string, max: number) => {
    const v = Number(required(params, name));
    if (!Number.isInteger(v) || v < 0 || v >= max)
      throw new WmsException(
        version === '1.3.0' ? 'InvalidPoint' : 'InvalidParameterValue',
        `${name} must be a pixel of the image (0 to ${max - 1}).`,
      );
    return v;
  };
  return { x: read(xName, size.width), y: read(yName, size.height) };
}
