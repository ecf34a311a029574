/** Item relationships: addRelationship, deleteRelationship(s) and content/items/{id}/relatedItems. */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { mayReadItem as canReadShared } from '../../db/repositories/access.js';
import {
  deleteRelationshipRow,
  findRelationship,
  insertRelationship,
  type RelationshipKey,
  relatedItemRows,
} from '../../db/repositories/items.js';
import { canChange, itemControl, normalizeItemId } from '../../lib/access/items.js';
import { badRequest, forbidden, GeoError } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { copySharing } from './composite-share.js';
import { readableItem } from './item-access.js';
import { itemJson } from './item-json.js';
import { pageInfo, readPage } from './paging.js';
import {
  assertRelationshipAllowed,
  type RelationshipType,
  relationshipTypeList,
} from './relationship-types.js';

const missing = (detail: string) => badRequest('Invalid or missing input parameters.', [detail]);

/** relationshipType (rest-js) or relationshipTypes (docs), whichever the client sent. */
function typesParam(c: Context<AppEnv>): RelationshipType[] {
  const params = c.get('params');
  return relationshipTypeList(params.get('relationshipTypes') ?? params.get('relationshipType'));
}

function oneType(c: Context<AppEnv>): RelationshipType {
  const types = typesParam(c);
  if (types.length !== 1) throw missing("Give exactly one relationship type in 'relationshipType'.");
  return types[0]!;
}

/** The caller acting as the path user: relationships belong to who creates them. */
function actingUser(c: Context<AppEnv>) {
  const caller = requireUser(c);
  if (caller.username.toLowerCase() !== (c.req.param('username') ?? '').toLowerCase()) throw forbidden();
  return caller;
}

function relationshipKey(c: Context<AppEnv>, type: RelationshipType): RelationshipKey {
  const params = c.get('params');
  const originItemId = params.get('originItemId');
  const destinationItemId = params.get('destinationItemId');
  if (!originItemId || !destinationItemId)
    throw missing("'originItemId' and 'destinationItemId' are required.");
  return {
    originItemId: normalizeItemId(originItemId),
    destinationItemId: normalizeItemId(destinationItemId),
    relationshipType: type.name,
  };
}

/**
 * Adds the relationship `key` of `type` for `caller` (addRelationship, and addItem's originItemId or
 * destinationItemId): both items readable, the type's rules met, not there already.
 */
export async function relate(
  c: Context<AppEnv>,
  caller: ReturnType<typeof requireUser>,
  type: RelationshipType,
  key: RelationshipKey,
): Promise<void> {
  if (key.originItemId === key.destinationItemId) throw missing('An item cannot be related to itself.');
  const origin = await readableItem(c, key.originItemId);
  const destination = await readableItem(c, key.destinationItemId);
  assertRelationshipAllowed(type, { origin, destination }, caller.username);
  const { database, now } = c.get('deps');
  if (await findRelationship(database.db, key)) {
    throw new GeoError({
      code: 409,
      message: 'Relationship already exists.',
      details: [`${key.originItemId} already has a ${type.name} relationship to ${key.destinationItemId}.`],
    });
  }
  await insertRelationship(database.db, { ...key, createdBy: caller.username, created: now() });
  // copyOriginShareOnAdd: the destination takes the origin's sharing (when the caller may change it).
  if (type.copyOriginShareOnAdd && canChange(destination, caller))
    await copySharing(database.db, origin, destination, caller.username, now());
}

/**
 * The relationship addItem is asked to make with the new item `itemId` (originItemId: the new item is
 * the destination; destinationItemId: the origin), or undefined when it is asked for none.
 */
export function relationshipOnAdd(
  c: Context<AppEnv>,
  itemId: string,
): { type: RelationshipType; key: RelationshipKey } | undefined {
  const params = c.get('params');
  const origin = params.get('originItemId')?.trim();
  const destination = params.get('destinationItemId')?.trim();
  if (!origin && !destination) {
    if (params.get('relationshipType'))
      throw missing("'relationshipType' needs 'originItemId' or 'destinationItemId'.");
    return undefined;
  }
  if (origin && destination) throw missing("Give either 'originItemId' or 'destinationItemId', not both.");
  const type = oneType(c);
  return {
    type,
    key: {
      originItemId: origin ? normalizeItemId(origin) : itemId,
      destinationItemId: destination ? normalizeItemId(destination) : itemId,
      relationshipType: type.name,
    },
  };
}

async function deleteRelationship(c: Context<AppEnv>) {
  const caller = actingUser(c);
  const key = relationshipKey(c, oneType(c));
  const { database } = c.get('deps');
  const existing = await findRelationship(database.db, key);
  if (!existing)
    throw badRequest('Relationship does not exist.', [`No ${key.relationshipType} relationship.`]);
  if (existing.createdBy !== caller.username) {
    throw forbidden('Only the user who created a relationship can delete it.');
  }
  await deleteRelationshipRow(database.db, key);
  return sendJson(c, { success: true });
}

export function createRelationshipsRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/content/users/:username/addRelationship', async (c) => {
    const caller = actingUser(c);
    const type = oneType(c);
    await relate(c, caller, type, relationshipKey(c, type));
    return sendJson(c, { success: true });
  });

  router.post('/content/users/:username/deleteRelationship', deleteRelationship);
  router.post('/content/users/:username/deleteRelationships', deleteRelationship);

  router.on(['GET', 'POST'], '/content/items/:itemId/relatedItems', async (c) => {
    const item = await readableItem(c, c.req.param('itemId'));
    const params = c.get('params');
    const raw = params.get('direction')?.toLowerCase();
    if (raw && raw !== 'forward' && raw !== 'reverse')
      throw missing("'direction' must be forward or reverse.");
    // Without a direction, both: the portal "tries to infer it", and both ends are what a client wants.
    const directions: ('forward' | 'reverse')[] = raw
      ? [raw as 'forward' | 'reverse']
      : ['forward', 'reverse'];
    const types = typesParam(c).map((t) => t.name);
    const { database, portalId } = c.get('deps');
    const viewer = c.get('user');
    const related = [];
    for (const direction of directions)
      related.push(...(await relatedItemRows(database.db, item.id, direction, types)));
    const visible = [];
    for (const r of related) if (await canReadShared(database.db, r, viewer)) visible.push(r);
    const page = readPage(params, 100, 100);
    const shown = visible.slice(page.start - 1, page.start - 1 + page.num);
    return sendJson(c, {
      ...pageInfo(page, visible.length, shown.length),
      relatedItems: shown.map((r) => itemJson(r, portalId, itemControl(r, viewer))),
    });
  });

  return router;
}
