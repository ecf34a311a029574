/**
 * Every operation of the map-server SOAP interface under drawn requests: each request element drawn
 * from the schema table (any concrete kind of a polymorphic element, optional elements present or not,
 * edge values of every primitive, strings that name the map, its layer, its fields or a where clause),
 * written by the product's own encoder and sent to the `kinds` service (hosted-kinds.ts) on a real
 * database. Every answer is a response or a soap:Client fault; a soap:Server fault is a defect.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrimitive, type PrimitiveName } from '../../../soap/schema/model.js';
import { SCHEMA } from '../../../soap/schema/registry.js';
import { encodeElements } from '../../../soap/xml-encoder.js';
import { fuzzSuite } from './fuzz-support.js';
import { type HostedKinds, openHostedKinds } from './hosted-kinds.js';

const suite = fuzzSuite('SOAP operations');

const STRINGS = [
  '',
  'Layers',
  'kinds',
  '0',
  'Name',
  'Count',
  'Seen',
  'OBJECTID',
  'Shape',
  '1=1',
  "Name = 'plain'",
  'Count > 0 AND Seen IS NOT NULL',
  'NULL + NULL = 1',
  '*',
  'Name,Count',
  'esriSRUnit_Meter',
];

const PRIMITIVES: Record<PrimitiveName, fc.Arbitrary<unknown>> = {
  string: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...STRINGS) }, fc.string({ maxLength: 12 })),
  int: fc.oneof(fc.constantFrom(0, 1, -1, 2, 7, 256, 2_147_483_647, -2_147_483_648), fc.integer()),
  short: fc.integer({ min: -32_768, max: 32_767 }),
  long: fc.oneof(fc.constantFrom(0, 1, -1, Number.MAX_SAFE_INTEGER), fc.maxSafeInteger()),
  double: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(0, 1, -1, 0.5, 100, 1e7, -2e7, 1e-300, 1e308) },
    fc.double(),
  ),
  float: fc.oneof(fc.constantFrom(0, 1, 0.5, 96), fc.float({ noNaN: true })),
  unsignedByte: fc.integer({ min: 0, max: 255 }),
  boolean: fc.boolean(),
  base64Binary: fc.uint8Array({ maxLength: 16 }).map((b) => Buffer.from(b)),
  dateTime: fc.date({
    min: new Date(Date.UTC(1, 0, 1)),
    max: new Date(Date.UTC(9999, 11, 31)),
    noInvalidDate: true,
  }),
  anyType: fc.oneof(fc.constantFrom(...STRINGS), fc.integer(), fc.double()),
};

/** Elements deeper than this are drawn with their required children only, and arrays empty. */
const FULL_DEPTH = 3;
const MAX_DEPTH = 14;
const cache = new Map<string, fc.Arbitrary<unknown>>();

function drawn(type: string, depth: number): fc.Arbitrary<unknown> {
  if (isPrimitive(type)) return PRIMITIVES[type];
  const key = `${type}@${Math.min(depth, FULL_DEPTH)}`;
  const known = cache.get(key);
  if (known && depth <= FULL_DEPTH) return known;
  if (depth > MAX_DEPTH) throw new Error(`no finite value for ${type}`);
  const def = SCHEMA.types.get(type);
  if (!def) throw new Error(`unknown type ${type}`);
  let arb: fc.Arbitrary<unknown>;
  if (def.kind === 'enum') arb = fc.constantFrom(...def.values);
  else if (def.kind === 'array') {
    const item = def.item.nillable
      ? fc.oneof({ weight: 5, arbitrary: drawn(def.item.type, depth + 1) }, fc.constant(null))
      : drawn(def.item.type, depth + 1);
    arb = depth >= FULL_DEPTH ? fc.constant([]) : fc.array(item, { maxLength: 3 });
  } else {
    const kinds = SCHEMA.concreteTypesOf(type);
    const choices = (depth >= FULL_DEPTH ? kinds.slice(0, 1) : kinds).map((concrete) => {
      const fields = SCHEMA.fieldsOf(concrete).map((el) => {
        const value = drawn(el.type, depth + 1);
        const field = el.nillable ? fc.oneof({ weight: 5, arbitrary: value }, fc.constant(null)) : value;
        return [
          el.name,
          el.optional && depth < FULL_DEPTH
            ? fc.option(field, { nil: undefined, freq: 3 })
            : el.optional
              ? fc.constant(undefined)
              : field,
        ] as const;
      });
      return fc.tuple(...fields.map(([, f]) => f)).map((values) => {
        const out: Record<string, unknown> = SCHEMA.isPolymorphic(concrete) ? { $type: concrete } : {};
        fields.forEach(([name], i) => {
          if (values[i] !== undefined) out[name] = values[i];
        });
        return out;
      });
    });
    arb = fc.oneof(...choices);
  }
  if (depth <= FULL_DEPTH) cache.set(key, arb);
  return arb;
}

const NAMESPACE = 'http://www.geoportal.dev/schemas/GeoServer/3.5.0';
const envelope = (operation: string, children: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${NAMESPACE}"><soap:Body><tns:${operation}>${children}</tns:${operation}></soap:Body></soap:Envelope>`;

const operations = [...SCHEMA.operations.values()];
const request = fc.constantFrom(...operations).chain((op) =>
  fc
    .tuple(
      ...op.request.map((el) =>
        el.optional ? fc.option(drawn(el.type, 1), { nil: undefined, freq: 4 }) : drawn(el.type, 1),
      ),
    )
    .chain((values) =>
      // The map and the layer are named right nine times in ten, so most requests reach the data.
      fc.tuple(fc.nat(9), fc.nat(9)).map(([mapDraw, layerDraw]) => {
        const fields: Record<string, unknown> = {};
        op.request.forEach((el, i) => {
          if (values[i] !== undefined) fields[el.name] = values[i];
        });
        if ('MapName' in fields && mapDraw > 0) fields.MapName = 'Layers';
        if (layerDraw > 0) {
          const ids = ['ID', 'LayerID', 'TableID', 'SourceTableID'];
          for (const name of ids) if (name in fields) fields[name] = 0;
          for (const name of ['LayerIDs', 'TableIDs']) if (Array.isArray(fields[name])) fields[name] = [0];
          for (const value of Object.values(fields)) {
            if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
            for (const name of ids) if (name in value) (value as Record<string, unknown>)[name] = 0;
          }
        }
        return { op, fields };
      }),
    ),
);

describe('SOAP operations under drawn requests', () => {
  let kinds: HostedKinds;
  beforeAll(async () => {
    kinds = await openHostedKinds();
  }, 120_000);
  afterAll(async () => kinds?.close());

  it('refuses FromMapPoints of a point too far off the image for xs:int with a client fault (found by drawn requests)', async () => {
    // It was a server fault: the response encoder refused the screen x of 86,060,442,985,531,950.
    const op = SCHEMA.operations.get('FromMapPoints')!;
    const fields = {
      MapDescription: { Name: 'Layers', Rotation: 0 },
      MapImageDisplay: { ImageHeight: 1, ImageWidth: 1, ImageDPI: 96 },
      MapPoints: {
        $type: 'MultipointN',
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: [
          { $type: 'PointN', X: 0, Y: 0 },
          { $type: 'PointN', X: 86_060_442_985_531_950, Y: 0 },
        ],
      },
    };
    const res = await kinds.app.request('/services/Hosted/kinds/MapServer', {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', SOAPAction: '""' },
      body: envelope(op.name, encodeElements(op.request, fields, op.name)),
    });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(text).toContain('<faultcode>soap:Client</faultcode>');
    expect(text).toContain('MapPoints point 1 lies too far outside the image for screen coordinates.');
  });

  it('answers every operation with a response or a client fault, never a server fault', async () => {
    await suite.checkAsync(
      request,
      async ({ op, fields }) => {
        let body: string;
        try {
          body = envelope(op.name, encodeElements(op.request, fields, op.name));
        } catch {
          return; // a value the encoder itself cannot write (none is sent)
        }
        const res = await kinds.app.request('/services/Hosted/kinds/MapServer', {
          method: 'POST',
          headers: { 'content-type': 'text/xml; charset=utf-8', SOAPAction: '""' },
          body,
        });
        const text = await res.text();
        const context = `${op.name}: ${body.slice(0, 3000)}\n-> ${text.slice(0, 600)}`;
        expect(text, context).not.toContain('<faultcode>soap:Server</faultcode>');
        if (res.status === 500) expect(text, context).toContain('<faultcode>soap:Client</faultcode>');
        else expect(res.status, context).toBe(200);
      },
      150,
    );
  });
});
