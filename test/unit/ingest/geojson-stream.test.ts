import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import { type GeoJsonItem, geoJsonItems } from '../../../lib/ingest/geojson-stream.js';

async function* chunked(text: string | Buffer, size: number) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function items(text: string | Buffer, size = 7, limits?: Parameters<typeof geoJsonItems>[1]) {
  const out: GeoJsonItem[] = [];
  for await (const item of geoJsonItems(chunked(text, size), limits)) out.push(item);
  return out;
}

const tricky = {
  type: 'FeatureCollection',
  name: 'with "features" in a string and {braces} [brackets]',
  crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84', features: [1, 2] } },
  features: [
    {
      type: 'Feature',
      properties: { name: 'quote \\" and brace } in a string', nested: { features: [{ a: 1 }] } },
      geometry: { type: 'Point', coordinates: [2.35, 48.85] },
    },
    {
      type: 'Feature',
      properties: { name: 'Zürich ✓ 東京', escaped: 'back\\\\slash\\"', n: -1.5e3 },
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    },
    { type: 'Feature', properties: null, geometry: null },
  ],
  bbox: [0, 0, 1, 1],
};

describe('geoJsonItems', () => {
  it('yields each feature of a collection exactly as JSON.parse reads it, whatever the chunk size', async () => {
    const text = JSON.stringify(tricky, null, 1);
    for (const size of [1, 2, 3, 7, 64, 100_000]) {
      const out = await items(text, size);
      expect(out.map((i) => i.kind)).toEqual(['feature', 'feature', 'feature']);
      expect(out.map((i) => i.value)).toEqual(tricky.features);
    }
  });

  it('finds the features array wherever the key comes among the top-level keys, and skips a BOM', async () => {
    const text = `\uFEFF{"features":[{"type":"Feature","properties":{"a":1},"geometry":null}],"type":"FeatureCollection"}`;
    const out = await items(text, 3);
    expect(out).toEqual([
      { kind: 'feature', value: { type: 'Feature', properties: { a: 1 }, geometry: null } },
    ]);
  });

  it('hands back a document that is not a collection whole', async () => {
    const point = { type: 'Point', coordinates: [1, 2] };
    expect(await items(JSON.stringify(point))).toEqual([{ kind: 'document', value: point }]);
    const feature = { type: 'Feature', properties: { features: 'no' }, geometry: point };
    expect(await items(JSON.stringify(feature))).toEqual([{ kind: 'document', value: feature }]);
  });

  it('yields nothing for an empty collection', async () => {
    expect(await items('{"type":"FeatureCollection","features":[]}')).toEqual([]);
  });

  it('refuses truncated files, non-object features, broken features and empty files', async () => {
    const refused = async (text: string, why: RegExp) => {
      const error = await items(text).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GeoError);
      expect((error as GeoError).details[0]).toMatch(why);
    };
    await refused('{"type":"FeatureCollection","features":[{"type":"Feature"', /ends inside a value/);
    await refused('{"type":"FeatureCollection","features":[1,2]}', /not an object/);
    await refused(
      '{"type":"FeatureCollection","features":[{"type":"Feature","x":tru}]}',
      /a feature could not be parsed/,
    );
    await refused('', /empty/);
    await refused('{"type":"Point"]', /closing bracket|could not be parsed|ends inside/);
  });

  it('caps the size of one feature and of a document kept whole', async () => {
    const big = JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { s: 'x'.repeat(5000) }, geometry: null }],
    });
    const limits = { maxFeatureBytes: 1000, maxDocumentBytes: 1000 };
    await expect(items(big, 64, limits)).rejects.toThrow(GeoError);
    const doc = JSON.stringify({ type: 'Feature', properties: { s: 'x'.repeat(5000) }, geometry: null });
    await expect(items(doc, 64, limits)).rejects.toThrow(GeoError);
    // A collection's total size is not capped, only each feature's.
    const many = JSON.stringify({
      type: 'FeatureCollection',
      features: Array.from({ length: 50 }, (_, i) => ({
        type: 'Feature',
        properties: { i },
        geometry: null,
      })),
    });
    expect(await items(many, 64, limits)).toHaveLength(50);
  });
});
