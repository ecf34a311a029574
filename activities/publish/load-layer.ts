/**
 * Loads one layer: source batches → (geocode) → rows checked and projected → COPY into the feature
 * table, one transaction per batch. After each batch it heartbeats the resume point; a retry (the
 * worker died, the database dropped) deletes whatever came after that point and carries on, so the
 * table ends with exactly one row per usable source row.
 */
import { createReadStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Context } from '@temporalio/activity';
import type { DatabaseHandle } from '../../db/client.js';
import {
  analyzeFeaturePart,
  copyColumns,
  copyRows,
  createFeatureTable,
  deleteRowsAfter,
  featurePartIndexes,
  featureTableExists,
  featureTableParts,
} from '../../db/repositories/feature-tables.js';
import { type ErrorRecord, insertErrorRecords, updateJobProgress } from '../../db/repositories/jobs.js';
import { beginLoadAttempt } from '../../db/repositories/load-attempts.js';
import type { LayerPlan, PublishRequest } from '../../db/schema/publish-request.js';
import { sharedBoundaryLookup } from '../../infra/boundary-service.js';
import { keepSpooled, takeKeptCopy, takeSpooled } from '../../infra/readers/sqlite-spool.js';
import { WGS84 } from '../../lib/geometry/types.js';
import type { CellValue } from '../../lib/ingest/index.js';
import { recordProgress } from '../heartbeat.js';
import { lookupOf, lookupRows } from './boundary-lookup-rows.js';
import { addedStats, copyDataStats, type LoadedStats, noRowsStats, statsLayout } from './copy-stats.js';
import { CsvEncoderThread, prestartCsvEncoderThread, type ThreadBatch } from './csv-encoder-thread.js';
import { CsvLoadThread, prestartCsvLoadThread } from './csv-load-thread.js';
import { type CsvDialect, csvByteBatches, csvByteBatchesOf } from './csv-source.js';
import { type GeocodeCounts, geocodeRows } from './geocoder.js';
import { layerBatches, type ResumePoint } from './layer-sources.js';
import type { PublishDeps } from './publish-deps.js';
import { createRemoteGeocoder, remoteGeocodeService } from './remote-geocoder.js';
import { createRowEncoder } from './row-encoder.js';
import { prestartSqliteEncoderThreads, SqliteEncoderThread } from './sqlite-encoder-thread.js';
import { measuredTextFields } from './sqlite-text-widths.js';
import type { ThreadCopy } from './thread-copy.js';

export interface LoadProgress extends ResumePoint {
  rowsLoaded: number;
  rowsRejected: number;
  /** The first few reasons rows were rejected, for the status message. */
  reasons: string[];
  /** Address layers: rows matched, tied and unmatched so far (part of the resume point). */
  geocoded?: GeocodeCounts;
  /**
   * What the committed rows put in the table so far (copy-stats.ts): absent when it cannot be told, as
   * after a resume point heartbeated without it.
   */
  stats?: LoadedStats;
}

export interface LoadResult {
  rowsRead: number;
  rowsLoaded: number;
  rowsRejected: number;
  reasons: string[];
  geocoded?: GeocodeCounts;
  /** The loaded table's count, extent and measured widths, for finishLayer; absent when not known. */
  stats?: LoadedStats;
}

const PROGRESS_EVERY_MS = 1000;

export async function loadLayer(
  deps: PublishDeps,
  jobId: string,
  request: PublishRequest,
  plan: LayerPlan,
  persistErrors: boolean,
  /** The resume point a previous attempt heartbeated; none to load from the start. */
  resumed: LoadProgress | undefined,
  /** Another layer of the same GeoPackage or SQLite file loads next: keep its temporary copy for it. */
  keepSourceCopy = false,
): Promise<LoadResult> {
  const { database } = deps;
  // Taken before touching the table: an older attempt still running stops at its next batch.
  const fence = await beginLoadAttempt(database, jobId, plan.id);
  let progress: LoadProgress;
  if (resumed && (await featureTableExists(database, plan.tableName))) {
    progress = resumed;
    await deleteRowsAfter(database, plan.tableName, progress.rowNumber);
  } else {
    const parts =
      database.kind === 'postgres' && !database.inTransaction
        ? partBoundsFor(estimatedRows(plan, request), deps.partRows ?? PART_ROWS)
        : [];
    await createFeatureTable(
      database,
      plan.tableName,
      plan.fields.map((f) => ({ name: f.name, column: f.column, type: f.type })),
      parts,
    );
    const start = plan.source.kind === 'csv' ? plan.source.dataOffset : 0;
    progress = {
      byteOffset: start,
      rowNumber: 0,
      rowsLoaded: 0,
      rowsRejected: 0,
      reasons: [],
      stats: noRowsStats(layoutOf(plan)),
    };
    recordProgress(progress);
  }
  const partIndexes = await PartIndexes.of(deps, plan, progress.rowNumber);
  let result: LoadResult;
  try {
    result = await loadRows(deps, jobId, request, plan, persistErrors, progress, fence, keepSourceCopy, (n) =>
      partIndexes.loadedUpTo(n),
    );
  } catch (e) {
    // No part's build is left running behind the activity: the table's own indexes (finishLayer)
    // would not see it and build the part's again.
    await partIndexes.settled();
    throw e;
  }
  // Every row is in: the parts left (the last among them) are built now, on both cores.
  await partIndexes.finish();
  return result;
}

/** Where a plan's COPY rows hold the figures finishLayer needs (copy-stats.ts). */
function layoutOf(plan: LayerPlan) {
  const columns = copyColumns(plan.fields.map((f) => ({ name: f.name, column: f.column, type: f.type })));
  return statsLayout(
    columns,
    measuredTextFields(plan).map((f) => f.column),
  );
}

/** Rows a part of a large table holds (createFeatureTable's partBounds). */
const PART_ROWS = 250_000;
/** At most this many parts: each adds a scan to every query's plan. */
const MAX_PARTS = 16;

/**
 * Where a table of about `rows` rows is cut into parts of about `partRows` (createFeatureTable); none
 * for a table of under two parts' rows, or when the count cannot be told before loading. The last part
 * is half the size of the others: its indexes are the ones built after the load.
 */
export function partBoundsFor(rows: number | undefined, partRows: number): number[] {
  if (rows === undefined || !(rows >= 2 * partRows) || !(partRows >= 1)) return [];
  const parts = Math.min(MAX_PARTS, Math.round(rows / partRows));
  const size = rows / (parts - 0.5);
  return Array.from({ length: parts - 1 }, (_, k) => 1 + Math.round((k + 1) * size));
}

/**
 * About how many rows a layer's source holds, where planning measured it: delimited text by its sample's
 * bytes per record, a GeoPackage or SQLite table by its count. A large GeoPackage loads in parts too:
 * its encoder threads take the cores during the load, but the parts left after it build two at a time
 * where one table's spatial index took one core for most of finishLayer (a million points: load and
 * finishLayer 3.82-3.94 s in parts against 4.87-5.03 s in one table).
 */
function estimatedRows(plan: LayerPlan, request: PublishRequest): number | undefined {
  const { source } = plan;
  if (source.kind === 'sqlite') return source.rows;
  if (source.kind !== 'csv' || !source.bytesPerRecord) return undefined;
  return Math.max(0, request.sourceSize - source.dataOffset) / source.bytesPerRecord;
}

/** How many parts are built at once after the load (PostgreSQL processes, one a part). */
const PARTS_AT_ONCE_AFTER_LOAD = 2;

/** One step of a part's build: an index, or its ANALYZE once both indexes are built. */
interface PartStep {
  part: string;
  run(db: DatabaseHandle): Promise<void>;
  /** An index step (the part's ANALYZE follows its last). */
  index: boolean;
}

/**
 * The indexes of a partitioned table's parts (featurePartIndexes, analyzeFeaturePart). During the load
 * each part is built as soon as the committed rows pass its upper bound, one step at a time on a pooled
 * connection (the load and PostgreSQL's COPY take most of the cores): its spatial index, its object-id
 * index, its ANALYZE. Once every row is in, the steps left run two at a time, a part's two indexes at
 * once as well, so the second process is not left idle while the last long build ends (a million points:
 * the part still building when the load ended took 0.8 s, the last part 0.3 s beside it). A step that
 * fails is left to finishLayer, which builds what a part lacks.
 */
class PartIndexes {
  private readonly ready: PartStep[] = [];
  /** Index steps not yet ended, by part. */
  private readonly indexesLeft = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private atOnce = 1;
  /** The load failed (settled): no ANALYZE is started after an index that was running. */
  private stopped = false;
  private constructor(
    private readonly deps: PublishDeps,
    private readonly plan: LayerPlan,
    /** Parts not yet complete, in object id order; `to` null for the last. */
    private readonly waiting: { name: string; to: number | null }[],
    /** How many parts the table has (each is sampled by its share of the statistics target). */
    private readonly parts: number,
  ) {}

  static async of(deps: PublishDeps, plan: LayerPlan, rowNumber: number): Promise<PartIndexes> {
    const { database } = deps;
    const parts =
      database.kind === 'postgres' && !database.inTransaction
        ? await featureTableParts(database, plan.tableName)
        : [];
    const waiting = parts.filter((p) => !(p.indexed && p.analyzed)).map((p) => ({ name: p.name, to: p.to }));
    const indexes = new PartIndexes(deps, plan, waiting, parts.length);
    indexes.loadedUpTo(rowNumber);
    return indexes;
  }

  /** The rows up to object id `rowNumber` are committed: every part complete now is built. */
  loadedUpTo(rowNumber: number): void {
    while (this.waiting.length > 0) {
      const { to } = this.waiting[0];
      if (to === null || to - 1 > rowNumber) break;
      this.schedule((this.waiting.shift() as { name: string }).name);
    }
    this.pump();
  }

  private schedule(part: string): void {
    const builds = featurePartIndexes(part, this.plan.geometryType);
    this.indexesLeft.set(part, builds.length);
    for (const run of builds) this.ready.push({ part, run, index: true });
  }

  private pump(): void {
    while (this.running.size < this.atOnce && this.ready.length > 0) {
      const step = this.ready.shift() as PartStep;
      const build: Promise<void> = step
        .run(this.deps.database)
        .catch((e: unknown) => {
          console.warn(
            `[publish] indexing ${step.part} during the load failed (finishLayer builds it): ${e instanceof Error ? e.message : String(e)}`,
          );
        })
        .finally(() => {
          this.running.delete(build);
          if (step.index) this.indexEnded(step.part);
          this.pump();
        });
      this.running.add(build);
    }
  }

  /** After a part's last index, its ANALYZE goes first. */
  private indexEnded(part: string): void {
    const left = (this.indexesLeft.get(part) ?? 1) - 1;
    this.indexesLeft.set(part, left);
    if (left > 0) return;
    this.indexesLeft.delete(part);
    // Not after a failed load (settled): what was not started is left to finishLayer.
    if (this.stopped) return;
    this.ready.unshift({ part, run: (db) => analyzeFeaturePart(db, part, this.parts), index: false });
  }

  /** Every row is loaded: builds every part left, two at a time, and waits for all. */
  async finish(): Promise<void> {
    this.atOnce = PARTS_AT_ONCE_AFTER_LOAD;
    for (const p of this.waiting.splice(0)) this.schedule(p.name);
    this.pump();
    await this.drained();
  }

  /** Waits for the builds under way, starting no more (the load failed). */
  settled(): Promise<void> {
    this.stopped = true;
    this.ready.length = 0;
    return this.drained();
  }

  private async drained(): Promise<void> {
    // A build that ends starts the next ready one (pump), so the set is looked at again.
    while (this.running.size > 0) await Promise.all(this.running);
  }
}

/** The load of `plan`'s rows into its table from `progress` on; `committed` hears each committed point. */
async function loadRows(
  deps: PublishDeps,
  jobId: string,
  request: PublishRequest,
  plan: LayerPlan,
  persistErrors: boolean,
  start: LoadProgress,
  fence: Awaited<ReturnType<typeof beginLoadAttempt>>,
  keepSourceCopy: boolean,
  committed: (rowNumber: number) => void,
): Promise<LoadResult> {
  const { database } = deps;
  const ctx = Context.current();
  let progress = start;
  const columns = copyColumns(plan.fields.map((f) => ({ name: f.name, column: f.column, type: f.type })));
  const layout = layoutOf(plan);
  let lastReport = 0;
  /** Heartbeats a committed resume point; the job's counts at most once a second. */
  const report = async (point: LoadProgress) => {
    recordProgress(point);
    committed(point.rowNumber);
    const now = deps.now();
    // In a transaction (a small publish on PostgreSQL) no one could see the counts before the end.
    if (!database.inTransaction && now - lastReport >= PROGRESS_EVERY_MS) {
      lastReport = now;
      await updateJobProgress(
        database.db,
        jobId,
        {
          layerId: plan.id,
          rowsRead: point.rowNumber,
          rowsLoaded: point.rowsLoaded,
          rowsRejected: point.rowsRejected,
        },
        now,
      );
    }
  };
  // On PostgreSQL the threads copy the batches themselves, on connections of their own.
  const copy: ThreadCopy | undefined =
    database.reopen && !database.inTransaction
      ? { database: database.reopen as ThreadCopy['database'], table: plan.tableName, columns, fence }
      : undefined;
  // One COPY in flight while the next batch is prepared: PostgreSQL and the encoder use a core each.
  // A batch's progress is heartbeated only once its COPY has committed.
  let inFlight: Promise<unknown> | null = null;
  let afterInFlight: LoadProgress = progress;
  const settle = async () => {
    if (!inFlight) return;
    const failure = await inFlight;
    inFlight = null;
    if (failure) throw failure;
    await report(afterInFlight);
  };
  const batches = encodesOnThread(plan, request)
    ? copy
      ? csvThreadLoad(deps.store, request, plan, progress, copy)
      : threadBatches(deps.store, request, plan, progress)
    : decodesSqliteOnThread(plan, request)
      ? sqliteThreadBatches(deps.store, request, plan, progress, keepSourceCopy, copy)
      : inProcessBatches(deps, request, plan, progress);
  for await (const batch of batches) {
    if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
    await settle();
    const { loaded, rejected, tied } = batch;
    // The figures of a batch a thread encoded are the ones its encoder kept; a committed batch without
    // them has none, and the data copied here is read for them otherwise.
    const stats =
      batch.stats ?? (batch.committed ? undefined : copyDataStats(loaded > 0 ? batch.data : '', layout));
    progress = advanced(progress, batch, stats);
    afterInFlight = progress;
    if (batch.committed) {
      // A thread copied it on its own connection: only its rejected rows and its progress are left.
      if (persistErrors) await insertErrorRecords(database.db, jobId, [...rejected, ...tied]);
      await report(progress);
      continue;
    }
    // The failure is caught at once (and rethrown by settle) so it is never an unhandled rejection.
    inFlight = (async () => {
      // Every batch passes the fence, even one whose rows were all rejected.
      await copyRows(database, plan.tableName, columns, loaded > 0 ? batch.data : '', fence);
      if (persistErrors) await insertErrorRecords(database.db, jobId, [...rejected, ...tied]);
    })().then(
      () => null,
      (e: unknown) => e ?? new Error('COPY failed'),
    );
  }
  await settle();
  return loadResult(progress);
}

/** The progress after a batch: its counts and figures added, the first five reasons kept. */
function advanced(
  progress: LoadProgress,
  batch: Pick<PreparedBatch, 'loaded' | 'rejected' | 'next' | 'geocoded'>,
  batchStats: LoadedStats | undefined,
): LoadProgress {
  const { loaded, rejected } = batch;
  const reasons =
    progress.reasons.length < 5
      ? [
          ...progress.reasons,
          ...rejected.slice(0, 5 - progress.reasons.length).map((r) => `Row ${r.rowNumber}: ${r.reason}`),
        ]
      : progress.reasons;
  const geocoded = batch.geocoded ?? progress.geocoded;
  const stats = addedStats(progress.stats, batchStats);
  return {
    ...batch.next,
    rowsLoaded: progress.rowsLoaded + loaded,
    rowsRejected: progress.rowsRejected + rejected.length,
    reasons,
    ...(geocoded ? { geocoded } : {}),
    ...(stats ? { stats } : {}),
  };
}

function loadResult(progress: LoadProgress): LoadResult {
  // Figures that disagree with the rows counted as loaded are not trusted: finishLayer scans instead.
  const { stats } = progress;
  return {
    rowsRead: progress.rowNumber,
    rowsLoaded: progress.rowsLoaded,
    rowsRejected: progress.rowsRejected,
    reasons: progress.reasons,
    ...(progress.geocoded ? { geocoded: progress.geocoded } : {}),
    ...(stats && stats.rows === progress.rowsLoaded ? { stats } : {}),
  };
}

/** A batch ready for COPY, with the resume point after it. */
interface PreparedBatch {
  data: Uint8Array;
  /** Copied and committed already (by a thread on its own connection); `data` is empty. */
  committed?: boolean;
  loaded: number;
  rejected: ErrorRecord[];
  /** Rows published but also kept for review (tied geocodes). */
  tied: ErrorRecord[];
  next: ResumePoint;
  /** Geocoding counts up to and including this batch. */
  geocoded?: GeocodeCounts;
  /** The batch's figures, as the thread that encoded it told them (copy-stats.ts). */
  stats?: LoadedStats;
}

/**
 * Below this size a file is encoded on the activity's thread: starting the encoder thread (and its
 * TypeScript loader) costs more than encoding a batch or two, and there is nothing to overlap.
 */
const THREAD_MIN_BYTES = 4 * 1024 * 1024;

/** Delimited text located by x/y columns (or not at all) is parsed and encoded on its own thread. */
const encodesOnThread = (plan: LayerPlan, request: PublishRequest) =>
  plan.source.kind === 'csv' &&
  (plan.location.type === 'coordinates' || plan.location.type === 'none') &&
  request.sourceSize >= THREAD_MIN_BYTES;

/**
 * SQLite encoder threads held idle from a worker's start: what a large file takes on two cores (more
 * cores take more, started on their first such load). An idle one holds about 30 MB.
 */
const PRESTARTED_SQLITE_THREADS = 2;

/**
 * A worker's first CSV load takes a thread started ahead (spare-threads.ts): the load thread on
 * PostgreSQL, the encoder thread on PGlite. Later loads find the threads their kind last used. A
 * first GeoPackage or SQLite load finds PRESTARTED_SQLITE_THREADS encoder threads, two seconds later
 * (after the CSV thread and the tile drawing threads: threads start one after another), and a load
 * that used one thread leaves two idle for a later load that takes both.
 */
export function prestartLoadThreads(kind: 'postgres' | 'pglite', delayMs: number): void {
  if (kind === 'postgres') prestartCsvLoadThread(delayMs);
  else prestartCsvEncoderThread(delayMs);
  prestartSqliteEncoderThreads(PRESTARTED_SQLITE_THREADS, delayMs + 2000);
}

/** Bytes of whole records in each batch of a thread's load: one transaction and one heartbeat each. */
const THREAD_LOAD_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * A CSV load on PostgreSQL (outside a transaction): the load thread reads the file and copies it on
 * its own connection, so the file's bytes and their COPY data never pass the activity's thread; the
 * batches come here committed.
 */
async function* csvThreadLoad(
  store: PublishDeps['store'],
  request: PublishRequest,
  plan: LayerPlan,
  start: ResumePoint,
  copy: ThreadCopy,
): AsyncGenerator<PreparedBatch> {
  // The upload's own file when the API kept it in this process for this object, else the object.
  const local = await takeKeptCopy(store, request.sourceKey);
  let thread: CsvLoadThread;
  try {
    thread = new CsvLoadThread({
      plan,
      targetSR: request.targetSR,
      geometrySR: plan.sourceSR,
      start: { byteOffset: start.byteOffset, rowNumber: start.rowNumber },
      source: local
        ? { path: local.path, size: request.sourceSize }
        : { url: await store.readUrl(request.sourceKey), size: request.sourceSize },
      ...copy,
      batchBytes: THREAD_LOAD_BATCH_BYTES,
    });
  } catch (e) {
    await local?.remove();
    throw e;
  }
  try {
    for await (const b of thread.committed()) {
      yield {
        data: NO_DATA,
        committed: true,
        loaded: b.loaded,
        rejected: b.rejected,
        tied: [],
        next: b.next,
        ...(b.stats ? { stats: b.stats } : {}),
      };
    }
  } finally {
    await thread.close();
    // A retry reads the object.
    await local?.remove();
  }
}

const NO_DATA = new Uint8Array(0);

/** GeoPackage and SQLite tables without geocoding or lookups are read and encoded on their own thread. */
const decodesSqliteOnThread = (plan: LayerPlan, request: PublishRequest) =>
  plan.source.kind === 'sqlite' &&
  plan.location.type !== 'address' &&
  !lookupOf(plan) &&
  request.sourceSize >= THREAD_MIN_BYTES;

/**
 * From this size a GeoPackage or SQLite table is read by several encoder threads, each decoding every
 * n-th batch: one thread was the whole load's limit (it decodes and encodes; PostgreSQL waited on it).
 */
const SQLITE_PARTS_MIN_BYTES = 32 * 1024 * 1024;
/** Threads sharing one table: every core, up to this many (PostgreSQL's COPY takes one batch at a time). */
const MAX_SQLITE_PARTS = 4;

/** How many encoder threads share a source of `bytes` bytes. */
export const sqliteParts = (bytes: number): number =>
  bytes < SQLITE_PARTS_MIN_BYTES ? 1 : Math.max(2, Math.min(MAX_SQLITE_PARTS, availableParallelism()));

/**
 * Batches read and encoded by SQLite encoder threads from a spooled copy (planning's when it ran in this
 * process). With several threads, batch k is thread k mod n's; batches are taken in table order, two per
 * thread asked ahead, so progress and resume points are those of one reader.
 */
async function* sqliteThreadBatches(
  store: PublishDeps['store'],
  request: PublishRequest,
  plan: LayerPlan,
  start: ResumePoint,
  keepCopy: boolean,
  /** The threads copy their batches themselves (each on its own connection); they come committed. */
  copy?: ThreadCopy,
): AsyncGenerator<PreparedBatch> {
  const source = plan.source as Extract<LayerPlan['source'], { kind: 'sqlite' }>;
  // The copy planning kept in this process (or the previous layer's load), else a new one.
  const key = source.objectKey ?? request.sourceKey;
  const spooled = await takeSpooled(store, key);
  const parts = sqliteParts(request.sourceSize);
  const threads = Array.from(
    { length: parts },
    (_, part) =>
      new SqliteEncoderThread({
        path: spooled.path,
        plan,
        targetSR: request.targetSR,
        geometrySR: plan.sourceSR,
        start,
        ...(parts > 1 ? { share: { part, parts } } : {}),
        ...(copy ? { copy } : {}),
      }),
  );
  let asked = 0;
  const ask = () => {
    const p = threads[asked++ % parts].next();
    // Awaited in order below; a failure while an earlier batch is awaited must not go unhandled.
    p.catch(() => {});
    return p;
  };
  try {
    const waiting = Array.from({ length: 2 * parts }, ask);
    for (;;) {
      const b = await (waiting.shift() as (typeof waiting)[number]);
      // The first batch that is not there ends the table: no later batch is either.
      if (!b) break;
      waiting.push(ask());
      yield {
        data: b.data,
        ...(copy ? { committed: true } : {}),
        loaded: b.loaded,
        rejected: b.rejected,
        tied: [],
        next: b.next,
        ...(b.stats ? { stats: b.stats } : {}),
      };
    }
  } finally {
    await Promise.all(threads.map((t) => t.close()));
    // Kept for the next layer of the same file (removed when none takes it within a minute).
    if (keepCopy) await keepSpooled(key, spooled);
    else await spooled.remove();
  }
}

/** Batches encoded by the CSV encoder thread: up to two waiting there while one is copied. */
async function* threadBatches(
  store: PublishDeps['store'],
  request: PublishRequest,
  plan: LayerPlan,
  start: ResumePoint,
): AsyncGenerator<PreparedBatch> {
  const dialect = (plan.source as { dialect: CsvDialect }).dialect;
  const thread = new CsvEncoderThread(plan, request.targetSR, plan.sourceSR, start.rowNumber);
  const waiting: Promise<ThreadBatch & { nextByteOffset: number }>[] = [];
  let rowNumber = start.rowNumber;
  const take = async (): Promise<PreparedBatch> => {
    const b = await (waiting.shift() as (typeof waiting)[number]);
    rowNumber += b.rows;
    return {
      data: b.data,
      loaded: b.loaded,
      rejected: b.rejected,
      tied: [],
      next: { byteOffset: b.nextByteOffset, rowNumber },
      ...(b.stats ? { stats: b.stats } : {}),
    };
  };
  let local: Awaited<ReturnType<typeof takeKeptCopy>>;
  try {
    // The upload's own file when the API kept it in this process for this object, else the object.
    local = await takeKeptCopy(store, request.sourceKey);
    const raws = local
      ? csvByteBatchesOf(
          createReadStream(local.path, { start: start.byteOffset, highWaterMark: 1024 * 1024 }),
          dialect,
          start.byteOffset,
        )
      : csvByteBatches(store, request.sourceKey, dialect, start.byteOffset);
    for await (const raw of raws) {
      const encoded = thread.encode(raw.bytes).then((b) => ({ ...b, nextByteOffset: raw.nextByteOffset }));
      // Awaited in order below; a failure while an earlier batch is awaited must not go unhandled.
      encoded.catch(() => {});
      waiting.push(encoded);
      if (waiting.length >= 2) yield await take();
    }
    while (waiting.length > 0) yield await take();
  } finally {
    await thread.close();
    // A retry reads the object.
    await local?.remove();
  }
}

/** Batches read, geocoded or looked up when needed, and encoded on the activity's thread. */
async function* inProcessBatches(
  deps: PublishDeps,
  request: PublishRequest,
  plan: LayerPlan,
  start: LoadProgress,
): AsyncGenerator<PreparedBatch> {
  const lookup = lookupOf(plan);
  const boundaries = lookup ? await (deps.boundaries ?? sharedBoundaryLookup)() : undefined;
  const geometrySR = plan.location.type === 'address' || lookup ? WGS84 : plan.sourceSR;
  const remote = remoteGeocodeService(plan.location);
  const names = plan.location.type === 'address' ? plan.location.standardizedFieldNames : undefined;
  const geocoder = remote ? createRemoteGeocoder(remote, deps.outbound, names) : deps.geocoder;
  const encoder = createRowEncoder(plan, request.targetSR, geometrySR);
  let geocoded = start.geocoded;
  for await (const batch of layerBatches(deps.store, request, plan, start, deps.parseLimits)) {
    let geometries = batch.geometries;
    let tied: ErrorRecord[] = [];
    if (plan.location.type === 'address' || (lookup && boundaries)) {
      const result =
        lookup && boundaries
          ? lookupRows(boundaries, lookup, batch.rows)
          : await geocodeRows(
              geocoder,
              plan.location as Extract<LayerPlan['location'], { type: 'address' }>,
              plan.headers,
              batch.rows,
              batch.firstRowNumber,
            );
      geometries = result.geometries;
      tied = tiedRecords(plan.id, batch.rows, batch.firstRowNumber, result.tiedRows);
      const before = geocoded ?? { matched: 0, tied: 0, unmatched: 0 };
      geocoded = {
        matched: before.matched + result.counts.matched,
        tied: before.tied + result.counts.tied,
        unmatched: before.unmatched + result.counts.unmatched,
      };
    }
    const encoded = encoder.encode(batch.rows, batch.firstRowNumber, geometries);
    yield {
      data: encoded.data,
      loaded: encoded.loaded,
      rejected: encoded.rejected,
      tied,
      next: batch.next,
      ...(geocoded ? { geocoded } : {}),
    };
  }
}

export const TIED_REASON =
  'The address matched more than one candidate equally well; it was published at the best of them.';

/** Tied rows still publish, and are also kept for review with the reason that says so. */
function tiedRecords(
  layerId: number,
  rows: readonly CellValue[][],
  firstRowNumber: number,
  tiedRows: readonly number[],
): ErrorRecord[] {
  return tiedRows.map((i) => ({
    layerId,
    rowNumber: firstRowNumber + i + 1,
    reason: TIED_REASON,
    record: rows[i].map((v) => (v instanceof Date ? v.toISOString() : (v ?? null))),
  }));
}
