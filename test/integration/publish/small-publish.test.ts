/**
 * A small file is published in one step: the workflow runs a single local activity (no activity task
 * goes through the queue) that plans, loads, finishes and marks the service ready, with the same
 * rows, counts and rollback as the step-by-step path.
 */
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishWorkflowId } from '../../../workflows/messages.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, publishFile, uniqueName } from './publish-client.js';

describe('a small publish', () => {
  let token: string;
  let connection: Connection;
  beforeAll(async () => {
    token = await signIn();
    connection = await Connection.connect({ address: stack().temporalAddress });
  });
  afterAll(async () => {
    await connection?.close();
  });

  const historyOf = async (jobId: string) => {
    const client = new Client({ connection });
    const handle = client.workflow.getHandle(publishWorkflowId(jobId));
    // The job completes in the database inside the activity; the workflow records it just after.
    await handle.result();
    const history = await handle.fetchHistory();
    return history.events ?? [];
  };

  it('runs as one local activity and serves every row of the file', async () => {
    const name = uniqueName('small_one_step');
    const { service, status } = await publishFile(token, 'chicago-libraries.csv', 'csv', {
      name,
      locationType: 'coordinates',
      latitudeFieldName: 'Latitude',
      longitudeFieldName: 'Longitude',
      layerInfo: { capabilities: 'Query' },
    });
    expect(status.status).toBe('completed');
    // The fixture has 12 data rows; one (BROK) has the latitude "not-a-number".
    expect(status).toMatchObject({ rowsRead: 12, rowsLoaded: 11, rowsRejected: 1, featureCount: 11 });
    const events = await historyOf(service.jobId);
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(0);
    const markers = events.filter((e) => e.markerRecordedEventAttributes);
    expect(markers).toHaveLength(1);
    const count = await call(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      returnCountOnly: 'true',
    });
    expect(count.json.count).toBe(11);
    const all = await call(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      outFields: '*',
      returnGeometry: 'false',
    });
    const rows = (all.json.features as { attributes: Record<string, unknown> }[]).map((f) =>
      Object.values(f.attributes),
    );
    const sulzer = rows.find((values) => values.includes('SULZ'));
    expect(sulzer).toEqual(expect.arrayContaining(['Sulzer Regional Library', 402311, 4.5]));
    expect(rows.some((values) => values.includes('BROK'))).toBe(false);
  });
});
