/**
 * The portal's search surfaces under drawn input: `q` built from the syntax clients send (fields,
 * phrases, wildcards, ranges, AND, OR, NOT, minus, parentheses, in any order and nesting) with the
 * paging, sorting, extent and category parameters, against items, users and groups, signed in and
 * anonymously. Each is answered, or refused with a 4xx in the REST envelope.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InProcessApp } from '../auth/in-process-app.js';
import { expectNoServerError, fuzzSuite } from './fuzz-support.js';
import { openSignedInKinds } from './hosted-kinds.js';

const suite = fuzzSuite('portal search');
const one = (...values: string[]) => fc.constantFrom(...values);

const FIELDS = [
  'title',
  'owner',
  'type',
  'tags',
  'id',
  'name',
  'snippet',
  'description',
  'typekeywords',
  'access',
  'orgid',
  'group',
  'modified',
  'created',
  'username',
  'fullname',
  'role',
  'nosuch',
];
const VALUES = [
  'kinds',
  '"Feature Service"',
  'portaladmin',
  '*',
  'k*',
  '"a \\" b"',
  '""',
  'Zürich',
  '%',
  "'",
  '\\',
];
const BOUNDS = [
  '0',
  '*',
  '1577836800000',
  '0000001577836800000',
  '1e20',
  '-1e20',
  '9223372036854775808',
  'x',
  '1.5',
];

const term = fc.oneof(
  fc.tuple(one(...FIELDS), one(...VALUES)).map(([f, v]) => `${f}:${v}`),
  fc
    .tuple(one('modified', 'created', 'title', 'numviews'), one(...BOUNDS), one(...BOUNDS))
    .map(([f, a, b]) => `${f}:[${a} TO ${b}]`),
  one(...VALUES),
  fc.string({ maxLength: 10 }),
);
const q: fc.Arbitrary<string> = fc.letrec<{ q: string }>((t) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.tuple(t('q'), one('AND', 'OR', ''), t('q')).map(([a, op, b]) => `${a} ${op} ${b}`),
    t('q').map((x) => `NOT ${x}`),
    t('q').map((x) => `-${x}`),
    t('q').map((x) => `(${x})`),
    one('(', ')', 'NOT', 'AND', 'OR', '-', ':', '[', ']'),
  ),
})).q;

const optional = (values: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: values });

const request = fc.record({
  path: one('/sharing/rest/search', '/sharing/rest/community/users', '/sharing/rest/community/groups'),
  q: fc.oneof(q, one('', '*')),
  start: optional(one('1', '0', '-1', '100', '1e20', 'a', '2147483648')),
  num: optional(one('0', '1', '10', '100', '101', '-1', '1e20', 'a')),
  sortField: optional(
    one(
      'title',
      'modified',
      'created',
      'owner',
      'numviews',
      'avgrating',
      'username',
      'nosuch',
      'title,modified',
    ),
  ),
  sortOrder: optional(one('asc', 'desc', 'ASC', 'x')),
  bbox: optional(one('-180,-90,180,90', '0,0,0,0', '10,10,-10,-10', 'a,b,c,d', '1e400,0,1,1', '1,2,3')),
  categories: optional(one('/Categories/Water', '["/Categories/A"]', '[', '')),
  filter: optional(one('title:"kinds"', 'type:"Feature Service"', 'modified:[0 TO 1]', 'x:y')),
  restrict: optional(one('true', 'false', 'x')),
  signedIn: fc.boolean(),
});

describe('portal search under abuse', () => {
  let app: InProcessApp;
  let token: string;
  beforeAll(async () => {
    ({ app, token } = await openSignedInKinds());
  }, 120_000);
  afterAll(async () => app?.close());

  it('refuses a start past exact integers and a fractional range bound with a 400 (found by the drawn searches)', async () => {
    // Both were 500s: 1e20 reached the database as an offset, 1.5 as a bigint bound.
    const groups = await app.call('/sharing/rest/community/groups', { q: '', start: '1e20' });
    expect(groups.json.error).toEqual({
      code: 400,
      message: 'Invalid or missing input parameters.',
      details: ["'start' must be an integer of at most 9007199254740991."],
    });
    const items = await app.call('/sharing/rest/search', { q: 'modified:[0 TO 1.5]' });
    expect(items.json.error).toEqual({
      code: 400,
      message: 'Invalid or missing input parameters.',
      details: ["The range of 'modified' needs epoch milliseconds, not '1.5'."],
    });
    // The largest exact start is a page past the end, not an error.
    const far = await app.call('/sharing/rest/search', {
      q: 'kinds',
      start: String(Number.MAX_SAFE_INTEGER),
    });
    expect(far.json).toMatchObject({ results: [], nextStart: -1 });
  });

  it('answers every drawn search of items, users and groups, or refuses it with a 4xx', async () => {
    await suite.checkAsync(
      request,
      async ({ path, signedIn, ...drawn }) => {
        const params = Object.fromEntries(
          Object.entries({ ...drawn, ...(signedIn ? { token } : {}) }).filter(([, v]) => v !== undefined),
        ) as Record<string, string>;
        const res = await app.call(path, params);
        const context = `${path} ${JSON.stringify({ ...params, token: undefined })}`;
        expect(res.status, context).toBeLessThan(500);
        expectNoServerError(res.json.error, context);
        if (!res.json.error) {
          expect(
            Array.isArray(res.json.results),
            `${context} -> ${JSON.stringify(res.json).slice(0, 300)}`,
          ).toBe(true);
        }
      },
      100,
    );
  });
});
