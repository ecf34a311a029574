/**
 * Who may use a hosted service: whoever may read its item (public, the organization, the owner, an
 * administrator, or a member of a group it is shared with). A caller without a token is asked for one
 * (499, which clients answer by signing in); a signed-in caller without access gets 403. REST, tiles
 * and SOAP all ask here, so a private service never answers anonymously on any surface.
 */
import type { Database } from '../../db/client.js';
import { mayReadItem } from '../../db/repositories/access.js';
import { findItem } from '../../db/repositories/items.js';
import type { UserRow } from '../../db/repositories/users.js';
import { audienceOf, type ServiceAudience } from '../../lib/access/items.js';
import { forbidden, tokenRequired } from '../../lib/errors.js';
import { createTtlMemo, type MemoWatch } from '../../lib/ttl-memo.js';
import { serviceNotFound } from './hosted-layer.js';

export type { ServiceAudience };

export async function authorizeService(
  db: Database,
  serviceItemId: string,
  viewer: UserRow | undefined,
): Promise<ServiceAudience> {
  const item = await findItem(db, serviceItemId);
  if (!item) throw serviceNotFound();
  if (await mayReadItem(db, item, viewer)) return audienceOf(item);
  throw viewer ? forbidden() : tokenRequired();
}

export interface ServiceAuthorizer {
  (db: Database, serviceItemId: string, viewer: UserRow | undefined): Promise<ServiceAudience>;
  /** A remembered grant, synchronously; undefined when not remembered, expired or refused. */
  known(serviceItemId: string, viewer: UserRow | undefined): ServiceAudience | undefined;
  /** `known` with a check that it is still the answer (lib/ttl-memo.ts `watch`): for the socket front's replays. */
  watching(serviceItemId: string, viewer: UserRow | undefined): MemoWatch<ServiceAudience> | undefined;
  /** Forgets every answer, after a change made in this process (sharing, deletion, a user's role). */
  clear(): void;
}

/**
 * authorizeService with each answer (granted or refused) remembered for a short time per item and
 * viewer: a map view asks for its tiles by the hundred. Concurrent first requests share one lookup, and
 * an answer in use is looked up again in the background before it expires (lib/ttl-memo.ts), so tile
 * requests do not all wait on the same lookup every `ttlMs`. A change of sharing shows within `ttlMs`.
 */
export function createServiceAuthorizer(
  ttlMs = 2_000,
  maxEntries = 10_000,
  now: () => number = Date.now,
): ServiceAuthorizer {
  type Answer = { audience: ServiceAudience } | { error: unknown };
  const answers = createTtlMemo<Answer>({ ttlMs, maxEntries, now });
  const keyOf = (serviceItemId: string, viewer: UserRow | undefined) =>
    viewer ? `${serviceItemId}\u0000${viewer.username}` : serviceItemId;
  const authorize = async (db: Database, serviceItemId: string, viewer: UserRow | undefined) => {
    const answer = await answers.get(keyOf(serviceItemId, viewer), async () => {
      try {
        return { audience: await authorizeService(db, serviceItemId, viewer) };
      } catch (error) {
        return { error };
      }
    });
    if ('audience' in answer) return answer.audience;
    throw answer.error;
  };
  const knownByKey = (key: string) => {
    const hit = answers.peek(key)?.value;
    return hit && 'audience' in hit ? hit.audience : undefined;
  };
  const known = (serviceItemId: string, viewer: UserRow | undefined) =>
    knownByKey(keyOf(serviceItemId, viewer));
  const watching = (serviceItemId: string, viewer: UserRow | undefined) => {
    const watch = answers.watch(keyOf(serviceItemId, viewer));
    return watch && 'audience' in watch.value
      ? { value: watch.value.audience, holds: watch.holds }
      : undefined;
  };
  return Object.assign(authorize, { known, watching, clear: () => answers.clear() });
}
