import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishProgressQuery, publishWorkflowId } from '../../../workflows/messages.js';
import { signIn, stack } from '../support/portal-client.js';
import { publishFile, uniqueName } from './publish-client.js';

describe('the publish job as the Temporal UI shows it', () => {
  let connection: Connection;
  let client: Client;
  let jobId: string;
  let serviceItemId: string;
  let name: string;

  beforeAll(async () => {
    connection = await Connection.connect({ address: stack().temporalAddress });
    client = new Client({ connection });
    const token = await signIn();
    name = uniqueName('visible');
    const { service } = await publishFile(token, 'chicago-libraries.csv', 'csv', {
      name,
      locationType: 'coordinates',
      layerInfo: { capabilities: 'Query' },
    });
    ({ jobId, serviceItemId } = service);
    // The job completes in the database inside the activity; the workflow sets its memo just after.
    await client.workflow.getHandle(publishWorkflowId(jobId)).result();
  });
  afterAll(async () => connection?.close());

  it('has a readable workflow id derived from the job id', async () => {
    const d = await client.workflow.getHandle(publishWorkflowId(jobId)).describe();
    expect(d.workflowId).toBe(`publish-${jobId}`);
    expect(d.type).toBe('publishWorkflow');
  });

  it('carries the item id, owner, file type and job type as search attributes', async () => {
    const d = await client.workflow.getHandle(publishWorkflowId(jobId)).describe();
    expect(d.searchAttributes).toMatchObject({
      ItemId: [serviceItemId],
      Owner: [stack().admin.username],
      FileType: ['csv'],
      JobType: ['publish'],
    });
  });

  it('is found by a visibility query on its item id', async () => {
    const found: string[] = [];
    for await (const w of client.workflow.list({ query: `ItemId = '${serviceItemId}'` }))
      found.push(w.workflowId);
    expect(found).toEqual([`publish-${jobId}`]);
  });

  it('keeps a memo with the service name and the final counts', async () => {
    const d = await client.workflow.getHandle(publishWorkflowId(jobId)).describe();
    expect(d.memo).toMatchObject({ serviceName: name, layersDone: 1, featureCount: 11, rowsRejected: 1 });
  });

  it('answers the progress query after completion with per-layer counts', async () => {
    const progress = await client.workflow.getHandle(publishWorkflowId(jobId)).query(publishProgressQuery);
    expect(progress).toMatchObject({ phase: 'completed', layersTotal: 1, layersDone: 1 });
    expect(progress.layers[0]).toMatchObject({
      rowsRead: 12,
      rowsLoaded: 11,
      rowsRejected: 1,
      featureCount: 11,
    });
  });
});
