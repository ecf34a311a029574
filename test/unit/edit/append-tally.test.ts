import { describe, expect, it } from 'vitest';
import { matchingField } from '../../../lib/edit/append-plan.js';
import { AppendTally, RESULT_LIMIT } from '../../../lib/edit/append-tally.js';
import { ROLLED_BACK } from '../../../lib/edit/edit-errors.js';

const ok = (objectId: number) => ({ objectId, uniqueId: objectId, globalId: null, success: true });
const bad = (description: string) => ({
  globalId: null,
  success: false,
  error: { code: 1000, description },
});

describe('the append tally', () => {
  it('counts every batch but keeps only the first RESULT_LIMIT results', () => {
    const tally = new AppendTally(2500);
    for (let b = 0; b < 5; b++)
      tally.add(
        {
          addResults: Array.from({ length: 500 }, (_, i) => ok(b * 500 + i + 1)),
          updateResults: [],
          areas: [],
        },
        0,
      );
    const answer = tally.answer('Completed');
    expect([answer.recordCount, answer.addedCount, answer.failedCount]).toEqual([2500, 2500, 0]);
    expect((answer.addResults as unknown[]).length).toBe(RESULT_LIMIT);
    expect((answer.addResults as { objectId: number }[])[RESULT_LIMIT - 1].objectId).toBe(RESULT_LIMIT);
    expect(answer.resultsTruncated).toBe(true);
  });

  it('a rolled-back answer reports successes as rolled back, adds without their ids, and names the failure', () => {
    const tally = new AppendTally(3);
    tally.add(
      { addResults: [ok(7), bad("Visits: 'many' is not a number")], updateResults: [ok(2)], areas: [] },
      1,
    );
    const answer = tally.answer('Failed');
    expect(answer.addResults).toEqual([
      { globalId: null, success: false, error: ROLLED_BACK },
      bad("Visits: 'many' is not a number"),
    ]);
    expect(answer.updateResults).toEqual([
      { objectId: 2, uniqueId: 2, globalId: null, success: false, error: ROLLED_BACK },
    ]);
    expect([answer.addedCount, answer.updatedCount, answer.failedCount, answer.skippedCount]).toEqual([
      0, 0, 1, 1,
    ]);
    expect(tally.failureDetails()).toEqual(["add 2: Visits: 'many' is not a number"]);
  });

  it('an edit the database refused marks its place in the stopped batch, the rest rolled back', () => {
    const tally = new AppendTally(3);
    tally.abort({ kind: 'add', index: 1, result: bad('value too long') }, { adds: 3, updates: 0 });
    expect(
      (tally.answer('Failed').addResults as { error: { code: number } }[]).map((r) => r.error.code),
    ).toEqual([1003, 1000, 1003]);
  });

  it('merges the touched areas into one past 500, dropping non-finite ones', () => {
    const tally = new AppendTally(600);
    const areas = Array.from({ length: 600 }, (_, i) => [i, 0, i + 1, 1] as [number, number, number, number]);
    tally.add({ addResults: [], updateResults: [], areas }, 0);
    expect(tally.areas()).toEqual([[0, 0, 600, 1]]);
    const empty = new AppendTally(1);
    empty.add({ addResults: [], updateResults: [], areas: [[Number.NaN, 0, 1, 1]] }, 0);
    expect(empty.areas()).toEqual([]);
  });
});

describe('the upsert matching field', () => {
  const fields = [
    { name: 'Name', column: 'a_1' },
    { name: 'Code', column: 'a_2' },
  ];
  it('is the object id by default and a uniquely indexed field by name, case-insensitively', () => {
    expect(matchingField(fields, [], undefined, 'OBJECTID')).toEqual({
      name: 'OBJECTID',
      column: 'objectid',
    });
    expect(matchingField(fields, [{ fields: 'code', isUnique: true }], 'CODE', 'OBJECTID')).toEqual({
      name: 'Code',
      column: 'a_2',
    });
  });
  it('refuses a field without a unique index and one the layer lacks', () => {
    expect(() => matchingField(fields, [{ fields: 'Code', isUnique: false }], 'Code', 'OBJECTID')).toThrow(
      'Unable to append.',
    );
    expect(() => matchingField(fields, [], 'Depth', 'OBJECTID')).toThrow('Unable to append.');
  });
});
