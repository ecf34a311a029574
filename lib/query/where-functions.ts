import type { ValueKind } from './field-types.js';
import { fragment, join, type SqlFragment } from './sql-chunks.js';
import type { FunctionName } from './where-ast.js';

/**
 * The standardized SQL functions ArcGIS documents for hosted layers (string, math and the AGOL
 * additions COALESCE and NULLIF), with their arity, argument families and PostgreSQL rendering.
 * EXTRACT, CAST and TRIM have keyword syntax and are separate AST nodes.
 */
export type ArgKind = ValueKind | 'any' | 'same';

export interface FunctionSpec {
  min: number;
  max: number;
  /** Kind of each argument; the last entry repeats for variadic functions. */
  args: ArgKind[];
  /** `same` means the kind of the first non-null argument. */
  result: ValueKind | 'same';
  render: (args: SqlFragment[]) => SqlFragment;
}

const call =
  (pgName: string) =>
  (args: SqlFragment[]): SqlFragment =>
    fragment(`${pgName}(`, join(args, ', '), ')');

/** PostgreSQL's two-argument round/trunc/mod are defined on numeric, so the operands are cast. */
const numericCall =
  (pgName: string) =>
  (args: SqlFragment[]): SqlFragment =>
    fragment(
      `${pgName}(`,
      join(
        args.map((a, i) =>
          i === 0 || pgName === 'mod' ? fragment('(', a, ')::numeric') : fragment('(', a, ')::integer'),
        ),
        ', ',
      ),
      ')',
    );

export const FUNCTIONS: Readonly<Record<FunctionName, FunctionSpec>> = {
  UPPER: { min: 1, max: 1, args: ['string'], result: 'string', render: call('upper') },
  LOWER: { min: 1, max: 1, args: ['string'], result: 'string', render: call('lower') },
  CHAR_LENGTH: { min: 1, max: 1, args: ['string'], result: 'number', render: call('char_length') },
  // Any value family may be concatenated; each argument is turned into text first.
  CONCAT: {
    min: 2,
    max: 16,
    args: ['any'],
    result: 'string',
    render: (args) =>
      fragment(
        'concat(',
        join(
          args.map((a) => fragment('(', a, ')::text')),
          ', ',
        ),
        ')',
      ),
  },
  SUBSTRING: {
    min: 2,
    max: 3,
    args: ['string', 'number', 'number'],
    result: 'string',
    render: ([s, from, len]) =>
      len
        ? fragment('substring(', s, ' from (', from, ')::integer for (', len, ')::integer)')
        : fragment('substring(', s, ' from (', from, ')::integer)'),
  },
  POSITION: {
    min: 2,
    max: 2,
    args: ['string', 'string'],
    result: 'number',
    render: ([needle, haystack]) => fragment('position(', needle, ' in ', haystack, ')'),
  },
  ABS: { min: 1, max: 1, args: ['number'], result: 'number', render: call('abs') },
  CEILING: { min: 1, max: 1, args: ['number'], result: 'number', render: call('ceiling') },
  FLOOR: { min: 1, max: 1, args: ['number'], result: 'number', render: call('floor') },
  ROUND: { min: 1, max: 2, args: ['number', 'number'], result: 'number', render: numericCall('round') },
  TRUNCATE: { min: 1, max: 2, args: ['number', 'number'], result: 'number', render: numericCall('trunc') },
  MOD: { min: 2, max: 2, args: ['number', 'number'], result: 'number', render: numericCall('mod') },
  POWER: { min: 2, max: 2, args: ['number', 'number'], result: 'number', render: call('power') },
  // ArcGIS LOG is the natural logarithm; PostgreSQL's log() is base 10.
  LOG: { min: 1, max: 1, args: ['number'], result: 'number', render: call('ln') },
  LOG10: { min: 1, max: 1, args: ['number'], result: 'number', render: call('log') },
  SIN: { min: 1, max: 1, args: ['number'], result: 'number', render: call('sin') },
  COS: { min: 1, max: 1, args: ['number'], result: 'number', render: call('cos') },
  TAN: { min: 1, max: 1, args: ['number'], result: 'number', render: call('tan') },
  COALESCE: { min: 2, max: 16, args: ['same'], result: 'same', render: call('coalesce') },
  NULLIF: { min: 2, max: 2, args: ['same', 'same'], result: 'same', render: call('nullif') },
};

export const isFunctionName = (name: string): name is FunctionName => Object.hasOwn(FUNCTIONS, name);

export const argKindAt = (spec: FunctionSpec, index: number): ArgKind =>
  spec.args[Math.min(index, spec.args.length - 1)];

/**
 * sqlFormat=native: the function names of the underlying database, PostgreSQL, with its meanings.
 * They differ from the standardized names where PostgreSQL differs: LOG is base 10 and LN natural,
 * LENGTH, CEIL and TRUNC are PostgreSQL's spellings, and TRUNCATE (not a PostgreSQL function) is
 * unknown. The other names are the same function in both.
 */
const NATIVE_NAMES: Readonly<Record<string, FunctionName>> = {
  UPPER: 'UPPER',
  LOWER: 'LOWER',
  CHAR_LENGTH: 'CHAR_LENGTH',
  LENGTH: 'CHAR_LENGTH',
  CONCAT: 'CONCAT',
  SUBSTRING: 'SUBSTRING',
  POSITION: 'POSITION',
  ABS: 'ABS',
  CEILING: 'CEILING',
  CEIL: 'CEILING',
  FLOOR: 'FLOOR',
  ROUND: 'ROUND',
  TRUNC: 'TRUNCATE',
  MOD: 'MOD',
  POWER: 'POWER',
  LN: 'LOG',
  LOG: 'LOG10',
  LOG10: 'LOG10',
  SIN: 'SIN',
  COS: 'COS',
  TAN: 'TAN',
  COALESCE: 'COALESCE',
  NULLIF: 'NULLIF',
};

export const nativeFunctionName = (name: string): FunctionName | null =>
  Object.hasOwn(NATIVE_NAMES, name) ? NATIVE_NAMES[name] : null;
