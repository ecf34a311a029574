import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import type { SqlChunk } from '../../../lib/query/sql-chunks.js';
import { compileWhere } from '../../../lib/query/where-compiler.js';
import { parseWhere } from '../../../lib/query/where-parser.js';
import { parcelFields } from './parcels-layer.js';

const compile = (where: string): SqlChunk[] => compileWhere(parseWhere(where), parcelFields).chunks;

function problemOf(where: string): string {
  try {
    compile(where);
  } catch (e) {
    expect(e).toBeInstanceOf(GeoError);
    expect((e as GeoError).code).toBe(400);
    return (e as GeoError).details[1];
  }
  throw new Error(`expected ${where} to be rejected`);
}

describe('where compiler: chunks and parameters', () => {
  it('binds every literal as a typed parameter', () => {
    expect(compile('1=1')).toEqual(['(', { param: 1 }, '::bigint = ', { param: 1 }, '::bigint)']);
  });

  it('quotes the physical column of a field found case-insensitively', () => {
    expect(compile("name = 'x'")).toEqual(['("name" = ', { param: 'x' }, '::text)']);
    expect(compile('OPENDAY IS NULL')).toEqual(['("open_day" IS NULL)']);
  });

  it('keeps an injection attempt inside a string parameter', () => {
    expect(compile("Name = 'x'' OR ''1''=''1'")).toEqual([
      '("name" = ',
      { param: "x' OR '1'='1" },
      '::text)',
    ]);
  });

  it('compiles AND, OR and NOT with explicit parentheses', () => {
    expect(compile('POP > 1 AND (Area < 2.5 OR NOT Name IS NULL)')).toEqual([
      '(("pop" > ',
      { param: 1 },
      '::bigint) AND (("area" < ',
      { param: 2.5 },
      '::double precision) OR (NOT ("name" IS NULL))))',
    ]);
  });

  it('turns a numeric string compared with a number field into a number', () => {
    expect(compile("POP = '12'")).toEqual(['("pop" = ', { param: 12 }, '::bigint)']);
  });

  it('turns a number compared with a text field into text as written', () => {
    expect(compile('Name = 12345')).toEqual(['("name" = ', { param: '12345' }, '::text)']);
  });

  it('keeps integers beyond 2^53 exact by sending their digits', () => {
    expect(compile('Big = 9007199254740993')).toEqual([
      '("big" = ',
      { param: '9007199254740993' },
      '::bigint)',
    ]);
  });

  it('reads a number compared with a Date field as epoch milliseconds', () => {
    expect(compile('Surveyed > 1577836800000')).toEqual([
      '("surveyed" > ',
      { param: '2020-01-01T00:00:00.000Z' },
      '::timestamptz)',
    ]);
  });

  it('compares a Date field with a DATE literal over the whole UTC day', () => {
    expect(compile("Surveyed = DATE '2020-01-31'")).toEqual([
      '("surveyed" >= ',
      { param: '2020-01-31T00:00:00.000Z' },
      '::timestamptz AND "surveyed" < ',
      { param: '2020-02-01T00:00:00.000Z' },
      '::timestamptz)',
    ]);
    expect(compile("Surveyed > DATE '2020-01-31'")).toEqual([
      '("surveyed" >= ',
      { param: '2020-02-01T00:00:00.000Z' },
      '::timestamptz)',
    ]);
  });

  it('mirrors the operator when the day is on the left', () => {
    expect(compile("DATE '2020-01-31' >= Surveyed")).toEqual([
      '("surveyed" < ',
      { param: '2020-02-01T00:00:00.000Z' },
      '::timestamptz)',
    ]);
  });

  it('spans whole days in BETWEEN with date strings', () => {
    expect(compile("Surveyed BETWEEN '2020-01-01' AND '2020-01-31'")).toEqual([
      '("surveyed" >= ',
      { param: '2020-01-01T00:00:00.000Z' },
      '::timestamptz AND "surveyed" < ',
      { param: '2020-02-01T00:00:00.000Z' },
      '::timestamptz)',
    ]);
  });

  it('compares a TIMESTAMP literal exactly', () => {
    expect(compile("Surveyed = TIMESTAMP '2012-05-29 15:14:25'")).toEqual([
      '("surveyed" = ',
      { param: '2012-05-29T15:14:25.000Z' },
      '::timestamptz)',
    ]);
  });

  it('compares a date-only field with a date parameter', () => {
    expect(compile("OpenDay = '2020-02-01'")).toEqual(['("open_day" = ', { param: '2020-02-01' }, '::date)']);
  });

  it('starts a date-only value at UTC midnight when it is compared with instants', () => {
    expect(
      compile("OpenDay BETWEEN TIMESTAMP '2020-01-01 00:00:00' AND TIMESTAMP '2020-01-02 00:00:00'"),
    ).toEqual([
      '((("open_day")::timestamp AT TIME ZONE \'UTC\') BETWEEN ',
      { param: '2020-01-01T00:00:00.000Z' },
      '::timestamptz AND ',
      { param: '2020-01-02T00:00:00.000Z' },
      '::timestamptz)',
    ]);
  });

  it('takes CURRENT_DATE as the UTC day', () => {
    expect(compile('OpenDay < CURRENT_DATE')).toEqual([
      '("open_day" < (CURRENT_TIMESTAMP AT TIME ZONE \'UTC\')::date)',
    ]);
  });

  it('switches off the backslash escape of PostgreSQL LIKE unless ESCAPE is given', () => {
    expect(compile("Name LIKE 'a\\%'")).toEqual(['("name" LIKE ', { param: 'a\\%' }, "::text ESCAPE '')"]);
    expect(compile("Name LIKE 'a!%' ESCAPE '!'")).toEqual([
      '("name" LIKE ',
      { param: 'a!%' },
      '::text ESCAPE ',
      { param: '!' },
      '::text)',
    ]);
  });

  it('matches LIKE on a number field against its text', () => {
    expect(compile("POP NOT LIKE '1%'")).toEqual([
      '(("pop")::text NOT LIKE ',
      { param: '1%' },
      "::text ESCAPE '')",
    ]);
  });

  it('compiles IN lists with each item bound', () => {
    expect(compile('POP IN (1, 2)')).toEqual([
      '("pop" IN (',
      { param: 1 },
      '::bigint, ',
      { param: 2 },
      '::bigint))',
    ]);
  });

  it('renders standardized functions with their PostgreSQL names', () => {
    expect(compile("UPPER(Name) = 'A'")).toEqual(['(upper("name") = ', { param: 'A' }, '::text)']);
    expect(compile('LOG(POP) > 1')).toEqual(['(ln("pop") > ', { param: 1 }, '::bigint)']);
    expect(compile("SUBSTRING(Name FROM 2 FOR 3) = 'bc'")).toEqual([
      '(substring("name" from (',
      { param: 2 },
      '::bigint)::integer for (',
      { param: 3 },
      '::bigint)::integer) = ',
      { param: 'bc' },
      '::text)',
    ]);
  });

  it('extracts date parts in UTC', () => {
    expect(compile('EXTRACT(HOUR FROM Surveyed) = 23')).toEqual([
      '(EXTRACT(HOUR FROM ("surveyed") AT TIME ZONE \'UTC\') = ',
      { param: 23 },
      '::bigint)',
    ]);
  });

  it('guards division against a zero divisor', () => {
    expect(compile('POP / Area > 1')).toEqual(['(("pop" / NULLIF("area", 0)) > ', { param: 1 }, '::bigint)']);
  });

  it('subtracts an interval from the current time', () => {
    expect(compile("Surveyed > CURRENT_TIMESTAMP - INTERVAL '7' DAY")).toEqual([
      '("surveyed" > (CURRENT_TIMESTAMP - ',
      { param: '7 day' },
      '::interval))',
    ]);
  });
});

describe('where compiler: conversions that cannot fail in the database', () => {
  it('casts text to a number only when it looks like one, NULL otherwise', () => {
    expect(compile('CAST(Name AS INT) = 3')).toEqual([
      '(trunc((CASE WHEN ("name") ~ \'^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?\\s*$\' THEN ("name")::numeric END)) = ',
      { param: 3 },
      '::bigint)',
    ]);
  });

  it('converts a cast string literal in the compiler', () => {
    expect(compile("CAST('12' AS FLOAT) = POP")).toEqual([
      '(((',
      { param: 12 },
      '::bigint)::numeric)::double precision = "pop")',
    ]);
    expect(problemOf("CAST('abc' AS INT) = POP")).toBe("'abc' is not a number");
  });

  it('takes the calendar day of an instant in UTC', () => {
    expect(compile("CAST(Surveyed AS DATE) = DATE '2020-01-01'")).toEqual([
      '((("surveyed") AT TIME ZONE \'UTC\')::date = ',
      { param: '2020-01-01' },
      '::date)',
    ]);
  });

  it('reads the hour of a date-only value as 0 rather than failing', () => {
    expect(compile('EXTRACT(HOUR FROM OpenDay) = 0')).toEqual([
      '(EXTRACT(HOUR FROM ("open_day")::timestamp) = ',
      { param: 0 },
      '::bigint)',
    ]);
  });

  it('refuses casts the database could only fail on', () => {
    expect(problemOf('CAST(Surveyed AS INT) = 1')).toBe('CAST of a timestamp value to INT is not supported');
    expect(problemOf('CAST(Name AS DATE) = CURRENT_DATE')).toBe(
      'CAST of a string value to DATE is not supported',
    );
  });
});

describe('where compiler: rejected clauses', () => {
  it('names a field the layer does not have', () => {
    expect(problemOf('nope = 1')).toBe("unknown field 'nope'");
  });

  it('refuses the geometry field', () => {
    expect(problemOf('Shape IS NULL')).toMatch(/geometry field 'Shape'/);
  });

  it('refuses comparing text with a number field', () => {
    expect(problemOf('Name > POP')).toBe('cannot compare a string value with a number value');
  });

  it('refuses a non-numeric string compared with a number field', () => {
    expect(problemOf("POP = 'many'")).toBe("'many' is not a number");
  });

  it('refuses a string that is not a date compared with a Date field', () => {
    expect(problemOf("Surveyed < 'yesterday'")).toMatch(/'yesterday' is not a date/);
  });

  it('refuses LIKE on a Date field', () => {
    expect(problemOf("Surveyed LIKE '2020%'")).toMatch(/LIKE cannot match a timestamp value/);
  });

  it('refuses a string function applied to a number', () => {
    expect(problemOf("UPPER(POP) = 'A'")).toBe('UPPER does not accept a number value');
  });

  it('refuses arithmetic on text', () => {
    expect(problemOf("Name + 'x' = 'ax'")).toBe("cannot apply '+' to string and string values");
  });
});
