/**
 * itemIdToCreate: the client chooses the new service item's id (32 letters or digits, not yet taken).
 * The job id is derived from it and the owner, so repeating the same request finds the job it started
 * instead of publishing twice. Feature and tile publishes check it the same way.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { findItem } from '../../db/repositories/items.js';
import { findJob, type PublishJobRow } from '../../db/repositories/jobs.js';
import { findService } from '../../db/repositories/services.js';
import { normalizeItemId } from '../../lib/access/items.js';
import { badRequest } from '../../lib/errors.js';
import type { RequestParams } from '../params.js';

const ITEM_ID = /^[A-Za-z0-9]{32}$/;

const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

export interface ChosenItemId {
  /** The client's id, or undefined (a random one is made). */
  itemIdToCreate: string | undefined;
  jobId: string;
  /** The job an identical earlier request started, to answer with again. */
  previous: PublishJobRow | undefined;
}

/**
 * Reads and checks itemIdToCreate; refuses an id that an item other than our own job's has. Without
 * one, the job id is `freshJobId` (the id its uploaded file was staged under) or a new one.
 */
export async function chooseItemId(
  db: Database,
  params: RequestParams,
  owner: string,
  freshJobId: string = randomUUID(),
): Promise<ChosenItemId> {
  const given = params.get('itemIdToCreate') || undefined;
  if (given === undefined) return { itemIdToCreate: given, jobId: freshJobId, previous: undefined };
  if (!ITEM_ID.test(given)) {
    throw badRequest('Invalid or missing input parameters.', [
      'itemIdToCreate must be 32 letters or digits.',
    ]);
  }
  // Ids are compared case-insensitively, so the id is kept in lower case: `ABC…` and `abc…` are one
  // id, and the service's tables (named after its item id) can never be another service's.
  const itemIdToCreate = normalizeItemId(given);
  const jobId = uuidOf(createHash('sha256').update(`${owner}\n${itemIdToCreate}`).digest('hex'));
  const previous = await findJob(db, jobId);
  if (!previous && ((await findItem(db, itemIdToCreate)) || (await findService(db, itemIdToCreate)))) {
    throw badRequest(
      'Unable to publish.',
      [`An item with id ${itemIdToCreate} already exists.`],
      'CONT_0093',
    );
  }
  return { itemIdToCreate, jobId, previous };
}

/** A job id derived from another (the Map Service job of a publish with buildInitialCache). */
export const derivedJobId = (jobId: string, purpose: string): string =>
  uuidOf(createHash('sha256').update(`${jobId}\n${purpose}`).digest('hex'));
