/**
 * What an append reports, gathered batch by batch so memory stays flat in the source's size: counts of
 * every kind, the first RESULT_LIMIT add and update results (ArcGIS's job status carries no per-row
 * results; ours lists the first ones so a client can find its new features), the first failures'
 * descriptions, and the touched areas for the tile caches (merged into one past MAX_AREAS).
 */
import { unionBounds } from '../geometry/bounds.js';
import type { Bounds } from '../geometry/types.js';
import { type EditError, ROLLED_BACK } from './edit-errors.js';

export interface TalliedResult {
  objectId?: number;
  uniqueId?: number;
  globalId: null;
  success: boolean;
  error?: EditError;
}

export interface TalliedOutcome {
  addResults: TalliedResult[];
  updateResults: TalliedResult[];
  areas: Bounds[];
}

/** The edit the database refused while edits were all or nothing (see EditAborted). */
export interface AbortedEdit {
  kind: 'add' | 'update';
  index: number;
  result: TalliedResult;
}

export const RESULT_LIMIT = 1000;
const FAILURE_LIMIT = 20;
const MAX_AREAS = 500;

const failed = (error: EditError, objectId?: number): TalliedResult => ({
  ...(objectId !== undefined ? { objectId, uniqueId: objectId } : {}),
  globalId: null,
  success: false,
  error,
});

export class AppendTally {
  private readonly adds: TalliedResult[] = [];
  private readonly updates: TalliedResult[] = [];
  private readonly failures: string[] = [];
  private touched: Bounds[] = [];
  private addCount = 0;
  private updateCount = 0;
  added = 0;
  updated = 0;
  failed = 0;
  skipped = 0;

  constructor(private readonly recordCount: number) {}

  get succeeded(): number {
    return this.added + this.updated;
  }

  add(outcome: TalliedOutcome, skipped: number): void {
    this.skipped += skipped;
    this.take('add', outcome.addResults);
    this.take('update', outcome.updateResults);
    this.touched.push(...outcome.areas);
    if (this.touched.length > MAX_AREAS) this.touched = [unionBounds(this.touched) as Bounds];
  }

  /**
   * The batch the database stopped: its `adds` and `updates` edits were all undone but the refused
   * one, which reports the database's error.
   */
  abort(at: AbortedEdit, batch: { adds: number; updates: number }): void {
    const of = (kind: 'add' | 'update', n: number) =>
      Array.from({ length: n }, (_, i) =>
        kind === at.kind && i === at.index ? at.result : failed(ROLLED_BACK),
      );
    this.take('add', of('add', batch.adds));
    this.take('update', of('update', batch.updates));
  }

  private take(kind: 'add' | 'update', results: readonly TalliedResult[]): void {
    const list = kind === 'add' ? this.adds : this.updates;
    for (const r of results) {
      const position = kind === 'add' ? this.addCount++ : this.updateCount++;
      if (list.length < RESULT_LIMIT) list.push(r);
      if (r.success) {
        if (kind === 'add') this.added++;
        else this.updated++;
      } else if (r.error !== ROLLED_BACK) {
        this.failed++;
        if (this.failures.length < FAILURE_LIMIT)
          this.failures.push(`${kind} ${position + 1}: ${r.error?.description ?? 'failed'}`);
      }
    }
  }

  areas(): Bounds[] {
    return this.touched.filter((a) => a.every(Number.isFinite));
  }

  failureDetails(): string[] {
    return this.failures.length > 0 ? [...this.failures] : ['The append was rolled back.'];
  }

  /** The job's answer; a Failed one under rollbackOnFailure reports every success as rolled back. */
  answer(status: 'Completed' | 'Failed'): Record<string, unknown> & { status: 'Completed' | 'Failed' } {
    const undone = status === 'Failed';
    const undo = (r: TalliedResult, keepId: boolean) =>
      undone && r.success ? failed(ROLLED_BACK, keepId ? r.objectId : undefined) : r;
    return {
      status,
      recordCount: this.recordCount,
      addedCount: undone ? 0 : this.added,
      updatedCount: undone ? 0 : this.updated,
      failedCount: this.failed,
      skippedCount: this.skipped,
      // Ids handed out to adds that were undone are not theirs any more.
      addResults: this.adds.map((r) => undo(r, false)),
      updateResults: this.updates.map((r) => undo(r, true)),
      ...(this.addCount > RESULT_LIMIT || this.updateCount > RESULT_LIMIT ? { resultsTruncated: true } : {}),
    };
  }
}
