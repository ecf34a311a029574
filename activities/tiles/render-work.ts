/**
 * Runs in a drawing thread (render-threads.ts): draws the tile ranges it is handed with renderRange,
 * several at once, and answers each metatile's painted tiles as PNGs. The features come with the range,
 * or, for a layer too large to hold for a range, page by page on request: the database stays with the
 * activity's thread (the embedded PGlite is one connection in that thread).
 */
import { parentPort } from 'node:worker_threads';
import type { DrawnFeatures } from '../../db/repositories/layer-features.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { MarkerSpriteCache } from '../../lib/render/marker-sprites.js';
import type { RgbaImage } from '../../lib/render/types.js';
import { type LayerFeatures, renderRange } from './render-bundle.js';
import {
  type FromThread,
  ownBytes,
  type ToThread,
  unpackFeatures,
  type WireFeatures,
  type WireTile,
} from './render-wire.js';

const port = parentPort;
if (!port) throw new Error('The drawing thread runs in a worker thread.');

const send = (m: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

/** Pages asked for and not yet answered, by job and read. */
const waiting = new Map<string, { resolve(w: WireFeatures | undefined): void; reject(e: Error): void }>();
let nextRead = 0;

/** A layer's features read for each metatile: pages asked of the activity's thread one at a time. */
function pagedRead(job: number, layer: number) {
  return (area: Bounds): AsyncIterable<DrawnFeatures> => ({
    [Symbol.asyncIterator]() {
      const read = nextRead++;
      const key = `${job}/${read}`;
      let started = false;
      let ended = false;
      return {
        next() {
          if (ended) return Promise.resolve({ done: true, value: undefined });
          const page = new Promise<WireFeatures | undefined>((resolve, reject) =>
            waiting.set(key, { resolve, reject }),
          );
          send(started ? { type: 'next', job, read } : { type: 'read', job, read, layer, area });
          started = true;
          return page.then(
            (w) => {
              waiting.delete(key);
              if (!w) {
                ended = true;
                return { done: true, value: undefined };
              }
              return { done: false, value: unpackFeatures(w) };
            },
            (e) => {
              waiting.delete(key);
              ended = true;
              throw e;
            },
          );
        },
        return() {
          if (started && !ended) send({ type: 'close', job, read });
          ended = true;
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  });
}

async function render(m: Extract<ToThread, { type: 'render' }>) {
  const { job, range } = m;
  let tiles: WireTile[] = [];
  // Everything of the range is inside: whatever fails, fails this range alone, not the thread's others.
  try {
    const pictures = new Map<string, RgbaImage>(m.pictures);
    const layers: LayerFeatures[] = m.layers.map((l, i) => {
      const layer = { drawingInfo: l.drawingInfo, geometryType: l.geometryType };
      const sprites = new MarkerSpriteCache(96);
      return l.features
        ? { layer, sprites, features: unpackFeatures(l.features) }
        : { layer, sprites, read: pagedRead(job, i) };
    });
    const result = await renderRange(
      range,
      layers,
      pictures,
      (t) => void tiles.push({ level: t.level, row: t.row, col: t.col, png: ownBytes(t.png) }),
      () => {
        const batch = tiles;
        tiles = [];
        send(
          { type: 'metatile', job, tiles: batch },
          batch.map((t) => t.png.buffer as ArrayBuffer),
        );
      },
      m.share,
    );
    send(
      { type: 'done', job, tiles: result.tiles, metatiles: result.metatiles, rest: tiles },
      tiles.map((t) => t.png.buffer as ArrayBuffer),
    );
  } catch (e) {
    send({ type: 'failed', job, message: e instanceof Error ? e.message : String(e) });
  }
}

port.on('message', (m: ToThread) => {
  if (m.type === 'render') {
    void render(m);
    return;
  }
  const key = `${m.job}/${m.read}`;
  const w = waiting.get(key);
  if (!w) return;
  if (m.error !== undefined) w.reject(new Error(m.error));
  else w.resolve(m.features);
});
