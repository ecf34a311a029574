/**
 * The GeocodeServer under drawn requests: findAddressCandidates with any mix of single-line and
 * multi-field addresses, output fields, counts, spatial references, locations and extents, and
 * geocodeAddresses with any batch (records of any JSON shape and size), over the small test locator
 * mounted in the whole app.
 * Each is answered with candidates or locations, or refused with a 400 in the REST envelope.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMiniLocator } from '../geocode/mini-locator.js';
import { fuzzSuite } from './fuzz-support.js';
import { type HostedKinds, openHostedKinds } from './hosted-kinds.js';

const suite = fuzzSuite('geocoding');
const BASE = '/rest/services/World/GeocodeServer';
const one = (...values: string[]) => fc.constantFrom(...values);
const optional = (values: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: values });
const text = fc.oneof(
  {
    weight: 3,
    arbitrary: one('380 New York St, Redlands, CA', 'Redlands', '92373', 'CA', 'USA', 'Main St', '1'),
  },
  fc.string({ maxLength: 40 }),
  one('', ' ', '%', '\u0000', 'x'.repeat(2000), '東京', '🚀'),
);

const findParams = fc.record(
  {
    SingleLine: optional(text),
    Address: optional(text),
    Address2: optional(text),
    City: optional(text),
    Region: optional(text),
    Postal: optional(text),
    CountryCode: optional(one('USA', 'US', 'DE', 'xx', '')),
    outFields: optional(one('*', 'Match_addr,Addr_type', 'nosuch', '')),
    maxLocations: optional(one('1', '5', '50', '0', '-1', '1e20', 'a')),
    outSR: optional(one('4326', '102100', '3857', '2263', '99999', '{"wkid":4326}', 'junk')),
    location: optional(one('-117.19,34.05', '{"x":-117.19,"y":34.05}', 'a,b', '1e400,0', '{"x":0}')),
    searchExtent: optional(
      one('-118,33,-116,35', '{"xmin":-118,"ymin":33,"xmax":-116,"ymax":35}', '1,2,3', 'x'),
    ),
    category: optional(one('Address', 'POI', 'nosuch')),
    forStorage: optional(one('true', 'false', 'x')),
    magicKey: optional(one('abc', '')),
    langCode: optional(one('en', 'de', 'x')),
    sourceCountry: optional(one('USA', 'xx')),
    f: one('json', 'pjson', 'html', 'kmz'),
  },
  { requiredKeys: ['f'] },
);
const record = fc.record(
  {
    OBJECTID: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 1, max: 1000 }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    ),
    SingleLine: fc.oneof(text, fc.jsonValue({ maxDepth: 1 })),
    Address: text,
    City: text,
    Region: text,
    Postal: text,
  },
  { requiredKeys: [] },
);
const batchParams = fc.record(
  {
    addresses: fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .array(fc.record({ attributes: record }), { maxLength: 4 })
          .map((r) => JSON.stringify({ records: r })),
      },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    ),
    outSR: optional(one('4326', '102100', '99999')),
    sourceCountry: optional(one('USA', 'xx')),
    category: optional(one('Address', 'nosuch')),
    f: one('json', 'pjson'),
  },
  { requiredKeys: ['addresses', 'f'] },
);

describe('geocoding under drawn requests', () => {
  let kinds: HostedKinds;
  beforeAll(async () => {
    kinds = await openHostedKinds({ locator: await createMiniLocator({ maxBatchSize: 3 }) });
  }, 120_000);
  afterAll(async () => kinds?.close());

  it('answers every drawn findAddressCandidates or geocodeAddresses request, or refuses it with a 400', async () => {
    await suite.checkAsync(
      fc.oneof(
        findParams.map((p) => ({ path: '/findAddressCandidates', params: p })),
        batchParams.map((p) => ({ path: '/geocodeAddresses', params: p })),
      ),
      async ({ path, params }) => {
        const form = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >;
        const res = await kinds.app.request(`${BASE}${path}`, {
          method: 'POST',
          body: new URLSearchParams(form),
        });
        const body = await res.text();
        const context = `${path} ${JSON.stringify(form).slice(0, 1500)} -> ${body.slice(0, 300)}`;
        expect(res.status, context).toBeLessThan(500);
        if (!(res.headers.get('content-type') ?? '').includes('json')) return;
        const json = JSON.parse(body) as { error?: { code: number } };
        if (json.error) expect(json.error.code, context).toBe(400);
      },
      100,
    );
  });
});
