/**
 * The calculate operation under drawn expressions: each field of the `kinds` layer (hosted-kinds.ts, a
 * field of every stored type with rows at each type's edges) set to an expression drawn from the where
 * grammar (where-grammar.ts) or to any JSON value, over the rows a drawn where clause selects, run in
 * the product's edit transaction on PGlite. Every one must be applied or refused with a 400 in the REST
 * envelope; a refused one changes nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EsriFieldType } from '../../../lib/query/field-types.js';
import { ADMIN, type InProcessApp, inProcessApp } from '../auth/in-process-app.js';
import { fuzzSuite } from './fuzz-support.js';
import { addKindsLayer, KIND_FIELDS } from './hosted-kinds.js';
import { whereArbitraries } from './where-grammar.js';

const suite = fuzzSuite('calculate');
const grammar = whereArbitraries();
const LAYER = '/rest/services/Hosted/kinds/FeatureServer/0';

const BY_KIND: Partial<Record<EsriFieldType, fc.Arbitrary<string>>> = {
  esriFieldTypeString: grammar.str,
  esriFieldTypeGUID: grammar.str,
  esriFieldTypeInteger: grammar.num,
  esriFieldTypeSmallInteger: grammar.num,
  esriFieldTypeBigInteger: grammar.num,
  esriFieldTypeDouble: grammar.num,
  esriFieldTypeSingle: grammar.num,
  esriFieldTypeDate: grammar.instant,
  esriFieldTypeDateOnly: grammar.day,
  esriFieldTypeTimeOnly: grammar.time,
  esriFieldTypeTimestampOffset: grammar.instant,
};

describe('calculate with drawn expressions on a real database', () => {
  let app: InProcessApp;
  let token: string;
  beforeAll(async () => {
    app = await inProcessApp();
    await addKindsLayer(app.deps.database, ADMIN.username, 'Query,Update,Editing');
    const res = await app.call('/sharing/rest/generateToken', {
      username: ADMIN.username,
      password: ADMIN.password,
      client: 'requestip',
    });
    token = res.json.token;
    expect(token).toBeTypeOf('string');
  }, 120_000);
  afterAll(async () => app?.close());

  const rows = async () => {
    const res = await app.call(`${LAYER}/query`, {
      token,
      where: '1=1',
      outFields: '*',
      orderByFields: 'OBJECTID',
    });
    return res.json.features as unknown[];
  };

  it('applies every drawn calcExpression or refuses it with a 400, changing nothing', async () => {
    const entry = fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .constantFrom(...KIND_FIELDS)
          .chain((f) =>
            fc.tuple(
              fc.constant(f.name),
              fc.oneof({ weight: 6, arbitrary: BY_KIND[f.type] ?? grammar.value }, grammar.value),
            ),
          )
          .map(([field, sqlExpression]) => ({ field, sqlExpression })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom(...KIND_FIELDS.map((f) => f.name), 'OBJECTID', 'nosuch'),
            fc.jsonValue({ maxDepth: 2 }),
          )
          .map(([field, value]) => ({ field, value })),
      },
    );
    await suite.checkAsync(
      fc.tuple(
        fc.array(entry, { minLength: 1, maxLength: 2 }),
        fc.option(grammar.condition, { nil: undefined }),
      ),
      async ([entries, where]) => {
        const before = await rows();
        const params = { token, calcExpression: JSON.stringify(entries), ...(where ? { where } : {}) };
        const res = await app.call(`${LAYER}/calculate`, params);
        const context = JSON.stringify(params);
        expect(res.status, context).toBe(200);
        if (res.json.error) {
          expect(res.json.error.code, `${context} -> ${JSON.stringify(res.json.error)}`).toBe(400);
          expect(await rows(), context).toEqual(before);
        } else {
          expect(res.json.success, `${context} -> ${JSON.stringify(res.json)}`).toBe(true);
        }
      },
      60,
    );
  });
});
