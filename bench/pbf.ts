/**
 * f=pbf against f=json on a 100,000-feature query answer: response bytes (raw and gzip) and the time to
 * turn the query's rows into the response body, for points and for polygons.
 *
 *   npx tsx bench/pbf.ts [--features 100000] [--runs 5]
 *
 * The rows are generated (seeded) in the shape the database hands to the layer query (object id,
 * attributes, Esri JSON shape in Web Mercator), then rendered by renderFeatureAnswer, as
 * api/services/layer-query.ts renders them: f=json is the Esri JSON feature set + JSON.stringify; f=pbf
 * quantizes to the finest grid (as when the client sends no quantizationParameters) and encodes the
 * FeatureCollection; "pbf view" adds the quantizationParameters the Maps SDK sends when drawing (view mode, a
 * tolerance of one 1,024-pixel-wide screen pixel over the data). Reading the rows from PostgreSQL is
 * the same for every format and is left out. Each timing is the median of `--runs` runs after a warm-up.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { EsriGeometry, EsriGeometryType } from '../lib/geometry/types.js';
import { type FeatureAnswerInput, renderFeatureAnswer } from '../lib/query/feature-answer.js';
import type { CatalogField } from '../lib/query/field-catalog.js';
import { normalizeQuantizationParameters } from '../lib/query/quantize-parameters.js';
import type { FeatureRow } from '../lib/query/row-mapping.js';

const { values } = parseArgs({
  options: { features: { type: 'string', default: '100000' }, runs: { type: 'string', default: '5' } },
});
const count = Number(values.features);
const runs = Number(values.runs);

const mercator = { wkid: 102100, latestWkid: 3857 };
// Chicago-sized box in Web Mercator, as the ingest bench.
const box = [-9780000, 5130000, -9730000, 5160000] as const;
const fields: CatalogField[] = [
  { name: 'OBJECTID', column: 'objectid', type: 'esriFieldTypeOID' },
  { name: 'name', column: 'name', type: 'esriFieldTypeString' },
  { name: 'category', column: 'category', type: 'esriFieldTypeString' },
  { name: 'value', column: 'value', type: 'esriFieldTypeDouble' },
  { name: 'count', column: 'count', type: 'esriFieldTypeInteger' },
  { name: 'created', column: 'created', type: 'esriFieldTypeDate' },
];

/** mulberry32: a small seeded generator, so every run renders the same rows. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function rows(kind: 'point' | 'polygon'): FeatureRow[] {
  const r = random(kind === 'point' ? 1 : 2);
  const out: FeatureRow[] = [];
  for (let i = 1; i <= count; i++) {
    const x = box[0] + r() * (box[2] - box[0]);
    const y = box[1] + r() * (box[3] - box[1]);
    let shape: EsriGeometry = { x, y };
    if (kind === 'polygon') {
      // A parcel-like ring of 8 vertices, 20–60 m across.
      const radius = 10 + r() * 20;
      const ring: number[][] = [];
      for (let k = 0; k < 8; k++) {
        const a = (-k * Math.PI) / 4;
        ring.push([x + radius * Math.cos(a), y + radius * Math.sin(a)]);
      }
      ring.push([...ring[0]]);
      shape = { rings: [ring] };
    }
    out.push({
      objectid: i,
      attrs: {
        name: `Feature ${i}`,
        category: ['park', 'school', 'library', 'station'][i % 4],
        value: Math.round(r() * 1e6) / 100,
        count: Math.floor(r() * 1000),
        created: new Date(1_600_000_000_000 + i * 60_000),
      },
      shape,
    });
  }
  return out;
}

type Query = FeatureAnswerInput['query'];

function render(source: FeatureRow[], geometryType: EsriGeometryType, query: Query): Uint8Array | string {
  // The layer query maps fresh rows per request; copy them so quantizing does not touch the source.
  const answer = renderFeatureAnswer({
    query,
    layer: { objectIdField: 'OBJECTID', globalIdField: '', geometryType, spatialReference: mercator },
    storage: mercator,
    outSR: mercator,
    fields,
    rows: source.map((row) => ({ ...row })),
    exceededTransferLimit: false,
    returnGeometry: true,
  });
  return answer instanceof Uint8Array ? answer : JSON.stringify(answer);
}

function measure(source: FeatureRow[], geometryType: EsriGeometryType, query: Query) {
  render(source, geometryType, query);
  const times: number[] = [];
  let out: Uint8Array | string = '';
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    out = render(source, geometryType, query);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const bytes = typeof out === 'string' ? Buffer.from(out) : out;
  return { ms: times[Math.floor(times.length / 2)], bytes: bytes.length, gzip: gzipSync(bytes).length };
}

const base: Query = {
  quantization: null,
  format: 'json',
  maxAllowableOffset: null,
  geometry: null,
  geometryPrecision: null,
};
// One pixel of a 1,024-pixel-wide view over the whole box.
const sdkView = normalizeQuantizationParameters(
  JSON.stringify({ mode: 'view', originPosition: 'upperLeft', tolerance: (box[2] - box[0]) / 1024 }),
);
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

console.log(`${count} features, median of ${runs} runs, node ${process.version}, ${cpus().length} cores`);
for (const [kind, type] of [
  ['point', 'esriGeometryPoint'],
  ['polygon', 'esriGeometryPolygon'],
] as const) {
  const source = rows(kind);
  const json = measure(source, type, base);
  const pbf = measure(source, type, { ...base, format: 'pbf' });
  const view = measure(source, type, { ...base, format: 'pbf', quantization: sdkView });
  console.log(`\n${kind}s`);
  for (const [label, m] of [
    ['json', json],
    ['pbf', pbf],
    ['pbf view', view],
  ] as const) {
    console.log(
      `  ${label.padEnd(9)} ${mb(m.bytes).padStart(9)} (gzip ${mb(m.gzip).padStart(8)})  ${m.ms.toFixed(0).padStart(5)} ms`,
    );
  }
  console.log(
    `  pbf/json: size ${(pbf.bytes / json.bytes).toFixed(2)}× (gzip ${(pbf.gzip / json.gzip).toFixed(2)}×), time ${(pbf.ms / json.ms).toFixed(2)}×`,
  );
}
console.log(
  `\nload average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
