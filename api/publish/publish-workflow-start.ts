/** Starts the publish workflow of a job, with the memo and search attributes the Temporal UI shows. */

import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { Context } from 'hono';
import type { PublishJobRow } from '../../db/repositories/jobs.js';
import { PUBLISH_WORKFLOW, type PublishWorkflowInput } from '../../workflows/messages.js';
import type { publishWorkflow } from '../../workflows/publish.js';
import type { AppEnv } from '../env.js';

const KEYS = {
  itemId: defineSearchAttributeKey('ItemId', SearchAttributeType.KEYWORD),
  owner: defineSearchAttributeKey('Owner', SearchAttributeType.KEYWORD),
  fileType: defineSearchAttributeKey('FileType', SearchAttributeType.KEYWORD),
  jobType: defineSearchAttributeKey('JobType', SearchAttributeType.KEYWORD),
};

export async function startWorkflow(
  c: Context<AppEnv>,
  job: PublishJobRow,
  cache?: { serviceItemId: string; jobId: string },
  overwrite = false,
) {
  const { config } = c.get('deps');
  const client = await c.get('deps').temporal();
  const input: PublishWorkflowInput = {
    jobId: job.id,
    serviceItemId: job.serviceItemId,
    owner: job.owner,
    fileType: job.fileType,
    sourceSize: job.request.sourceSize,
    ...(cache ? { cache } : {}),
    ...(overwrite ? { overwrite } : {}),
  };
  await client.workflow.start<typeof publishWorkflow>(PUBLISH_WORKFLOW, {
    taskQueue: config.temporal.taskQueue,
    workflowId: job.workflowId,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
    memo: { serviceName: job.request.serviceName, sourceItemId: job.sourceItemId ?? '', jobId: job.id },
    typedSearchAttributes: [
      { key: KEYS.itemId, value: job.serviceItemId },
      { key: KEYS.owner, value: job.owner },
      { key: KEYS.fileType, value: job.fileType },
      { key: KEYS.jobType, value: 'publish' },
    ],
  });
}
