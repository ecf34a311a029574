/**
 * For the crash tests: worker processes on a task queue of the test's own (so the test decides which
 * worker dies), and a publish job of a generated CSV inserted as the publish route would insert it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createGazetteerGeocoder } from '../../../activities/publish/gazetteer-geocoder.js';
import { createPublishActivities } from '../../../activities/publish/publish-activities.js';
import type { PublishDeps } from '../../../activities/publish/publish-deps.js';
import { parsePublishParameters } from '../../../api/publish/publish-parameters.js';
import type { DatabaseHandle } from '../../../db/client.js';
import { insertJob } from '../../../db/repositories/jobs.js';
import { insertService } from '../../../db/repositories/services.js';
import { createObjectStore } from '../../../infra/object-store.js';
import { createOutboundFetch } from '../../../infra/outbound-fetch.js';
import { publishWorkflowId } from '../../../workflows/messages.js';
import { stack } from '../support/portal-client.js';
import { productEnv } from '../support/product-process.js';

/** A CSV of `rows` points; every 1000th row has an unusable latitude. */
export async function writePointsCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,name,category,value,lat,lon\n');
  for (let i = 1; i <= rows; i++) {
    const lat = i % 1000 === 0 ? 'n/a' : (41.6 + (i % 3800) / 10000).toFixed(5);
    const lon = (-87.9 + (i % 4500) / 10000).toFixed(5);
    if (!out.write(`${i},point ${i},c${i % 7},${(i % 997) / 10},${lat},${lon}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export function startWorker(
  taskQueue: string,
  dataDir: string,
  env: Record<string, string> = {},
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'infra/worker-main.ts'], {
    cwd: join(import.meta.dirname, '..', '..', '..'),
    env: productEnv({ DATA_DIR: dataDir, TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'error', ...env }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Uploads the CSV and inserts the service and job rows a publish of it by the administrator makes. */
export async function insertCsvPublishJob(
  database: DatabaseHandle,
  csvPath: string,
  jobId: string,
  serviceItemId: string,
): Promise<void> {
  const s = stack();
  const store = stackStore();
  const sourceKey = `publish/${jobId}/source`;
  const size = statSync(csvPath).size;
  await store.put(sourceKey, createReadStream(csvPath), size);
  const checked = parsePublishParameters({
    fileType: 'csv',
    parameters: {
      name: `killed_${serviceItemId}`,
      locationType: 'coordinates',
      layerInfo: { capabilities: 'Query' },
    },
    buildInitialCache: false,
    outputType: '',
  });
  const now = Date.now();
  await insertService(database.db, {
    serviceItemId,
    name: checked.serviceName,
    owner: s.admin.username,
    status: 'processing',
    definition: {},
    created: now,
    modified: now,
  });
  await insertJob(database.db, {
    id: jobId,
    serviceItemId,
    owner: s.admin.username,
    fileType: 'csv',
    workflowId: publishWorkflowId(jobId),
    status: 'processing',
    request: { ...checked, sourceKey, sourceSize: size },
    created: now,
    modified: now,
  });
}

/** The test stack's MinIO, as the worker's object store. */
export const stackStore = () => {
  const s = stack();
  return createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 });
};

/** The publish activities a worker runs, over `database` and the test stack's MinIO, with no outbound fetches. */
export function stackPublishActivities(
  database: DatabaseHandle,
  store = stackStore(),
  more: Pick<PublishDeps, 'partRows'> = {},
) {
  return createPublishActivities({
    ...more,
    database,
    store,
    now: Date.now,
    geocoder: createGazetteerGeocoder(),
    outbound: createOutboundFetch({
      allowedHosts: [],
      connectTimeoutMs: 1,
      readTimeoutMs: 1,
      maxResponseBytes: 0,
    }),
  });
}

/**
 * A loaded table's parts as the catalog has them: each part's valid indexes, how many part indexes
 * are attached to the table's, and each part's lowest and highest object id (in object id order).
 */
export async function tableParts(database: DatabaseHandle, table: string) {
  const parts = await database.rows<{ indexes: number }>(
    sql.raw(`select (select count(*)::int from pg_index x where x.indrelid = i.inhrelid and x.indisvalid) as indexes
      from pg_inherits i where i.inhparent = '"${table}"'::regclass`),
  );
  const [attached] = await database.rows<{ n: number }>(
    sql.raw(`select count(*)::int as n from pg_inherits i join pg_index x on x.indexrelid = i.inhparent
      where x.indrelid = '"${table}"'::regclass`),
  );
  const spread = await database.rows<{ lo: number; hi: number }>(
    sql.raw(
      `select min(objectid)::int as lo, max(objectid)::int as hi from "${table}" group by tableoid order by lo`,
    ),
  );
  return { parts, attached: attached.n, spread };
}
