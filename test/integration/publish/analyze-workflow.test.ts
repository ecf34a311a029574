/**
 * analyze runs in the worker (workflows/analyze.ts), not in the API: the upload goes to the object store
 * under a temporary key, the activity writes the answer there, and the API removes both before it
 * answers, on success and on bad input alike.
 */
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { Client as MinioClient } from 'minio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '../../fixtures/ingest/zip-writer.js';
import { adminToken, stack } from '../support/portal-client.js';

let connection: Connection;
let temporal: Client;
let minio: MinioClient;

beforeAll(async () => {
  connection = await Connection.connect({ address: stack().temporalAddress });
  temporal = new Client({ connection });
  const m = stack().minio;
  const url = new URL(m.endpoint);
  minio = new MinioClient({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: false,
    accessKey: m.accessKey,
    secretKey: m.secretKey,
  });
});
afterAll(async () => connection?.close());

async function analyzeUpload(file: Buffer | string, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set('f', 'json');
  form.set('token', await adminToken());
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([file]), name);
  const res = await fetch(`${stack().baseUrl}/sharing/rest/content/features/analyze`, {
    method: 'POST',
    body: form,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, any>;
}

/** The analyze workflow started for the upload named `name` (its memo carries the file name). */
async function workflowOf(name: string): Promise<WorkflowHandle> {
  for await (const w of temporal.workflow.list({ query: "WorkflowType = 'analyzeWorkflow'" })) {
    if (w.memo?.name === name) return temporal.workflow.getHandle(w.workflowId, w.runId);
  }
  throw new Error(`no analyze workflow for ${name}`);
}

/** The workflow's input, as the API sent it. */
async function inputOf(handle: WorkflowHandle): Promise<Record<string, any>> {
  const history = await handle.fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const data = started?.input?.payloads?.[0]?.data;
  if (!data) throw new Error('no workflow input');
  return JSON.parse(Buffer.from(data).toString('utf8'));
}

async function exists(key: string): Promise<boolean> {
  try {
    await minio.statObject(stack().minio.bucket, key);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'NotFound') return false;
    throw e;
  }
}

describe('analyze through the worker', () => {
  it('answers an uploaded CSV from the workflow and leaves no temporary object behind', async () => {
    const name = `analyze_wf_${Date.now()}.csv`;
    const csv = 'city,lat,lon,pop\nAlpha,48.5,9.25,1200\nBeta,-12.75,130.5,87\n';
    const json = await analyzeUpload(csv, name, { filetype: 'csv' });
    expect(json.error).toBeUndefined();
    expect(json.publishParameters).toMatchObject({
      type: 'csv',
      name: name.replace('.csv', ''),
      locationType: 'coordinates',
      latitudeFieldName: 'lat',
      longitudeFieldName: 'lon',
      columnDelimiter: ',',
    });
    expect(json.records).toEqual([
      { city: 'Alpha', lat: 48.5, lon: 9.25, pop: 1200 },
      { city: 'Beta', lat: -12.75, lon: 130.5, pop: 87 },
    ]);

    const handle = await workflowOf(name);
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    const { analysis } = await inputOf(handle);
    // The upload went to a temporary key, whole (it is under 512 KiB) ...
    expect(analysis.sourceKey).toMatch(/^analyze\/[0-9a-f-]{36}\/source$/);
    expect(analysis.size).toBe(Buffer.byteLength(csv));
    expect(analysis.resultKey).toMatch(/^analyze\/[0-9a-f-]{36}\/result\.json$/);
    // ... and both objects were removed before the answer.
    expect(await exists(analysis.sourceKey)).toBe(false);
    expect(await exists(analysis.resultKey)).toBe(false);
    // The history holds keys and sizes only, never the rows.
    expect(JSON.stringify((await handle.fetchHistory()).events)).not.toContain('Alpha');
  });

  it('returns 1000 sample records (far more than a workflow payload should hold) through the store', async () => {
    const name = `analyze_wf_wide_${Date.now()}.csv`;
    const pad = 'x'.repeat(300);
    const lines = ['id,note'];
    for (let i = 0; i < 1000; i++) lines.push(`${i},${pad}${i}`);
    const json = await analyzeUpload(`${lines.join('\n')}\n`, name, {
      filetype: 'csv',
      analyzeParameters: JSON.stringify({ resultRecordCount: 1000 }),
    });
    expect(json.error).toBeUndefined();
    expect(json.records).toHaveLength(1000);
    expect(json.records[999]).toEqual({ id: 999, note: `${pad}999` });
    expect(JSON.stringify(json).length).toBeGreaterThan(300_000);
  });

  it('analyzes a CSV over 512 KiB from the first 512 KiB the API stored', async () => {
    const name = `analyze_wf_long_${Date.now()}.csv`;
    const lines = ['id,label,x,y'];
    for (let i = 0; i < 30_000; i++) lines.push(`${i},label_${i},${(i % 360) - 180},${(i % 170) - 85}`);
    const csv = `${lines.join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(700 * 1024);
    const json = await analyzeUpload(csv, name, { filetype: 'csv' });
    expect(json.error).toBeUndefined();
    expect(json.publishParameters).toMatchObject({
      locationType: 'coordinates',
      latitudeFieldName: 'y',
      longitudeFieldName: 'x',
    });
    expect(json.records).toHaveLength(10);
    expect(json.records[9]).toEqual({ id: 9, label: 'label_9', x: -171, y: -76 });
    const { analysis } = await inputOf(await workflowOf(name));
    expect(analysis.size).toBe(csv.length);
    expect(await exists(analysis.sourceKey)).toBe(false);
  });

  it('answers a bad file with the reader`s 400 and removes its temporary objects', async () => {
    const name = `analyze_wf_slip_${Date.now()}.zip`;
    const zip = writeZip([{ name: '../escape.shp', data: Buffer.from('x'), method: 0 }]);
    const json = await analyzeUpload(zip, name, { filetype: 'shapefile' });
    expect(json.error).toEqual({
      code: 400,
      message: 'Unable to read the archive.',
      details: [`The entry name "../escape.shp" has a '..' segment.`],
    });
    const handle = await workflowOf(name);
    expect((await handle.describe()).status.name).toBe('FAILED');
    const { analysis } = await inputOf(handle);
    expect(await exists(analysis.sourceKey)).toBe(false);
    expect(await exists(analysis.resultKey)).toBe(false);
  });
});
