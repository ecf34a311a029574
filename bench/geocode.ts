/**
 * Geocoding benchmark: addresses per second through geocodeAddresses over HTTP, and the match rate on a set
 * of addresses with known coordinates (test/fixtures/geocode/known-addresses.csv: world cities, US and
 * Canadian postal codes, misspellings, and street addresses over the Chicago address points).
 *
 *   npx tsx bench/geocode.ts [--records 20000] [--batch 1000] [--concurrency 1]
 *
 * The server is the GeocodeServer router the API mounts, served by @hono/node-server in this process with the
 * shipped-package locator; no database, Temporal or MinIO is needed to measure the locator and its wire format.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import Papa from 'papaparse';
import { createGeocodeRouter } from '../api/geocode/geocode-server.js';
import { loadAddressPointsCsv } from '../infra/gazetteer/address-points-csv.js';
import { createPackageLocator } from '../infra/gazetteer/package-locator.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '20000' },
    batch: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '1' },
  },
});
const totalRecords = Number(values.records);
const batchSize = Number(values.batch);
const concurrency = Number(values.concurrency);

const fixtures = join(import.meta.dirname, '..', 'test', 'fixtures', 'geocode');

interface Known {
  SingleLine: string;
  lon: number;
  lat: number;
  toleranceKm: number;
}

const known = Papa.parse<Known>(readFileSync(join(fixtures, 'known-addresses.csv'), 'utf8'), {
  header: true,
  dynamicTyping: { lon: true, lat: true, toleranceKm: true },
  skipEmptyLines: true,
}).data;

function km(a: { x: number; y: number }, b: { x: number; y: number }): number {
  const k = Math.PI / 180;
  const dx = (a.x - b.x) * k * Math.cos(((a.y + b.y) / 2) * k);
  return Math.hypot(dx, (a.y - b.y) * k) * 6371;
}

async function geocodeBatch(url: string, records: { OBJECTID: number; SingleLine: string }[]) {
  const body = new URLSearchParams({
    f: 'json',
    addresses: JSON.stringify({ records: records.map((attributes) => ({ attributes })) }),
  });
  const res = await fetch(`${url}/geocodeAddresses`, { method: 'POST', body });
  const json = (await res.json()) as { locations?: any[]; error?: unknown };
  if (!json.locations) throw new Error(`geocodeAddresses failed: ${JSON.stringify(json.error)}`);
  return json.locations;
}

async function main() {
  const started = performance.now();
  const locator = await createPackageLocator();
  const points = await loadAddressPointsCsv(
    locator.index,
    readFileSync(join(fixtures, 'openaddresses-chicago.csv'), 'utf8'),
    { countryCode: 'US' },
  );
  const buildSeconds = (performance.now() - started) / 1000;
  const heapMb = process.memoryUsage().heapUsed / 1024 ** 2;

  const app = new Hono().route('/rest/services', createGeocodeRouter({ locator }));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/rest/services/World/GeocodeServer`;

  // Match rate: every known address once; matched means status M or T within the row's tolerance.
  const locations = await geocodeBatch(
    url,
    known.map((k, i) => ({ OBJECTID: i + 1, SingleLine: k.SingleLine })),
  );
  const byId = new Map(locations.map((l) => [l.attributes.ResultID as number, l]));
  const misses: string[] = [];
  const classes = new Map<number, { total: number; matched: number }>();
  known.forEach((k, i) => {
    const l = byId.get(i + 1);
    const ok =
      l !== undefined &&
      l.attributes.Status !== 'U' &&
      km(l.location, { x: k.lon, y: k.lat }) <= k.toleranceKm;
    const c = classes.get(k.toleranceKm) ?? { total: 0, matched: 0 };
    c.total++;
    if (ok) c.matched++;
    else misses.push(`${k.SingleLine} → ${l?.attributes.Status === 'U' ? 'unmatched' : l?.address}`);
    classes.set(k.toleranceKm, c);
  });
  const matched = [...classes.values()].reduce((n, c) => n + c.matched, 0);

  // Throughput: the known addresses repeated to the requested count, batches sent `concurrency` at a time.
  const records = Array.from({ length: totalRecords }, (_, i) => ({
    OBJECTID: i + 1,
    SingleLine: known[i % known.length].SingleLine,
  }));
  const batches: (typeof records)[] = [];
  for (let i = 0; i < records.length; i += batchSize) batches.push(records.slice(i, i + batchSize));
  await geocodeBatch(url, batches[0].slice(0, 50)); // warm-up
  const t0 = performance.now();
  let next = 0;
  let answered = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) {
        const batch = batches[next++];
        answered += (await geocodeBatch(url, batch)).length;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  server.close();

  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
  console.log(
    `locator build: ${buildSeconds.toFixed(2)} s, heap ${heapMb.toFixed(0)} MB, ${points} address points`,
  );
  console.log(`match rate: ${matched}/${known.length} = ${pct(matched, known.length)}`);
  for (const [tolerance, c] of [...classes].sort((a, b) => b[0] - a[0]))
    console.log(`  within ${tolerance} km: ${c.matched}/${c.total} = ${pct(c.matched, c.total)}`);
  for (const miss of misses) console.log(`  miss: ${miss}`);
  console.log(
    `geocodeAddresses: ${answered} addresses in ${seconds.toFixed(2)} s = ${Math.round(answered / seconds)} addresses/s` +
      ` (batches of ${batchSize}, ${concurrency} at a time)`,
  );
  console.log(
    `reproduce: npx tsx bench/geocode.ts --records ${totalRecords} --batch ${batchSize} --concurrency ${concurrency}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
