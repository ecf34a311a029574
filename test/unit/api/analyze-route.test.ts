/**
 * The analyze route without a Temporal server: a stand-in client runs the real analyze activity in process
 * (or fails the way Temporal would), over an in-memory object store, so the route's own part is checked:
 * what it stores, how it maps failures, and that it leaves no object behind on any path.
 */
import { WorkflowFailedError } from '@temporalio/client';
import {
  ActivityFailure,
  ApplicationFailure,
  RetryState,
  TimeoutFailure,
  TimeoutType,
} from '@temporalio/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asTemporalFailure } from '../../../activities/publish/activity-errors.js';
import { createAnalyzeActivities } from '../../../activities/publish/analyze-source.js';
import { GeoError } from '../../../lib/errors.js';
import type { AnalyzeWorkflowInput } from '../../../workflows/analyze.js';
import { ADMIN, type InProcessApp, inProcessApp } from '../auth/in-process-app.js';
import { memoryStore } from './memory-store.js';

type Outcome = (input: AnalyzeWorkflowInput) => Promise<unknown>;

const activityFailed = (cause: Error) =>
  new WorkflowFailedError(
    'Workflow execution failed',
    new ActivityFailure(
      'Activity task failed',
      'analyzeSource',
      '1',
      RetryState.NON_RETRYABLE_FAILURE,
      '',
      cause,
    ),
    RetryState.NON_RETRYABLE_FAILURE,
  );

describe('the analyze route', () => {
  let app: InProcessApp;
  let token: string;
  const objects = new Map<string, Buffer>();
  const started: AnalyzeWorkflowInput[] = [];
  let outcome: Outcome;
  const store = memoryStore(objects);
  const runActivity: Outcome = async (input) => {
    try {
      return await createAnalyzeActivities({ store }).analyzeSource(input.analysis);
    } catch (e) {
      throw activityFailed(e as Error);
    }
  };

  beforeAll(async () => {
    app = await inProcessApp();
    Object.assign(app.deps, {
      store,
      temporal: async () => ({
        workflow: {
          start: async (name: string, options: { args: [AnalyzeWorkflowInput] }) => {
            expect(name).toBe('analyzeWorkflow');
            const [input] = options.args;
            started.push(input);
            return { result: () => outcome(input), terminate: async () => {} };
          },
        },
      }),
    });
    token = (
      await app.call('/sharing/rest/generateToken', { username: ADMIN.username, password: ADMIN.password })
    ).json.token;
  }, 120_000);
  afterAll(async () => app.close());
  beforeEach(() => {
    objects.clear();
    started.length = 0;
    outcome = runActivity;
  });

  const analyze = (text: string, filetype = 'csv') =>
    app.call('/sharing/rest/content/features/analyze', { token, text, filetype });

  it('stores the text under a temporary key, answers from the activity`s result, and removes both', async () => {
    const res = await analyze('name,lat,lon\nA,10.5,20.25\n');
    expect(res.json.error).toBeUndefined();
    expect(res.json.publishParameters).toMatchObject({
      type: 'csv',
      locationType: 'coordinates',
      latitudeFieldName: 'lat',
      longitudeFieldName: 'lon',
    });
    expect(res.json.records).toEqual([{ name: 'A', lat: 10.5, lon: 20.25 }]);
    const [input] = started;
    expect(input?.analysis).toMatchObject({ fileType: 'csv', size: 26, name: 'text' });
    expect(input?.timeoutMs).toBe(120_000 + 60_000);
    expect([...objects.keys()]).toEqual([]);
  });

  it('answers bad input in the reader`s words and leaves nothing behind', async () => {
    const res = await analyze('{"not":"a collection"}', 'featureCollection');
    expect(res.json.error).toMatchObject({ code: 400 });
    expect(res.json.error.details.length).toBeGreaterThan(0);
    expect(started).toHaveLength(1);
    expect([...objects.keys()]).toEqual([]);
  });

  it('keeps the messageCode of a bad-input failure', async () => {
    outcome = async () => {
      throw activityFailed(
        asTemporalFailure(
          new GeoError({ code: 400, message: 'Nope.', details: ['why'], messageCode: 'CONT_0001' }),
        ) as Error,
      );
    };
    const res = await analyze('a,b\n1,2\n');
    expect(res.json.error).toEqual({
      code: 400,
      message: 'Nope.',
      details: ['why'],
      messageCode: 'CONT_0001',
    });
    expect([...objects.keys()]).toEqual([]);
  });

  it('names the time limit when the analysis times out', async () => {
    outcome = async () => {
      throw activityFailed(new TimeoutFailure('timed out', undefined, TimeoutType.SCHEDULE_TO_CLOSE));
    };
    const res = await analyze('a,b\n1,2\n');
    expect(res.json.error).toEqual({
      code: 400,
      message: 'Unable to analyze the file.',
      details: ['The analysis did not finish within 180 s (PARSE_TIMEOUT_SECONDS + 60 s).'],
    });
    expect([...objects.keys()]).toEqual([]);
  });

  it('answers any other failure as a 500 that leaks nothing, and still cleans up', async () => {
    outcome = async () => {
      throw activityFailed(ApplicationFailure.create({ message: 'disk on fire', type: 'Other' }));
    };
    const res = await analyze('a,b\n1,2\n');
    expect(res.json.error).toEqual({
      code: 500,
      message: 'Unable to complete operation.',
      details: ['An unexpected error occurred on the server.'],
    });
    expect([...objects.keys()]).toEqual([]);
  });
});
