/**
 * Where clauses drawn from the grammar itself: typed expressions over the `kinds` layer's fields
 * (hosted-kinds.ts) built from every function, operator, cast and literal form the where compiler
 * knows, with edge values (the largest integers, NULL, the first and last days) and, now and then, an
 * operand of the wrong family. Unlike token soup, most of them compile, so they reach the database.
 */
import fc from 'fast-check';

type Arb = fc.Arbitrary<string>;

export interface WhereArbitraries {
  num: Arb;
  str: Arb;
  day: Arb;
  instant: Arb;
  time: Arb;
  interval: Arb;
  value: Arb;
  condition: Arb;
}

const NUM_FIELDS = ['Count', 'Small', 'Big', 'Ratio', 'Single', 'OBJECTID'];
const NUM_LITERALS = [
  '0',
  '1',
  '-1',
  '2',
  '1.5',
  '0.0',
  '2147483647',
  '-2147483648',
  '9223372036854775807',
  '9223372036854775808',
  '99999999999999999999',
  '1e308',
  '5e-324',
  '1e-10',
  "'12'",
  "' 7 '",
  'NULL',
];
const STR_LITERALS = [
  "'a'",
  "''",
  "'%'",
  "'_'",
  "'\\'",
  "'!'",
  "'x''y'",
  "'plain'",
  "'2020-01-01'",
  "'12:00:00'",
  "'1e400'",
  "'Zürich 東京 🚀'",
  'NULL',
  '123',
];
const DAY_LITERALS = [
  "DATE '2020-01-01'",
  "DATE '0001-01-01'",
  "DATE '9999-12-31'",
  "DATE '2020-02-29'",
  "'2020-01-01'",
  'CURRENT_DATE',
  'NULL',
];
const INSTANT_LITERALS = [
  "TIMESTAMP '2020-01-01 00:00:00'",
  "TIMESTAMP '0001-01-01 00:00:00'",
  "TIMESTAMP '9999-12-31 23:59:59'",
  "TIMESTAMP '2020-01-01 12:30:00.5'",
  "'2020-01-01 00:00:00'",
  '1577836800000',
  'CURRENT_TIMESTAMP',
  'NULL',
];
const TIME_LITERALS = [
  "TIME '00:00:00'",
  "TIME '23:59:59'",
  "TIME '12:00'",
  "'12:00:00'",
  'CURRENT_TIME',
  'NULL',
];
const INTERVAL_AMOUNTS = ['0', '1', '-1', '1.5', '2147483647', '99999999999', '100000000'];
const UNITS = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];
const PARTS = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];

const pick = (items: readonly string[]): Arb => fc.constantFrom(...items);
const call = (name: string, ...args: Arb[]): Arb => fc.tuple(...args).map((a) => `${name}(${a.join(', ')})`);
const binary = (left: Arb, ops: readonly string[], right: Arb): Arb =>
  fc.tuple(left, pick(ops), right).map(([l, o, r]) => `(${l} ${o} ${r})`);

/** Expression arbitraries of each value family, and conditions over them. */
export function whereArbitraries(): WhereArbitraries {
  const tie = fc.letrec<Record<keyof WhereArbitraries, string>>((t) => {
    const num = t('num') as Arb;
    const str = t('str') as Arb;
    const day = t('day') as Arb;
    const instant = t('instant') as Arb;
    const time = t('time') as Arb;
    const interval = t('interval') as Arb;
    const value = t('value') as Arb;
    const condition = t('condition') as Arb;
    const temporal = fc.oneof(day, instant, time);
    return {
      num: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        pick(NUM_FIELDS),
        pick(NUM_LITERALS),
        binary(num, ['+', '-', '*', '/'], num),
        num.map((n) => `-(${n})`),
        fc
          .tuple(pick(['ABS', 'CEILING', 'FLOOR', 'LOG', 'LOG10', 'SIN', 'COS', 'TAN']), num)
          .map(([f, n]) => `${f}(${n})`),
        fc
          .tuple(pick(['ROUND', 'TRUNCATE']), num, fc.option(num, { nil: undefined }))
          .map(([f, a, b]) => (b === undefined ? `${f}(${a})` : `${f}(${a}, ${b})`)),
        call('MOD', num, num),
        call('POWER', num, num),
        call('CHAR_LENGTH', str),
        fc.tuple(str, str).map(([a, b]) => `POSITION(${a} IN ${b})`),
        fc.tuple(pick(PARTS), temporal).map(([p, d]) => `EXTRACT(${p} FROM ${d})`),
        fc
          .tuple(value, pick(['INT', 'INTEGER', 'FLOAT', 'DOUBLE', 'NUMERIC']))
          .map(([v, ty]) => `CAST(${v} AS ${ty})`),
        call('COALESCE', num, num),
        call('NULLIF', num, num),
        binary(day, ['-'], day),
      ),
      str: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        pick(['Name', 'Code']),
        pick(STR_LITERALS),
        fc.tuple(pick(['UPPER', 'LOWER', 'TRIM']), str).map(([f, s]) => `${f}(${s})`),
        fc
          .tuple(pick(['BOTH', 'LEADING', 'TRAILING']), fc.option(str, { nil: undefined }), str)
          .map(([side, chars, s]) => `TRIM(${side} ${chars ?? ''} FROM ${s})`),
        fc
          .tuple(str, num, fc.option(num, { nil: undefined }), fc.boolean())
          .map(([s, from, len, words]) =>
            words
              ? `SUBSTRING(${s} FROM ${from}${len === undefined ? '' : ` FOR ${len}`})`
              : `SUBSTRING(${s}, ${from}${len === undefined ? '' : `, ${len}`})`,
          ),
        fc.array(value, { minLength: 2, maxLength: 4 }).map((a) => `CONCAT(${a.join(', ')})`),
        fc.tuple(value, pick(['CHAR', 'VARCHAR(10)', 'TEXT'])).map(([v, ty]) => `CAST(${v} AS ${ty})`),
        call('COALESCE', str, str),
        call('NULLIF', str, str),
      ),
      day: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant('Day'),
        pick(DAY_LITERALS),
        binary(day, ['+', '-'], num),
        instant.map((v) => `CAST(${v} AS DATE)`),
        call('COALESCE', day, day),
      ),
      instant: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        pick(['Seen', 'Stamp']),
        pick(INSTANT_LITERALS),
        binary(fc.oneof(instant, day), ['+', '-'], interval),
        binary(instant, ['+', '-'], num),
        day.map((v) => `CAST(${v} AS TIMESTAMP)`),
        call('COALESCE', instant, instant),
        call('NULLIF', instant, instant),
      ),
      time: fc.oneof(pick(['Clock']), pick(TIME_LITERALS), call('COALESCE', time, time)),
      interval: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.tuple(pick(INTERVAL_AMOUNTS), pick(UNITS)).map(([n, u]) => `INTERVAL '${n}' ${u}`),
        binary(instant, ['-'], instant),
        binary(interval, ['*', '/'], num),
        binary(interval, ['+', '-'], interval),
        interval.map((i) => `-(${i})`),
      ),
      value: fc.oneof(num, str, day, instant, time, interval),
      condition: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        ...(['num', 'str', 'day', 'instant', 'time', 'interval'] as const).map((k) =>
          binary(t(k) as Arb, ['=', '<>', '<', '<=', '>', '>='], t(k) as Arb),
        ),
        // Now and then the families do not match: the compiler must refuse those with a 400.
        binary(value, ['=', '<', '>='], value),
        fc
          .tuple(
            fc.oneof(str, num, value),
            fc.boolean(),
            str,
            fc.option(pick(["'!'", "'\\'", "'%'", "'ab'"]), { nil: undefined }),
          )
          .map(
            ([v, not, pattern, esc]) =>
              `${v} ${not ? 'NOT ' : ''}LIKE ${pattern}${esc ? ` ESCAPE ${esc}` : ''}`,
          ),
        fc
          .tuple(
            fc.oneof(num, str, day, instant, value),
            fc.boolean(),
            fc.array(value, { minLength: 1, maxLength: 4 }),
          )
          .map(([v, not, list]) => `${v} ${not ? 'NOT ' : ''}IN (${list.join(', ')})`),
        fc
          .tuple(fc.oneof(num, str, day, instant, time, value), fc.boolean(), value, value)
          .map(([v, not, lo, hi]) => `${v} ${not ? 'NOT ' : ''}BETWEEN ${lo} AND ${hi}`),
        fc.tuple(value, fc.boolean()).map(([v, not]) => `${v} IS ${not ? 'NOT ' : ''}NULL`),
        binary(condition, ['AND', 'OR'], condition),
        condition.map((c) => `NOT (${c})`),
      ),
    };
  });
  return tie as unknown as WhereArbitraries;
}
