/**
 * Runs in a parse thread: reads one whole file (today a zipped shapefile) under the archive budget and
 * answers with its tables, or with the error that refused it. The thread has a heap cap, so a file
 * that needs more memory than allowed ends this thread only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isGeoError } from '../../lib/errors.js';
import { featureTable } from './feature-source.js';
import type { ParseReply, ParseRequest } from './parse-thread.js';
import { readShapefileZip } from './shapefile-zip.js';

const port = parentPort;
if (!port) throw new Error('parse-work runs in a worker thread.');
const request = workerData as ParseRequest;

async function run(): Promise<ParseReply> {
  try {
    const collections = await readShapefileZip(request.bytes, request.budget);
    return { ok: true, tables: collections.map((c) => featureTable(c.name, c.features)) };
  } catch (e) {
    if (isGeoError(e)) return { ok: false, error: e.toBody() };
    return {
      ok: false,
      error: {
        code: 400,
        message: 'Unable to read the file.',
        details: [String((e as Error)?.message ?? e)],
      },
    };
  }
}

port.postMessage(await run());
