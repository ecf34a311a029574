/**
 * Tile ranges drawn on threads of their own (render-work.ts). A cache build drew every bundle on the
 * worker's one thread, which also runs Temporal's SDK, the feature reads and (embedded) PGlite: on two
 * cores that thread was the build's limit while the other core sat mostly idle (bench/README.md,
 * "Session 23"). Here the activity's thread reads the features and hands them over (points as packed
 * coordinates in shared memory), and drawing threads draw, cut and encode the range, a part each, and
 * answer each metatile's tiles as they are done. A layer too large to hold for a range is read page by
 * page as a thread asks for it, so the database stays on the activity's thread.
 *
 * The threads are kept once started (a thread's start, with its TypeScript loader and module graph,
 * takes a good part of a second), idle ones unreferenced so they never hold the process open. Each
 * takes several parts at once (a part waiting for a page or for zlib leaves its thread to another).
 */
import { AsyncResource } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DrawnFeatures } from '../../db/repositories/layer-features.js';
import { threadEntry } from '../../infra/thread-bundles.js';
import { internalError } from '../../lib/errors.js';
import type { RgbaImage } from '../../lib/render/types.js';
import { metatilesInRange } from '../../lib/tiles/metatile.js';
import type { TileRange } from '../../lib/tiles/web-mercator.js';
import {
  type LayerFeatures,
  METATILE,
  type RangeShare,
  type RenderedTile,
  renderRange,
} from './render-bundle.js';
import {
  type FromThread,
  packFeatures,
  type ToThread,
  type WireLayer,
  type WireTile,
} from './render-wire.js';

const workerUrl = threadEntry(
  new URL('./render-work.ts', import.meta.url),
  new URL('./render-worker.mjs', import.meta.url),
);

/**
 * A drawing thread's heap: a range holds its layers' features (at most FEATURES_AT_ONCE a layer read at
 * once, about 170 bytes each as drawn) and a few 4 MiB metatile buffers. A thread that runs out fails
 * its ranges, and the activity's retry draws them again; the worker's own heap is untouched.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 64, maxOldGenerationSizeMb: 2048 };

/** Where a range's tiles and progress go, from every part of it, in order and never two at once. */
interface Sink {
  onTile(tile: RenderedTile): Promise<void> | void;
  /** One more metatile of the range is done. */
  onMetatile(): void;
  chain: Promise<void>;
}

/** One part of a range, drawn on one thread. */
interface Job {
  layers: LayerFeatures[];
  sink: Sink;
  resolve(result: { tiles: number; metatiles: number }): void;
  reject(e: unknown): void;
  /** The layer reads open for the thread, by its read number. */
  reads: Map<number, AsyncIterator<DrawnFeatures>>;
  /** A read that failed here: the error the range fails with, rather than the thread's copy of it. */
  failure?: unknown;
  /** Runs `f` in the caller's async context (its activity's, for heartbeats), not the thread's. */
  inCaller<T>(f: () => T): T;
}

interface DrawingThread {
  worker: Worker;
  jobs: Map<number, Job>;
  gone: boolean;
}

/** Drawing threads when the configuration names none (TILE_DRAW_THREADS): one per core. */
export const DEFAULT_DRAW_THREADS = availableParallelism();

/**
 * Draws a range on a drawing thread, or on this one when `threadsAtMost` is 0 (renderRange itself):
 * the same tiles either way.
 */
export function drawRange(
  threadsAtMost: number,
  ...args: RangeDrawing
): Promise<{ tiles: number; metatiles: number }> {
  return threadsAtMost > 0 ? renderRangeOnThread(threadsAtMost, ...args) : renderRange(...args);
}

/** What drawing a range is given, wherever it is drawn (renderRange's arguments). */
type RangeDrawing = [
  range: TileRange,
  layers: LayerFeatures[],
  pictures: ReadonlyMap<string, RgbaImage>,
  onTile: (tile: RenderedTile) => Promise<void> | void,
  onMetatile: (done: number) => void,
];

const threads: DrawingThread[] = [];
let nextJob = 0;

function startThread(): DrawingThread {
  const worker = new Worker(workerUrl(), { execArgv: [], resourceLimits: RESOURCE_LIMITS });
  const thread: DrawingThread = { worker, jobs: new Map(), gone: false };
  worker.on('message', (m: FromThread) => onMessage(thread, m));
  const stop = (why: string) => {
    if (thread.gone) return;
    thread.gone = true;
    const at = threads.indexOf(thread);
    if (at >= 0) threads.splice(at, 1);
    for (const [id, job] of thread.jobs) {
      thread.jobs.delete(id);
      closeReads(job);
      job.reject(internalError('Unable to complete operation.', [`The tile drawing thread stopped: ${why}`]));
    }
  };
  worker.on('error', (e) => stop(e.message));
  worker.on('exit', (code) => stop(`exit code ${code}`));
  // After the listeners: a 'message' listener added to a Worker refers its port again, and an idle
  // drawing thread so referred kept a worker's process from ending once it had shut down.
  worker.unref();
  threads.push(thread);
  return thread;
}

/** An idle thread, else a new one while fewer than `most` run, else the least busy. */
function threadFor(most: number): DrawingThread {
  const idle = threads.find((t) => t.jobs.size === 0);
  if (idle) return idle;
  if (threads.length < most) return startThread();
  return threads.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
}

/**
 * Has `count` drawing threads started (and idle) ahead of a build's first range, `delayMs` from now (a
 * worker at its start lets its own start pass first).
 */
export function prestartDrawingThreads(count: number, delayMs = 0): void {
  if (delayMs > 0) {
    setTimeout(() => prestartDrawingThreads(count), delayMs).unref();
    return;
  }
  while (threads.length < count) startThread();
}

/** Ends every drawing thread (tests; a worker leaves idle ones unreferenced); their ranges fail. */
export async function endDrawingThreads(): Promise<void> {
  await Promise.all(threads.splice(0).map((t) => t.worker.terminate()));
}

/** The number of drawing threads running (for tests). */
export const drawingThreadCount = (): number => threads.length;

/**
 * renderRange on drawing threads, with the same tiles, in the same calls: `onTile` for each painted tile
 * and `onMetatile` as metatiles are done, never two at once. A range of several metatiles is drawn in as
 * many parts as there are threads (every n-th metatile each: a bundle is most of a build's last levels);
 * its features cross once, shared by the parts. `threadsAtMost` is the most drawing threads the process
 * runs. When a part fails, the others are let finish, then the range fails with the first failure.
 */
export async function renderRangeOnThread(
  threadsAtMost: number,
  ...[range, layers, pictures, onTile, onMetatile]: RangeDrawing
): Promise<{ tiles: number; metatiles: number }> {
  const most = Math.max(1, threadsAtMost);
  let metatiles = 0;
  for (const _ of metatilesInRange(range, METATILE)) metatiles++;
  const of = Math.max(1, Math.min(most, metatiles));
  const wireLayers: WireLayer[] = layers.map((l) => {
    const base = { drawingInfo: l.layer.drawingInfo, geometryType: l.layer.geometryType };
    return l.features ? { ...base, features: packFeatures(l.features) } : base;
  });
  let done = 0;
  // The thread's messages arrive in the context its Worker was made in (a prestart's, or an earlier
  // build's activity): the calls back, a heartbeat among them, run in this caller's.
  const inCaller = AsyncResource.bind(<T>(f: () => T): T => f());
  const sink: Sink = {
    onTile: (t) => inCaller(() => onTile(t)),
    onMetatile: () => inCaller(() => onMetatile(++done)),
    chain: Promise.resolve(),
  };
  const parts = await Promise.allSettled(
    Array.from({ length: of }, (_, index) =>
      drawPart(threadFor(most), range, { index, of }, layers, wireLayers, pictures, sink, inCaller),
    ),
  );
  const failed = parts.find((p) => p.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return parts.reduce(
    (sum, p) => {
      const r = (p as PromiseFulfilledResult<{ tiles: number; metatiles: number }>).value;
      return { tiles: sum.tiles + r.tiles, metatiles: sum.metatiles + r.metatiles };
    },
    { tiles: 0, metatiles: 0 },
  );
}

function drawPart(
  thread: DrawingThread,
  range: TileRange,
  share: RangeShare,
  layers: LayerFeatures[],
  wireLayers: WireLayer[],
  pictures: ReadonlyMap<string, RgbaImage>,
  sink: Sink,
  inCaller: Job['inCaller'],
): Promise<{ tiles: number; metatiles: number }> {
  const id = nextJob++;
  return new Promise<{ tiles: number; metatiles: number }>((resolve, reject) => {
    thread.jobs.set(id, { layers, sink, resolve, reject, reads: new Map(), inCaller });
    thread.worker.ref();
    const message: ToThread = {
      type: 'render',
      job: id,
      range,
      share,
      layers: wireLayers,
      pictures: [...pictures],
    };
    thread.worker.postMessage(message);
  }).finally(() => {
    if (thread.jobs.size === 0 && !thread.gone) thread.worker.unref();
  });
}

const asTile = (t: WireTile): RenderedTile => ({ level: t.level, row: t.row, col: t.col, png: t.png });

function onMessage(thread: DrawingThread, m: FromThread) {
  const job = thread.jobs.get(m.job);
  if (!job) return;
  const answer = (message: ToThread) => thread.gone || thread.worker.postMessage(message);
  switch (m.type) {
    case 'read': {
      const layer = job.layers[m.layer];
      if (!layer?.read) {
        answer({ type: 'page', job: m.job, read: m.read, error: `Layer ${m.layer} is not read in pages.` });
        return;
      }
      const read = layer.read;
      job.reads.set(
        m.read,
        job.inCaller(() => read(m.area)[Symbol.asyncIterator]()),
      );
      pump(job, m.job, m.read, answer);
      return;
    }
    case 'next':
      pump(job, m.job, m.read, answer);
      return;
    case 'close': {
      const it = job.reads.get(m.read);
      job.reads.delete(m.read);
      void it?.return?.().catch(() => {});
      return;
    }
    case 'metatile': {
      const { sink } = job;
      sink.chain = sink.chain.then(async () => {
        for (const t of m.tiles) await sink.onTile(asTile(t));
        sink.onMetatile();
      });
      // A refusal is the range's failure, answered when the thread is done with it.
      sink.chain.catch(() => {});
      return;
    }
    case 'done': {
      thread.jobs.delete(m.job);
      closeReads(job);
      const { sink } = job;
      const result = { tiles: m.tiles, metatiles: m.metatiles };
      sink.chain = sink.chain.then(async () => {
        for (const t of m.rest) await sink.onTile(asTile(t));
      });
      sink.chain.then(() => job.resolve(result), job.reject);
      return;
    }
    case 'failed': {
      thread.jobs.delete(m.job);
      closeReads(job);
      const failure = job.failure ?? new Error(m.message);
      // Tiles already answered are handed over first, as the range drawn here would have.
      job.sink.chain.then(
        () => job.reject(failure),
        () => job.reject(failure),
      );
      return;
    }
  }
}

/** Answers the next page of read `read`, or its end, or its failure (kept as the range's failure). */
function pump(job: Job, jobId: number, read: number, answer: (m: ToThread) => unknown) {
  const it = job.reads.get(read);
  if (!it) {
    answer({ type: 'page', job: jobId, read });
    return;
  }
  job
    .inCaller(() => it.next())
    .then(
      (r) => {
        if (r.done) {
          job.reads.delete(read);
          answer({ type: 'page', job: jobId, read });
          return;
        }
        answer({ type: 'page', job: jobId, read, features: packFeatures(r.value) });
      },
      (e) => {
        job.reads.delete(read);
        job.failure ??= e;
        answer({ type: 'page', job: jobId, read, error: e instanceof Error ? e.message : String(e) });
      },
    );
}

function closeReads(job: Job) {
  for (const it of job.reads.values()) void it.return?.().catch(() => {});
  job.reads.clear();
}
