/**
 * Measures what the shipped gazetteer costs: load and index time, heap, and batch throughput.
 * Run with `npx tsx --expose-gc infra/gazetteer/measure-gazetteer.ts`.
 */
import { performance } from 'node:perf_hooks';
import { GazetteerIndex } from '../../lib/geocode/gazetteer-index.js';
import { createLocator } from '../../lib/geocode/locator.js';
import { loadPackageBoundaries } from './boundary-loader.js';
import { loadPackageGazetteer } from './package-gazetteer.js';

const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
};

const heapBefore = heapMb();
let t = performance.now();
const data = await loadPackageGazetteer();
const loadMs = performance.now() - t;
t = performance.now();
const index = new GazetteerIndex(data);
const indexMs = performance.now() - t;
const counts = { places: data.places.length, postals: data.postals.length, regions: data.regions.length };
data.places.length = 0; // only the index stays alive from here on
const heapIndex = heapMb();

const locator = createLocator(index);
const cities = [
  'Chicago, IL',
  'Paris, France',
  'Zurich',
  'Toronto, ON',
  'Springfield, IL',
  'Munich, Germany',
];
const records = Array.from({ length: 2000 }, (_, i) => {
  if (i % 3 === 0) return { objectId: i, postal: String(10001 + ((i * 37) % 89000)).padStart(5, '0') };
  if (i % 3 === 1) return { objectId: i, singleLine: cities[i % cities.length] };
  return { objectId: i, singleLine: `${cities[i % cities.length].replace('a', 'e')}` };
});
t = performance.now();
const results = locator.geocodeAddresses(records);
const batchMs = performance.now() - t;
const matched = results.filter((r) => r.status !== 'U').length;

t = performance.now();
const boundaries = await loadPackageBoundaries();
const boundaryMs = performance.now() - t;

console.log(
  JSON.stringify(
    {
      ...counts,
      loadMs: Math.round(loadMs),
      indexMs: Math.round(indexMs),
      heapMbGazetteerIndex: heapIndex - heapBefore,
      batch: {
        records: records.length,
        matched,
        ms: Math.round(batchMs),
        perSecond: Math.round((records.length / batchMs) * 1000),
      },
      boundaries: {
        count: boundaries.length,
        loadMs: Math.round(boundaryMs),
        heapMbTotal: heapMb() - heapBefore,
      },
    },
    null,
    2,
  ),
);
