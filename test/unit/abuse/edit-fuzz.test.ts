/**
 * Edits under drawn input. applyEdits: features whose every attribute is an edge value of its field's
 * type or any JSON value, with drawn geometry and object ids. Calculate: each each field of the `kinds` layer (hosted-kinds.ts, a
 * field of every stored type with rows at each type's edges) set to an expression drawn from the where
 * grammar (where-grammar.ts) or to any JSON value, over the rows a drawn where clause selects, run in
 * the product's edit transaction on PGlite. Every one must be applied or refused with a 400 in the REST
 * envelope; a refused one changes nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EsriFieldType, FIELD_STORAGE } from '../../../lib/query/field-types.js';
import type { InProcessApp } from '../auth/in-process-app.js';
import { expectNoServerError, fuzzSuite } from './fuzz-support.js';
import { KIND_FIELDS, openSignedInKinds } from './hosted-kinds.js';
import { whereArbitraries } from './where-grammar.js';

const suite = fuzzSuite('edits');
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

describe('applyEdits and calculate with drawn input on a real database', () => {
  let app: InProcessApp;
  let token: string;
  beforeAll(async () => {
    ({ app, token } = await openSignedInKinds('Query,Update,Editing'));
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

  it('reports an update of an object id past the 32-bit range as a missing object (found by the drawn edits)', async () => {
    // It was a 500: the id reached the database as an integer parameter it cannot hold.
    for (const id of [2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const res = await app.call(`${LAYER}/applyEdits`, {
        token,
        updates: JSON.stringify([{ attributes: { OBJECTID: id, Name: 'x' } }]),
      });
      expect(res.json.updateResults).toEqual([
        {
          objectId: id,
          uniqueId: id,
          globalId: null,
          success: false,
          error: { code: 1019, description: `Object is missing: no feature has object id ${id}.` },
        },
      ]);
    }
  });

  it('answers every drawn applyEdits with per-edit results or a 400, never a server error', async () => {
    const anyJson = fc.jsonValue({ maxDepth: 1 });
    const edge = (...values: unknown[]) => fc.constantFrom(...values);
    const VALUES: Partial<Record<EsriFieldType, fc.Arbitrary<unknown>>> = {
      esriFieldTypeString: fc.oneof(
        fc.string({ maxLength: 50 }),
        edge('\u0000', 'a\u0000b', '\ud800', 'x'.repeat(41)),
      ),
      esriFieldTypeGUID: edge(
        '{8F2A6D3C-1B4E-4C5D-9E7F-0A1B2C3D4E5F}',
        '8f2a6d3c-1b4e-4c5d-9e7f-0a1b2c3d4e5f',
        'x',
        '',
      ),
      esriFieldTypeInteger: fc.oneof(
        fc.integer(),
        edge(2 ** 31, -(2 ** 31) - 1, 1.5, 1e300, '12', 'x', true),
      ),
      esriFieldTypeSmallInteger: fc.oneof(fc.integer({ min: -40_000, max: 40_000 }), edge(1.5, '7', 'x')),
      esriFieldTypeBigInteger: edge(
        2 ** 53,
        2 ** 63,
        -(2 ** 63),
        '9223372036854775807',
        '9223372036854775808',
        1.5,
      ),
      esriFieldTypeDouble: fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        edge('1e309', 'x', ''),
      ),
      esriFieldTypeSingle: fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        edge(3.5e38, -3.5e38, 1e-46),
      ),
      esriFieldTypeDate: fc.oneof(
        fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
        edge(
          8.64e15,
          8.64e15 + 1,
          -62135596800001,
          253402300800000,
          1.5,
          '2020-01-01',
          '2020-01-01T00:00:00Z',
          'x',
        ),
      ),
      esriFieldTypeDateOnly: edge(
        '2020-01-01',
        '0000-01-01',
        '10000-01-01',
        '2020-02-30',
        '-0001-01-01',
        1577836800000,
        'x',
      ),
      esriFieldTypeTimeOnly: edge(
        '12:00:00',
        '24:00:00',
        '23:59:60',
        '1:2:3',
        '12:00:00.123456789',
        43200000,
        'x',
      ),
      esriFieldTypeTimestampOffset: edge(
        '2020-01-01T00:00:00+02:00',
        '2020-01-01T00:00:00+25:00',
        '9999-12-31T23:59:59-14:00',
        '0001-01-01T00:00:00+14:00',
        1577836800000,
        'x',
      ),
    };
    const attributes = fc.record(
      Object.fromEntries(
        KIND_FIELDS.map((f) => [
          f.name,
          fc.oneof({ weight: 5, arbitrary: VALUES[f.type] ?? anyJson }, anyJson),
        ]),
      ),
      { requiredKeys: [] },
    );
    const coordinate = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      edge(0, 1e308, -1e308, '1', null),
    );
    const geometry = fc.oneof(
      { weight: 4, arbitrary: fc.record({ x: coordinate, y: coordinate }) },
      {
        weight: 1,
        arbitrary: fc.record({
          x: coordinate,
          y: coordinate,
          z: coordinate,
          spatialReference: edge({ wkid: 4326 }, { wkid: 99999 }, {}),
        }),
      },
      { weight: 1, arbitrary: anyJson },
      {
        weight: 1,
        arbitrary: edge(
          {
            rings: [
              [
                [0, 0],
                [1, 0],
                [0, 1],
                [0, 0],
              ],
            ],
          },
          { points: [[0, 0]] },
          { x: 'NaN', y: 1 },
        ),
      },
    );
    const feature = fc.record({ attributes, geometry }, { requiredKeys: ['attributes'] });
    const objectId = fc.oneof(fc.integer({ min: 1, max: 8 }), edge(0, -1, 1.5, 2 ** 31, '1', null));
    const edits = fc.record(
      {
        adds: fc.array(feature, { maxLength: 3 }),
        updates: fc.array(
          feature
            .map((f) => f)
            .chain((f) => objectId.map((id) => ({ ...f, attributes: { ...f.attributes, OBJECTID: id } }))),
          { maxLength: 3 },
        ),
        deletes: fc.array(objectId, { maxLength: 2 }),
        rollbackOnFailure: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    await suite.checkAsync(
      edits,
      async ({ adds, updates, deletes, rollbackOnFailure }) => {
        const params = {
          token,
          ...(adds ? { adds: JSON.stringify(adds) } : {}),
          ...(updates ? { updates: JSON.stringify(updates) } : {}),
          ...(deletes ? { deletes: deletes.join(',') } : {}),
          ...(rollbackOnFailure === undefined ? {} : { rollbackOnFailure: String(rollbackOnFailure) }),
        };
        const res = await app.call(`${LAYER}/applyEdits`, params);
        const context = JSON.stringify(params).slice(0, 2000);
        expect(res.status, context).toBe(200);
        expectNoServerError(res.json.error, context);
        if (res.json.error) return;
        for (const key of ['addResults', 'updateResults', 'deleteResults']) {
          for (const r of res.json[key] ?? []) {
            if (r.success) continue;
            expect(r.error?.code, `${context} -> ${JSON.stringify(r)}`).toBeTypeOf('number');
            expect(r.error.description, `${context} -> ${JSON.stringify(r)}`).not.toMatch(
              /unexpected|internal/i,
            );
          }
        }
      },
      60,
    );
  });

  it('applies every drawn definition change or refuses it with a 4xx, and the layer answers queries after each', async () => {
    const j = fc.jsonValue({ maxDepth: 2 });
    const pick = <T>(...values: T[]) => fc.constantFrom(...values);
    const sometimes = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: j });
    // Every stored type, and types ArcGIS has that hosted layers here do not hold.
    const FIELD_TYPES = [
      ...Object.keys(FIELD_STORAGE),
      'esriFieldTypeBlob',
      'esriFieldTypeRaster',
      'esriFieldTypeXML',
    ];
    const names = pick(
      'Extra',
      'Name',
      'Count',
      'OBJECTID',
      'Shape',
      'a_0',
      'objectid',
      '',
      'x y',
      'Ünï',
      'select',
      'A'.repeat(70),
    );
    const domain = fc.oneof(
      fc.record({
        type: pick('codedValue'),
        name: pick('Codes', ''),
        codedValues: fc.array(
          fc.record({
            name: pick('one', 'two', ''),
            code: sometimes(fc.oneof(fc.integer(), fc.string({ maxLength: 4 }))),
          }),
          {
            maxLength: 3,
          },
        ),
      }),
      fc.record({
        type: pick('range'),
        name: pick('Range'),
        range: sometimes(fc.tuple(fc.double(), fc.double())),
      }),
      j,
    );
    const field = fc.record(
      {
        name: names,
        type: sometimes(pick(...FIELD_TYPES)),
        alias: sometimes(fc.string({ maxLength: 10 })),
        length: sometimes(pick(0, 1, 40, 255, 1e9, -1, 2.5)),
        nullable: sometimes(fc.boolean()),
        editable: sometimes(fc.boolean()),
        domain: sometimes(domain),
        defaultValue: j,
      },
      { requiredKeys: ['name'] },
    );
    const index = fc.record(
      {
        name: pick('idx', 'Name_idx', '', 'x;drop'),
        fields: pick('Name', 'Count', 'Name,Count', 'nosuch', ''),
        isUnique: fc.boolean(),
        isAscending: fc.boolean(),
      },
      { requiredKeys: ['name'] },
    );
    const renderer = fc.oneof(
      fc.record({
        type: pick('simple'),
        symbol: sometimes(
          fc.record({
            type: pick('esriSMS'),
            color: sometimes(fc.array(fc.integer({ min: -1, max: 300 }), { maxLength: 4 })),
            size: sometimes(fc.double()),
          }),
        ),
      }),
      fc.record({
        type: pick('uniqueValue'),
        field1: names,
        uniqueValueInfos: fc.array(fc.record({ value: j, symbol: j }), { maxLength: 2 }),
      }),
      fc.record({
        type: pick('classBreaks'),
        field: names,
        minValue: j,
        classBreakInfos: fc.array(fc.record({ classMaxValue: j, symbol: j }), { maxLength: 2 }),
      }),
      j,
    );
    const update = fc.record(
      {
        fields: fc.array(field, { maxLength: 2 }),
        capabilities: sometimes(
          // Query stays: the check after each change queries the layer.
          pick('Query', 'Query,Update,Editing', 'Query,Create,Delete,Update,Editing', 'Query,Nonsense'),
        ),
        maxRecordCount: sometimes(pick(1, 1000, 0, -1, 1e12, 2.5)),
        displayField: sometimes(names),
        description: sometimes(fc.string({ maxLength: 20 })),
        drawingInfo: sometimes(
          fc.record({ renderer, transparency: sometimes(pick(0, 50, 101, -1)) }, { requiredKeys: [] }),
        ),
        hasAttachments: sometimes(fc.boolean()),
        minScale: sometimes(pick(0, 1e6, -1)),
        maxScale: sometimes(pick(0, 1000, -1)),
        defaultVisibility: sometimes(fc.boolean()),
        name: sometimes(pick('kinds', 'renamed', '')),
        copyrightText: sometimes(fc.string({ maxLength: 10 })),
        editorTrackingInfo: sometimes(
          fc.record(
            {
              enableEditorTracking: sometimes(fc.boolean()),
              enableOwnershipAccessControl: sometimes(fc.boolean()),
              allowOthersToQuery: sometimes(fc.boolean()),
              allowOthersToUpdate: sometimes(fc.boolean()),
              allowOthersToDelete: sometimes(fc.boolean()),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    const change = fc.oneof(
      fc
        .record(
          { fields: fc.array(field, { maxLength: 2 }), indexes: fc.array(index, { maxLength: 2 }) },
          { requiredKeys: [] },
        )
        .map((d) => ['addToDefinition', d] as const),
      update.map((d) => ['updateDefinition', d] as const),
      fc
        .record(
          {
            fields: fc.array(fc.record({ name: names }), { maxLength: 2 }),
            indexes: fc.array(fc.record({ name: pick('idx', 'Name_idx', 'nosuch') }), { maxLength: 1 }),
          },
          { requiredKeys: [] },
        )
        .map((d) => ['deleteFromDefinition', d] as const),
    );
    const admin = '/rest/admin/services/Hosted/kinds/FeatureServer';
    await suite.checkAsync(
      fc.tuple(change, fc.boolean()),
      async ([[operation, definition], serviceLevel]) => {
        const body = serviceLevel ? { layers: [{ id: 0, ...definition }] } : definition;
        const params = { token, [operation]: JSON.stringify(body) };
        const res = await app.call(`${admin}${serviceLevel ? '' : '/0'}/${operation}`, params);
        const context = JSON.stringify(params).slice(0, 2500);
        expect(res.status, context).toBe(200);
        expectNoServerError(res.json.error, context);
        if (!res.json.error) expect(res.json.success, `${context} -> ${JSON.stringify(res.json)}`).toBe(true);
        const after = await app.call(`${LAYER}/query`, {
          token,
          where: '1=1',
          outFields: '*',
          returnGeometry: 'true',
        });
        expect(
          after.json.error,
          `${context} -> then a query: ${JSON.stringify(after.json.error)}`,
        ).toBeUndefined();
        expect(Array.isArray(after.json.features), context).toBe(true);
        const info = await app.call(LAYER, { token });
        expect(
          info.json.error,
          `${context} -> then the layer: ${JSON.stringify(info.json.error)}`,
        ).toBeUndefined();
      },
      40,
    );
  });
});
