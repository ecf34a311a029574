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

/** Wall time and CPU time of a step: on a shared machine CPU time is the steadier figure. */
const timed = <T>(run: () => T): { value: T; ms: number; cpuMs: number } => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = run();
  return {
    value,
    ms: Math.round(performance.now() - start),
    cpuMs: Math.round(process.cpuUsage(cpu).user / 1000),
  };
};

const heapBefore = heapMb();
let t = performance.now();
const data = await loadPackageGazetteer();
const loadMs = performance.now() - t;
const built = timed(() => new GazetteerIndex(data));
const index = built.value;
const counts = { places: data.places.length, postals: data.postals.length, regions: data.regions.length };
data.places.length = 0; // only the index stays alive from here on
const heapIndex = heapMb();

const locator = createLocator(index, { maxBatchSize: 2000 });
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
const batch = timed(() => locator.geocodeAddresses(records));
const matched = batch.value.filter((r) => r.status !== 'U').length;

t = performance.now();
const boundaries = await loadPackageBoundaries();
const boundaryMs = performance.now() - t;

console.log(
  JSON.stringify(
    {
      ...counts,
      loadMs: Math.round(loadMs),
      index: { ms: built.ms, cpuMs: built.cpuMs },
      heapMbGazetteerIndex: heapIndex - heapBefore,
      batch: {
        records: records.length,
        matched,
        ms: batch.ms,
        cpuMs: batch.cpuMs,
        perSecond: Math.round((records.length / batch.ms) * 1000),
        perCpuSecond: Math.round((records.length / batch.cpuMs) * 1000),
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
