/**
 * What crosses between a tile build's activity and its drawing thread (render-threads.ts,
 * render-work.ts): features packed for the crossing, and the messages both ways.
 */
import type { DrawnFeatures, LocatedFeature } from '../../db/repositories/layer-features.js';
import type { Bounds, EsriGeometryType } from '../../lib/geometry/types.js';
import { isPacked, type PackedPoints } from '../../lib/render/packed-points.js';
import type { DrawingInfo, RgbaImage } from '../../lib/render/types.js';
import type { TileRange } from '../../lib/tiles/web-mercator.js';
import type { RangeShare } from './render-bundle.js';

/**
 * Features as they cross: points drawn without attributes (most of a point layer's reads) packed, over
 * shared memory (every thread drawing a part of the range reads the same bytes; nothing is copied);
 * anything else as the objects themselves, copied by the structured clone.
 */
export type WireFeatures = PackedPoints | { list: LocatedFeature[]; xy?: undefined };

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

/** Packs a read for the crossing: points in shared memory, anything else as it is. */
export function packFeatures(features: DrawnFeatures): WireFeatures {
  if (isPacked(features)) {
    if (features.xy.buffer instanceof SharedArrayBuffer) return features;
    const xy = new Float64Array(new SharedArrayBuffer(features.xy.byteLength));
    xy.set(features.xy);
    return { xy };
  }
  if (!features.every(isBarePoint)) return { list: features };
  const xy = new Float64Array(new SharedArrayBuffer(features.length * 16));
  for (let i = 0; i < features.length; i++) {
    const g = features[i].geometry as { x: number; y: number };
    xy[2 * i] = g.x;
    xy[2 * i + 1] = g.y;
  }
  return { xy };
}

/** A read as it crossed, as the drawing code takes it. */
export const unpackFeatures = (wire: WireFeatures): DrawnFeatures => (wire.xy ? { xy: wire.xy } : wire.list);

/**
 * A tile's PNG as a buffer of its own, to transfer: a small Buffer may be a slice of Node's shared pool,
 * whose whole ArrayBuffer a transfer would take (and a structured clone would copy).
 */
export function ownBytes(png: Uint8Array): Uint8Array {
  return png.byteOffset === 0 && png.byteLength === png.buffer.byteLength ? png : new Uint8Array(png);
}
