/**
 * What crosses between a tile build's activity and its drawing thread (render-threads.ts,
 * render-work.ts): features packed for the crossing, and the messages both ways.
 */
import type { LocatedFeature } from '../../db/repositories/layer-features.js';
import type { Bounds, EsriGeometryType } from '../../lib/geometry/types.js';
import type { DrawingInfo, RgbaImage } from '../../lib/render/types.js';
import type { TileRange } from '../../lib/tiles/web-mercator.js';
import type { RangeShare } from './render-bundle.js';

/**
 * Features as they cross: points drawn without attributes (most of a point layer's reads) as one
 * Float64Array of x, y pairs over shared memory (every thread drawing a part of the range reads the same
 * bytes; nothing is copied); anything else as the objects themselves, copied by the structured clone.
 */
export type WireFeatures =
  | { xy: Float64Array; list?: undefined }
  | { list: LocatedFeature[]; xy?: undefined };

export interface WireLayer {
  drawingInfo: DrawingInfo | null;
  geometryType: EsriGeometryType;
  /** The layer's features for the whole range, or none when they are read for each metatile (`read`). */
  features?: WireFeatures;
}

/** Activity → thread. */
export type ToThread =
  | {
      type: 'render';
      job: number;
      range: TileRange;
      /** The part of the range's metatiles this job draws. */
      share: RangeShare;
      layers: WireLayer[];
      pictures: [string, RgbaImage][];
    }
  /** The next page of read `read`, or its end (`features` absent), or why it failed. */
  | { type: 'page'; job: number; read: number; features?: WireFeatures; error?: string };

export interface WireTile {
  level: number;
  row: number;
  col: number;
  png: Uint8Array;
}

/** Thread → activity. */
export type FromThread =
  /** Starts read `read` of layer `layer` over `area` and asks for its first page; `next` asks for the next. */
  | { type: 'read'; job: number; read: number; layer: number; area: Bounds }
  | { type: 'next'; job: number; read: number }
  /** The thread stopped reading `read` before its end. */
  | { type: 'close'; job: number; read: number }
  /** A metatile is done: the painted tiles answered since the last. */
  | { type: 'metatile'; job: number; tiles: WireTile[] }
  /** The range is drawn: its counts, and any painted tile not answered with a metatile. */
  | { type: 'done'; job: number; tiles: number; metatiles: number; rest: WireTile[] }
  | { type: 'failed'; job: number; message: string };

const isBarePoint = (f: LocatedFeature): boolean => {
  const g = f.geometry as { x?: unknown; y?: unknown };
  if (typeof g.x !== 'number' || typeof g.y !== 'number') return false;
  for (const _ in f.attributes) return false;
  return true;
};

/** Packs features for the crossing. */
export function packFeatures(features: LocatedFeature[]): WireFeatures {
  if (!features.every(isBarePoint)) return { list: features };
  const xy = new Float64Array(new SharedArrayBuffer(features.length * 16));
  for (let i = 0; i < features.length; i++) {
    const g = features[i].geometry as { x: number; y: number };
    xy[2 * i] = g.x;
    xy[2 * i + 1] = g.y;
  }
  return { xy };
}

const NO_ATTRIBUTES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** The features packed by packFeatures, as the drawing code takes them. */
export function unpackFeatures(wire: WireFeatures): LocatedFeature[] {
  if (wire.list) return wire.list;
  const { xy } = wire;
  const out: LocatedFeature[] = new Array(xy.length / 2);
  for (let i = 0; i < out.length; i++) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    out[i] = { geometry: { x, y }, attributes: NO_ATTRIBUTES, bounds: [x, y, x, y] };
  }
  return out;
}

/**
 * A tile's PNG as a buffer of its own, to transfer: a small Buffer may be a slice of Node's shared pool,
 * whose whole ArrayBuffer a transfer would take (and a structured clone would copy).
 */
export function ownBytes(png: Uint8Array): Uint8Array {
  return png.byteOffset === 0 && png.byteLength === png.buffer.byteLength ? png : new Uint8Array(png);
}
