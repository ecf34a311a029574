import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import { MAX_WHERE_DEPTH, parseWhere } from '../../../lib/query/where-parser.js';

/** The second details line of the error a where clause raises. */
function problemOf(where: string): string {
  try {
    parseWhere(where);
  } catch (e) {
    expect(e).toBeInstanceOf(GeoError);
    const err = e as GeoError;
    expect(err.code).toBe(400);
    expect(err.message).toBe('Unable to complete operation.');
    expect(err.details[0]).toBe("'where' parameter is invalid");
    return err.details[1];
  }
  throw new Error(`expected ${where} to be rejected`);
}

const field = (name: string) => ({ type: 'field', name });
const num = (value: number) => ({ type: 'number', value, text: String(value) });
const str = (value: string) => ({ type: 'string', value });

describe('where parser: accepted clauses', () => {
  it('reads the 1=1 that clients send for "everything"', () => {
    expect(parseWhere('1=1')).toEqual({ type: 'compare', operator: '=', left: num(1), right: num(1) });
  });

  it('reads a string literal with a doubled quote as one quote', () => {
    expect(parseWhere("NAME = 'O''Brien'")).toEqual({
      type: 'compare',
      operator: '=',
      left: field('NAME'),
      right: str("O'Brien"),
    });
  });

  it('binds AND tighter than OR and keeps chains flat', () => {
    expect(parseWhere('a = 1 OR b = 2 AND c = 3 OR d = 4')).toEqual({
      type: 'or',
      operands: [
        { type: 'compare', operator: '=', left: field('a'), right: num(1) },
        {
          type: 'and',
          operands: [
            { type: 'compare', operator: '=', left: field('b'), right: num(2) },
            { type: 'compare', operator: '=', left: field('c'), right: num(3) },
          ],
        },
        { type: 'compare', operator: '=', left: field('d'), right: num(4) },
      ],
    });
  });

  it('applies NOT to the predicate that follows it', () => {
    expect(parseWhere('NOT a IS NULL AND b = 1')).toEqual({
      type: 'and',
      operands: [
        { type: 'not', operand: { type: 'isNull', negated: false, operand: field('a') } },
        { type: 'compare', operator: '=', left: field('b'), right: num(1) },
      ],
    });
  });

  it('treats parentheses around a value and around a condition alike', () => {
    expect(parseWhere('(a + 1) * 2 > (3)')).toEqual({
      type: 'compare',
      operator: '>',
      left: {
        type: 'arithmetic',
        operator: '*',
        left: { type: 'arithmetic', operator: '+', left: field('a'), right: num(1) },
        right: num(2),
      },
      right: num(3),
    });
    expect(parseWhere('((a = 1))')).toEqual({
      type: 'compare',
      operator: '=',
      left: field('a'),
      right: num(1),
    });
  });

  it('reads != as <>', () => {
    expect(parseWhere('a != 1')).toMatchObject({ operator: '<>' });
  });

  it('folds a minus sign into a number literal', () => {
    expect(parseWhere('a > -2.5')).toMatchObject({ right: { type: 'number', value: -2.5, text: '-2.5' } });
  });

  it('reads NOT LIKE with an ESCAPE character', () => {
    expect(parseWhere("name NOT LIKE 'a!%%' ESCAPE '!'")).toEqual({
      type: 'like',
      negated: true,
      operand: field('name'),
      pattern: str('a!%%'),
      escape: '!',
    });
  });

  it('reads NOT IN lists and NOT BETWEEN', () => {
    expect(parseWhere('a NOT IN (1, 2)')).toEqual({
      type: 'in',
      negated: true,
      operand: field('a'),
      list: [num(1), num(2)],
    });
    expect(parseWhere('a NOT BETWEEN 1 AND 5')).toEqual({
      type: 'between',
      negated: true,
      operand: field('a'),
      low: num(1),
      high: num(5),
    });
  });

  it('reads IS NOT NULL', () => {
    expect(parseWhere('a IS NOT NULL')).toEqual({ type: 'isNull', negated: true, operand: field('a') });
  });

  it('reads double-quoted field names, spaces and keywords included', () => {
    expect(parseWhere('"my field" = 1 AND "DATE" = 2')).toMatchObject({
      operands: [{ left: field('my field') }, { left: field('DATE') }],
    });
  });

  it('reads DATE and TIMESTAMP literals as a UTC day and a UTC instant', () => {
    expect(parseWhere("d = DATE '2012-05-29'")).toMatchObject({
      right: { type: 'date', value: '2012-05-29' },
    });
    expect(parseWhere("d = timestamp '2012-05-29 15:14:25'")).toMatchObject({
      right: { type: 'timestamp', value: '2012-05-29T15:14:25.000Z' },
    });
  });

  it('reads a DATE literal with a time of day as an instant, as some clients send it', () => {
    expect(parseWhere("d > DATE '2012-05-29 06:30:00'")).toMatchObject({
      right: { type: 'timestamp', value: '2012-05-29T06:30:00.000Z' },
    });
  });

  it('reads CURRENT_DATE and CURRENT_TIMESTAMP with or without parentheses', () => {
    expect(parseWhere('d < CURRENT_DATE')).toMatchObject({
      right: { type: 'current', value: 'CURRENT_DATE' },
    });
    expect(parseWhere('d < CURRENT_TIMESTAMP()')).toMatchObject({
      right: { type: 'current', value: 'CURRENT_TIMESTAMP' },
    });
  });

  it('reads INTERVAL literals in single units and DAY TO SECOND', () => {
    expect(parseWhere("d > CURRENT_TIMESTAMP - INTERVAL '7' DAY")).toMatchObject({
      right: { right: { type: 'interval', value: '7 day' } },
    });
    expect(parseWhere("d > CURRENT_TIMESTAMP - INTERVAL '1 12:00:00' DAY TO SECOND")).toMatchObject({
      right: { right: { type: 'interval', value: '1 day 12:00:00' } },
    });
  });

  it('reads the keyword forms of SUBSTRING, POSITION, TRIM, EXTRACT and CAST', () => {
    expect(parseWhere("SUBSTRING(n FROM 2 FOR 3) = 'x'")).toMatchObject({
      left: { type: 'call', name: 'SUBSTRING', args: [field('n'), num(2), num(3)] },
    });
    expect(parseWhere("POSITION('a' IN n) > 0")).toMatchObject({
      left: { type: 'call', name: 'POSITION', args: [str('a'), field('n')] },
    });
    expect(parseWhere("TRIM(TRAILING 'x' FROM n) = 'a'")).toMatchObject({
      left: { type: 'trim', side: 'TRAILING', characters: str('x'), operand: field('n') },
    });
    expect(parseWhere('EXTRACT(MONTH FROM d) = 11')).toMatchObject({
      left: { type: 'extract', part: 'MONTH', operand: field('d') },
    });
    expect(parseWhere('CAST(p AS DECIMAL(10,2)) > 1')).toMatchObject({ left: { type: 'cast', to: 'FLOAT' } });
  });

  it('reads function names in any case', () => {
    expect(parseWhere("upper(n) = 'A'")).toMatchObject({ left: { type: 'call', name: 'UPPER' } });
  });

  it('reads TRUNCATE( as the math function, not the statement', () => {
    expect(parseWhere('TRUNCATE(a, 1) = 2')).toMatchObject({ left: { type: 'call', name: 'TRUNCATE' } });
  });

  it('accepts a long OR chain without growing deeper', () => {
    const where = Array.from({ length: 5000 }, (_, i) => `a = ${i}`).join(' OR ');
    expect(parseWhere(where)).toMatchObject({ type: 'or' });
  });
});

describe('where parser: rejected clauses', () => {
  it('refuses a second statement after a semicolon', () => {
    expect(problemOf('1=1; DROP TABLE x')).toMatch(/semicolon/);
  });

  it('refuses a trailing comment used to cut off the rest of a statement', () => {
    expect(problemOf("name = 'a' OR 1=1 --")).toMatch(/comment/);
    expect(problemOf("name = 'a' /* x */")).toMatch(/comment/);
  });

  it('refuses an unbalanced quote', () => {
    expect(problemOf("name = 'abc")).toMatch(/unterminated string literal/);
    expect(problemOf('"name = 1')).toMatch(/unterminated quoted field name/);
  });

  it('refuses subqueries', () => {
    expect(problemOf('POP_2010 = (SELECT min(POP_2010) FROM counties)')).toMatch(/subqueries/);
    expect(problemOf('a IN (SELECT b FROM t)')).toMatch(/subqueries/);
  });

  it('refuses statements smuggled in as words', () => {
    expect(problemOf('1=1 UNION SELECT 1')).toMatch(/unexpected 'UNION'/);
    expect(problemOf('DROP TABLE x')).toMatch(/DROP .*statements are not allowed/);
  });

  it('names an unknown function', () => {
    expect(problemOf('pg_sleep(10) = 1')).toBe('unknown function pg_sleep at position 1');
  });

  it('checks the number of arguments of a function', () => {
    expect(problemOf("UPPER(a, b) = 'x'")).toMatch(/UPPER takes 1 argument\(s\), not 2/);
  });

  it('refuses a value where a condition belongs and the other way round', () => {
    expect(problemOf('a + 1')).toMatch(/a value is used where a condition is expected/);
    expect(problemOf('(a = 1) + 1 = 2')).toMatch(/a condition is used where a value is expected/);
  });

  it('refuses an empty clause and an unfinished one', () => {
    expect(problemOf('   ')).toBe('the where clause is empty');
    expect(problemOf('a =')).toBe('the where clause ends too early');
    expect(problemOf('a IN ()')).toMatch(/empty IN list/);
  });

  it('refuses characters outside the grammar', () => {
    expect(problemOf('a = 1 | 2')).toMatch(/unexpected character '\|'/);
  });

  it('refuses invalid calendar dates in DATE literals', () => {
    expect(problemOf("d = DATE '2021-02-30'")).toMatch(/not a valid date/);
  });

  it('refuses deep nesting before the stack is at risk', () => {
    expect(problemOf(`${'('.repeat(40_000)}a = 1${')'.repeat(40_000)}`)).toMatch(/nested more than/);
    expect(problemOf(`${'NOT '.repeat(MAX_WHERE_DEPTH + 1)}a = 1`)).toMatch(/nested more than/);
    expect(
      problemOf(`${'UPPER('.repeat(MAX_WHERE_DEPTH + 1)}a${')'.repeat(MAX_WHERE_DEPTH + 1)} = 'A'`),
    ).toMatch(/nested more than/);
  });

  it('refuses a long left-leaning arithmetic chain that would be deep to compile', () => {
    expect(problemOf(`${'a + '.repeat(1000)}1 = 2`)).toMatch(/nested more than/);
  });

  it('refuses input beyond the length limit', () => {
    expect(problemOf(`a = '${'x'.repeat(100_001)}'`)).toMatch(/longer than 100000 characters/);
  });
});
