import { describe, expect, it } from 'vitest';
import { databaseEditError, databaseErrorFacts } from '../../../lib/edit/database-edit-error.js';

describe('database refusals as edit errors', () => {
  it('names the column of a NOT NULL refusal', () => {
    expect(databaseEditError({ code: '23502', column: 'a_1' })).toEqual({
      code: 1000,
      description: 'Field a_1 cannot be null.',
    });
  });

  it('maps unique, check, length and other data exceptions; leaves other errors to the caller', () => {
    expect(databaseEditError({ code: '23505' })?.description).toMatch(/unique index/);
    expect(databaseEditError({ code: '23514' })?.description).toMatch(/check/);
    expect(databaseEditError({ code: '22001' })?.description).toBe(
      'A value is longer than its field allows.',
    );
    expect(databaseEditError({ code: '22003' })?.description).toBe(
      'A value does not fit the type of its field.',
    );
    expect(databaseEditError({ code: '40P01' })).toBeNull();
    expect(databaseEditError({})).toBeNull();
  });

  it('reads the facts from postgres.js, PGlite and a wrapping error', () => {
    expect(databaseErrorFacts({ code: '23502', column_name: 'a_0' })).toEqual({
      code: '23502',
      column: 'a_0',
    });
    expect(databaseErrorFacts({ code: '23502', column: 'a_0' })).toEqual({ code: '23502', column: 'a_0' });
    const wrapped = Object.assign(new Error('Failed query'), { cause: { code: '23505' } });
    expect(databaseErrorFacts(wrapped)).toEqual({ code: '23505', column: undefined });
    expect(databaseErrorFacts(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toEqual({});
  });
});
