// A thread's work module that uses the CommonJS packages thread bundles carry inside them (proj4,
// papaparse): answers a point projected to Web Mercator and a parsed line of CSV.
import { parentPort } from 'node:worker_threads';
import Papa from 'papaparse';
import proj4 from 'proj4';

parentPort?.on('message', (m: { point: [number, number]; csv: string }) =>
  parentPort?.postMessage({
    projected: proj4('EPSG:4326', 'EPSG:3857', m.point),
    rows: Papa.parse<string[]>(m.csv).data,
  }),
);
