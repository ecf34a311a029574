/**
 * calculate, truncate and updateDefinition with async=true are jobs of the worker: their workflow runs
 * the step, whose transaction does the work and completes the job at once. The table is read with SQL
 * written here; the step is run again with the very input the worker ran, to see it fenced by its job;
 * and jobs whose workflow is terminated before a worker takes it, or never started, read Failed.
 */
import { Client, Connection, defaultPayloadConverter } from '@temporalio/client';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServiceJob } from '../../../activities/service-jobs/service-job-activities.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { findJob, insertJob } from '../../../db/repositories/service-jobs.js';
import { createObjectStore } from '../../../infra/object-store.js';
import {
  SERVICE_JOB_WORKFLOW,
  type ServiceJobInput,
  type ServiceJobOperation,
  serviceJobWorkflowId,
} from '../../../workflows/service-job-messages.js';
import { EDITABLE, type EditableService, edit, publishStations } from '../editing/edit-client.js';
import { newUser } from '../portal/portal-helpers.js';
import { featureServer } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { followJob } from './job-client.js';

// stations.csv: OBJECTID 1 North Pier (Visits 120), 2 Lock Station (80), 3 South Buoy (15).
describe('service jobs in the worker', () => {
  let token: string;
  let svc: EditableService;
  let sql: postgres.Sql;
  let database: DatabaseHandle;
  let connection: Connection;
  let client: Client;
  let table: string;
  let visitsColumn: string;
  let calculated: ServiceJobInput;
  let recordedWork: any;
  const deps = () => ({
    database,
    store: createObjectStore({ ...stack().minio, endpoint: new URL(stack().minio.endpoint), consolePort: 0 }),
    now: Date.now,
  });
  const jobIdOf = (statusUrl: string) => statusUrl.split('/').pop() ?? '';
  const newJobId = () =>
    `${Date.now().toString(16)}${Math.floor(Math.random() * 1e6).toString(16)}`.padEnd(32, 'e');
  const jobPath = (jobId: string) => `${featureServer(svc.name)}/jobs/${jobId}`;
  /** Visits by OBJECTID, straight from the layer's table. */
  const visits = async () =>
    (await sql.unsafe(`select "${visitsColumn}"::int as v from "${table}" order by objectid`)).map(
      (r) => r.v as number,
    );
  const workflowOf = (operation: ServiceJobOperation, jobId: string) =>
    client.workflow.getHandle(serviceJobWorkflowId(operation, jobId));
  /**
   * The workflow's final status. The job row is written by the step, a moment before its workflow closes,
   * so a job read as done is waited on here until its workflow has closed too.
   */
  const closedStatus = async (operation: ServiceJobOperation, jobId: string) => {
    const handle = workflowOf(operation, jobId);
    await handle.result().catch(() => undefined);
    return (await handle.describe()).status.name;
  };
  const ranStep = async (operation: ServiceJobOperation, jobId: string) =>
    ((await workflowOf(operation, jobId).fetchHistory()).events ?? []).some(
      (e) => e.activityTaskCompletedEventAttributes || e.activityTaskFailedEventAttributes,
    );
  const addJob = async (jobId: string, operation: ServiceJobOperation, work?: unknown) =>
    insertJob(database.db, {
      jobId,
      operation,
      serviceItemId: svc.serviceItemId,
      submitter: stack().admin.username,
      submissionTime: Date.now(),
      ...(work ? { work } : {}),
    });

  beforeAll(async () => {
    token = await signIn();
    svc = await publishStations(token, EDITABLE);
    sql = postgres(stack().databaseUrl, { max: 1, onnotice: () => {} });
    database = await openDatabase({ databaseUrl: stack().databaseUrl, poolSize: 2 });
    connection = await Connection.connect({ address: stack().temporalAddress });
    client = new Client({ connection });
    const [layer] = await sql`select table_name, columns from hosted_layers
      where service_item_id = ${svc.serviceItemId} and layer_id = 0`;
    table = layer.table_name;
    const columns = (typeof layer.columns === 'string' ? JSON.parse(layer.columns) : layer.columns) as {
      name: string;
      column: string;
    }[];
    visitsColumn = columns.find((c) => c.name === 'Visits')?.column ?? '';
    expect(visitsColumn).toMatch(/^a_\d+$/);
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await database?.close();
    await connection?.close();
  });

  it('an async calculate is done by the worker: its workflow ran the step and the table holds the values', async () => {
    const res = await edit(`${svc.layer}/calculate`, token, {
      where: '1=1',
      calcExpression: [{ field: 'Visits', sqlExpression: 'Visits + 1' }],
      async: 'true',
    });
    const job = await followJob(res.statusUrl, token);
    expect([job.status, job.updatedFeatureCount]).toEqual(['Completed', 3]);
    expect(await visits()).toEqual([121, 81, 16]);
    const jobId = jobIdOf(res.statusUrl);
    expect(await closedStatus('calculate', jobId)).toBe('COMPLETED');
    expect(await ranStep('calculate', jobId)).toBe(true);
    const history = await workflowOf('calculate', jobId).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    calculated = defaultPayloadConverter.fromPayload(payload!) as ServiceJobInput;
    // The workflow carries the job's ids only; what to do is in the job's row, read here with SQL.
    expect(calculated).toEqual({ jobId, operation: 'calculate' });
    const [row] = await sql`select work from service_jobs where job_id = ${jobId}`;
    recordedWork = row.work;
    expect([recordedWork.kind, recordedWork.tableName, recordedWork.layerId]).toEqual([
      'calculate',
      table,
      0,
    ]);
  });

  it('the step run again with the input the worker ran finds its job Completed and adds nothing', async () => {
    const again = await runServiceJob(deps(), calculated);
    expect(again.answer).toEqual({ success: true, updatedFeatureCount: 3, status: 'Completed' });
    expect(await visits()).toEqual([121, 81, 16]);
  });

  it('a step retried after its transaction committed applies once: x = x + 1 adds 1', async () => {
    const jobId = newJobId();
    await addJob(jobId, 'calculate', recordedWork);
    const input = { ...calculated, jobId };
    const first = await runServiceJob(deps(), input);
    const second = await runServiceJob(deps(), input);
    expect(first.answer).toEqual({ success: true, updatedFeatureCount: 3, status: 'Completed' });
    expect(second.answer).toEqual(first.answer);
    expect(await visits()).toEqual([122, 82, 17]);
    expect((await findJob(database.db, jobId))?.status).toBe('Completed');
  });

  it('a failing async calculate ends Failed with the client error and changes nothing', async () => {
    const [{ n: before }] = await sql.unsafe(`select count(*)::int as n from "${table}"`);
    const res = await edit(`${svc.layer}/calculate`, token, {
      calcExpression: [{ field: 'Visits', sqlExpression: 'Visits * 10000000000' }],
      async: 'true',
    });
    const job = await followJob(res.statusUrl, token);
    expect([job.status, job.error.code, job.error.message]).toEqual([
      'Failed',
      400,
      'Unable to complete operation.',
    ]);
    expect(job.error.details[0]).toMatch(/could not be done on the stored values/);
    expect(await visits()).toEqual([122, 82, 17]);
    const [{ n: after }] = await sql.unsafe(`select count(*)::int as n from "${table}"`);
    expect(after).toBe(before);
    // The worker ran it and failed it at once: a client's error is not retried.
    const jobId = jobIdOf(res.statusUrl);
    expect(await closedStatus('calculate', jobId)).toBe('FAILED');
    expect(await ranStep('calculate', jobId)).toBe(true);
  });

  it('a calculate job whose workflow is terminated before a worker runs it reads Failed', async () => {
    const jobId = newJobId();
    await addJob(jobId, 'calculate');
    // A task queue no worker polls: the workflow waits there until it is terminated.
    const handle = await client.workflow.start(SERVICE_JOB_WORKFLOW, {
      taskQueue: `unpolled-${jobId}`,
      workflowId: serviceJobWorkflowId('calculate', jobId),
      args: [{ ...calculated, jobId }],
    });
    const waiting = (await call(jobPath(jobId), { token }, { method: 'GET' })).json;
    expect(waiting.status).toBe('Executing');
    await handle.terminate('test: the worker never takes it');
    const job = (await call(jobPath(jobId), { token }, { method: 'GET' })).json;
    expect([job.status, job.operation, job.error]).toEqual([
      'Failed',
      'calculate',
      { code: 500, message: 'Unable to complete operation.', details: ['The calculate job was terminated.'] },
    ]);
    expect(await visits()).toEqual([122, 82, 17]);
  });

  it('a truncate job whose workflow never started reads Failed', async () => {
    const jobId = newJobId();
    await addJob(jobId, 'truncate');
    const job = (await call(jobPath(jobId), { token }, { method: 'GET' })).json;
    expect([job.status, job.error]).toEqual([
      'Failed',
      { code: 500, message: 'Unable to truncate.', details: ['The truncate job never started.'] },
    ]);
  });

  it('an async updateDefinition is done by the worker: the stored definition changes', async () => {
    const res = await edit(
      `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0/updateDefinition`,
      token,
      {
        updateDefinition: { maxRecordCount: 11, description: 'worker-made' },
        async: 'true',
      },
    );
    const job = await followJob(res.statusUrl, token);
    expect([job.status, job.operation, job.success]).toEqual(['Completed', 'updateDefinition', true]);
    const [row] = await sql`select definition->>'maxRecordCount' as m, definition->>'description' as d
      from hosted_layers where service_item_id = ${svc.serviceItemId} and layer_id = 0`;
    expect([row.m, row.d]).toEqual(['11', 'worker-made']);
    expect((await call(svc.layer, { token }, { method: 'GET' })).json.maxRecordCount).toBe(11);
    expect(await closedStatus('updateDefinition', jobIdOf(res.statusUrl))).toBe('COMPLETED');
  });

  it('an async definition change larger than a workflow input may be completes: the work is in the job row', async () => {
    // 25,000 unique values: about 3.4 MB of JSON, over the 2 MB Temporal allows a workflow's input.
    const uniqueValueInfos = Array.from({ length: 25_000 }, (_, i) => ({
      value: String(i),
      label: `visits ${i}`,
      symbol: { type: 'esriSMS', style: 'esriSMSCircle', color: [i % 256, 0, 0, 255], size: 6 },
    }));
    const drawingInfo = { renderer: { type: 'uniqueValue', field1: 'Visits', uniqueValueInfos } };
    expect(JSON.stringify(drawingInfo).length).toBeGreaterThan(3_000_000);
    const res = await edit(
      `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0/updateDefinition`,
      token,
      { updateDefinition: { drawingInfo }, async: 'true' },
    );
    const job = await followJob(res.statusUrl, token);
    expect([job.status, job.operation, job.success]).toEqual(['Completed', 'updateDefinition', true]);
    const [row] =
      await sql`select jsonb_array_length(definition->'drawingInfo'->'renderer'->'uniqueValueInfos') as n,
      definition->'drawingInfo'->'renderer'->'uniqueValueInfos'->24999->>'label' as last
      from hosted_layers where service_item_id = ${svc.serviceItemId} and layer_id = 0`;
    expect([row.n, row.last]).toEqual([25_000, 'visits 24999']);
    const history = await workflowOf('updateDefinition', jobIdOf(res.statusUrl)).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    expect(payload?.data?.length).toBeLessThan(200);
  });

  it('an async truncate is done by the worker: the table is empty and the layer count is 0', async () => {
    const res = await edit(`/rest/admin/services/Hosted/${svc.name}/FeatureServer/0/truncate`, token, {
      async: 'true',
    });
    const job = await followJob(res.statusUrl, token);
    expect([job.status, job.operation, job.success]).toEqual(['Completed', 'truncate', true]);
    const [{ n }] = await sql.unsafe(`select count(*)::int as n from "${table}"`);
    expect(n).toBe(0);
    const [layer] = await sql`select feature_count::int as c from hosted_layers
      where service_item_id = ${svc.serviceItemId} and layer_id = 0`;
    expect(layer.c).toBe(0);
    expect(await closedStatus('truncate', jobIdOf(res.statusUrl))).toBe('COMPLETED');
  });
});

describe('an async calculate by a user who may update only their own features', () => {
  let sql: postgres.Sql;

  beforeAll(() => {
    sql = postgres(stack().databaseUrl, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => sql?.end());

  it('the job updates only the features the caller owns, as the caller', async () => {
    const token = await signIn();
    const svc = await publishStations(token, {
      ...EDITABLE,
      editorTrackingInfo: {
        enableEditorTracking: true,
        enableOwnershipAccessControl: true,
        allowOthersToQuery: true,
        allowOthersToUpdate: false,
      },
    });
    const shared = await call(
      `/sharing/rest/content/users/${stack().admin.username}/items/${svc.serviceItemId}/share`,
      { token, org: 'true' },
    );
    expect(shared.json.error).toBeUndefined();
    const alice = await newUser();
    const added = await edit(`${svc.layer}/addFeatures`, alice.token, {
      features: [{ attributes: { Name: 'Alice dock', Visits: 1 }, geometry: { x: -9750000, y: 5140000 } }],
    });
    expect(added.addResults[0].success).toBe(true);

    const res = await edit(`${svc.layer}/calculate`, alice.token, {
      calcExpression: [{ field: 'Visits', sqlExpression: 'Visits + 100' }],
      async: 'true',
    });
    const job = await followJob(res.statusUrl, alice.token);
    expect([job.status, job.updatedFeatureCount]).toEqual(['Completed', 1]);

    const [layer] = await sql`select table_name, columns from hosted_layers
      where service_item_id = ${svc.serviceItemId} and layer_id = 0`;
    const columns = (typeof layer.columns === 'string' ? JSON.parse(layer.columns) : layer.columns) as {
      name: string;
      column: string;
    }[];
    const col = (name: string) => columns.find((c) => c.name === name)?.column;
    const rows = await sql.unsafe(
      `select "${col('Visits')}"::int as v, "${col('Editor')}" as editor from "${layer.table_name}" order by objectid`,
    );
    expect(rows.map((r) => [r.v, r.editor])).toEqual([
      [120, stack().admin.username],
      [80, stack().admin.username],
      [15, stack().admin.username],
      [101, alice.username],
    ]);
  }, 120_000);
});
