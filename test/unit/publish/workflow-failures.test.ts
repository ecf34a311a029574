import { WorkflowFailedError } from '@temporalio/client';
import {
  ActivityFailure,
  ApplicationFailure,
  RetryState,
  TimeoutFailure,
  TimeoutType,
} from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { asTemporalFailure } from '../../../activities/publish/activity-errors.js';
import { badRequest, GeoError } from '../../../lib/errors.js';
import { BAD_INPUT, badInputOf, isTimeoutFailure } from '../../../lib/workflow-failures.js';

/** A workflow's failure as the client sees it: the workflow failed because its activity failed with `cause`. */
const workflowFailed = (cause: Error) =>
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

describe('the client error a workflow failure carries', () => {
  it('finds the activity`s bad input under the workflow and activity failures, messageCode included', () => {
    const failure = asTemporalFailure(
      new GeoError({
        code: 400,
        message: 'Unable to read the file.',
        details: ['Not a zip.'],
        messageCode: 'X_1',
      }),
    ) as ApplicationFailure;
    expect(failure.type).toBe(BAD_INPUT);
    expect(failure.nonRetryable).toBe(true);
    expect(badInputOf(workflowFailed(failure))).toEqual({
      code: 400,
      message: 'Unable to read the file.',
      details: ['Not a zip.'],
      messageCode: 'X_1',
    });
  });

  it('leaves out messageCode when the error has none', () => {
    const failure = asTemporalFailure(badRequest('Bad.', ['why'])) as ApplicationFailure;
    expect(badInputOf(workflowFailed(failure))).toEqual({ code: 400, message: 'Bad.', details: ['why'] });
  });

  it('finds nothing in a failure of another type, or in a plain error', () => {
    const other = ApplicationFailure.create({ message: 'boom', type: 'Other', details: [{ code: 400 }] });
    expect(badInputOf(workflowFailed(other))).toBeUndefined();
    expect(badInputOf(new Error('x'))).toBeUndefined();
    expect(badInputOf(undefined)).toBeUndefined();
    // A server error (5xx) is not the client's: it is not turned into BAD_INPUT.
    expect(asTemporalFailure(new GeoError({ code: 500, message: 'no', details: [] }))).toBeInstanceOf(
      GeoError,
    );
  });

  it('tells a timeout anywhere in the chain', () => {
    const timeout = new TimeoutFailure(
      'activity StartToClose timeout',
      undefined,
      TimeoutType.START_TO_CLOSE,
    );
    expect(isTimeoutFailure(workflowFailed(timeout))).toBe(true);
    expect(isTimeoutFailure(workflowFailed(ApplicationFailure.create({ message: 'x' })))).toBe(false);
  });
});
