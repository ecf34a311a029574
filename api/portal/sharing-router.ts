/**
 * Item sharing: share with everyone (public), the organization, and groups the caller belongs to;
 * unshare from groups. Absent everyone/org leave that level unchanged. Items related by a
 * compositeShare relationship (a web app's code, an item's attached documents) follow their origin.
 * One item at a time (`items/{id}/share`, `unshare`) or a batch of a user's items (`shareItems`,
 * `unshareItems`), where an item that cannot be shared is a failed result, not a failed request.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { findGroup, membership } from '../../db/repositories/groups.js';
import { itemGroupIds, shareWithGroup, unshareFromGroups } from '../../db/repositories/item-sharing.js';
import { type ItemRow, updateItem } from '../../db/repositories/items.js';
import type { UserRow } from '../../db/repositories/users.js';
import { canManageGroup, canShareToGroup } from '../../lib/access/groups.js';
import { canChange } from '../../lib/access/items.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { compositeShareDestinations } from './composite-share.js';
import { commaList } from './group-params.js';
import { batchError, batchOfItems, changeableItem, readableItem } from './item-access.js';

const FOLDER = '{[0-9a-f]{32}}';

const flag = (raw: string | undefined) =>
  raw === undefined || raw === '' ? undefined : raw.toLowerCase() === 'true';

/** The access level that follows from the public and org flags and whether any group share remains. */
function accessAfter(item: ItemRow, everyone: boolean | undefined, org: boolean | undefined, groups: number) {
  const wasPublic = item.access === 'public';
  const wasOrg = item.access === 'org' || wasPublic;
  if (everyone ?? wasPublic) return 'public';
  if (org ?? wasOrg) return 'org';
  return groups > 0 ? 'shared' : 'private';
}

async function mayShareTo(c: Context<AppEnv>, caller: UserRow, groupId: string): Promise<boolean> {
  const { db } = c.get('deps').database;
  const group = await findGroup(db, groupId);
  if (!group) return false;
  return canShareToGroup(group, caller, await membership(db, group.id, caller.username));
}

/** The groups of `requested` the caller may share to, and the others. */
async function shareableGroups(c: Context<AppEnv>, caller: UserRow, requested: string[]) {
  const groupIds: string[] = [];
  const notSharedWith: string[] = [];
  for (const groupId of requested) {
    if (await mayShareTo(c, caller, groupId)) groupIds.push(groupId);
    else notSharedWith.push(groupId);
  }
  return { groupIds, notSharedWith };
}

/** Shares one item (and the items that share with it) with the groups and levels asked for. */
async function shareItem(
  c: Context<AppEnv>,
  item: ItemRow,
  caller: UserRow,
  groupIds: string[],
  everyone: boolean | undefined,
  org: boolean | undefined,
): Promise<void> {
  const { database, now } = c.get('deps');
  const db = database.db;
  // The item, then the items that share with it (compositeShare relationships).
  for (const target of [item, ...(await compositeShareDestinations(db, item, caller))]) {
    for (const groupId of groupIds) await shareWithGroup(db, target.id, groupId, caller.username, now());
    const groups = await itemGroupIds(db, target.id);
    await updateItem(db, target.id, {
      access: accessAfter(target, everyone, org, groups.length),
      modified: now(),
    });
  }
}

/** Unshares one item (and the items that share with it) from the groups; returns those it was not in. */
async function unshareItem(c: Context<AppEnv>, item: ItemRow, caller: UserRow, requested: string[]) {
  const { database, now } = c.get('deps');
  const db = database.db;
  let notUnsharedFrom: string[] = [];
  for (const target of [item, ...(await compositeShareDestinations(db, item, caller))]) {
    const current = await itemGroupIds(db, target.id);
    if (target === item) notUnsharedFrom = requested.filter((g) => !current.includes(g));
    await unshareFromGroups(db, target.id, requested);
    const remaining = current.filter((g) => !requested.includes(g)).length;
    if (target.access === 'shared' && remaining === 0) {
      await updateItem(db, target.id, { access: 'private', modified: now() });
    }
  }
  return notUnsharedFrom;
}

async function share(c: Context<AppEnv>) {
  const { item, caller } = await changeableItem(c);
  const params = c.get('params');
  const { groupIds, notSharedWith } = await shareableGroups(c, caller, commaList(params.get('groups')));
  await shareItem(c, item, caller, groupIds, flag(params.get('everyone')), flag(params.get('org')));
  return sendJson(c, { notSharedWith, itemId: item.id });
}

async function unshare(c: Context<AppEnv>) {
  const { item, caller } = await changeableItem(c);
  const notUnsharedFrom = await unshareItem(c, item, caller, commaList(c.get('params').get('groups')));
  return sendJson(c, { notUnsharedFrom, itemId: item.id });
}

/**
 * content/items/{id}/share, ArcGIS's "share item as group admin" (what clients call when the caller is
 * not the item's owner): an item shared with the organization or everyone goes into the groups the
 * caller may share into. Its sharing level is not changed here; a private or group-only item goes into
 * more groups only by its owner's or an administrator's hand, so for anyone else every group asked for
 * is in notSharedWith. For the item's owner it is the owner's share, as on ArcGIS: `everyone` and `org`
 * set the sharing level too.
 */
async function shareAsMember(c: Context<AppEnv>) {
  const caller = requireUser(c);
  const item = await readableItem(c, c.req.param('itemId') ?? '');
  const params = c.get('params');
  const requested = commaList(params.get('groups'));
  if (item.owner === caller.username) {
    const { groupIds, notSharedWith } = await shareableGroups(c, caller, requested);
    await shareItem(c, item, caller, groupIds, flag(params.get('everyone')), flag(params.get('org')));
    return sendJson(c, { notSharedWith, itemId: item.id });
  }
  const open = canChange(item, caller) || item.access === 'org' || item.access === 'public';
  if (!open) return sendJson(c, { notSharedWith: requested, itemId: item.id });
  const { groupIds, notSharedWith } = await shareableGroups(c, caller, requested);
  await shareItem(c, item, caller, groupIds, undefined, undefined);
  return sendJson(c, { notSharedWith, itemId: item.id });
}

/**
 * content/items/{id}/unshare, ArcGIS's "unshare item as group admin": the item leaves the groups the
 * caller owns or administers (any group, for its owner or an administrator); the others asked for, and
 * those it was not in, are in notUnsharedFrom.
 */
async function unshareAsGroupAdmin(c: Context<AppEnv>) {
  const caller = requireUser(c);
  const item = await readableItem(c, c.req.param('itemId') ?? '');
  const requested = commaList(c.get('params').get('groups'));
  const db = c.get('deps').database.db;
  const managed: string[] = [];
  for (const groupId of requested) {
    const manages =
      canChange(item, caller) ||
      canManageGroup(caller, await membership(db, groupId, caller.username), 'members');
    if (manages) managed.push(groupId);
  }
  const notIn = await unshareItem(c, item, caller, managed);
  const notUnsharedFrom = requested.filter((g) => !managed.includes(g) || notIn.includes(g));
  return sendJson(c, { notUnsharedFrom, itemId: item.id });
}

/** content/users/{u}/shareItems: share a batch of {u}'s items; one result per item. */
async function shareItems(c: Context<AppEnv>) {
  const caller = requireUser(c);
  const params = c.get('params');
  const items = await batchOfItems(c, caller);
  const { groupIds, notSharedWith } = await shareableGroups(c, caller, commaList(params.get('groups')));
  const [everyone, org] = [flag(params.get('everyone')), flag(params.get('org'))];
  const results = [];
  for (const { itemId, item, error } of items) {
    if (!item) {
      results.push({ itemId, success: false, notSharedWith: [], error: batchError(error) });
      continue;
    }
    await shareItem(c, item, caller, groupIds, everyone, org);
    results.push({ itemId, success: true, notSharedWith });
  }
  return sendJson(c, { results });
}

/** content/users/{u}/unshareItems: unshare a batch of {u}'s items from groups; one result per item. */
async function unshareItems(c: Context<AppEnv>) {
  const caller = requireUser(c);
  const groups = commaList(c.get('params').get('groups'));
  const items = await batchOfItems(c, caller);
  const results = [];
  for (const { itemId, item, error } of items) {
    if (!item) {
      results.push({ itemId, success: false, notUnsharedFrom: [], error: batchError(error) });
      continue;
    }
    results.push({ itemId, success: true, notUnsharedFrom: await unshareItem(c, item, caller, groups) });
  }
  return sendJson(c, { results });
}

export function createSharingRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.post('/content/users/:username/items/:itemId/share', share);
  router.post(`/content/users/:username/:folderId${FOLDER}/items/:itemId/share`, share);
  router.post('/content/users/:username/items/:itemId/unshare', unshare);
  router.post(`/content/users/:username/:folderId${FOLDER}/items/:itemId/unshare`, unshare);
  router.post('/content/items/:itemId/share', shareAsMember);
  router.post('/content/items/:itemId/unshare', unshareAsGroupAdmin);
  router.post('/content/users/:username/shareItems', shareItems);
  router.post('/content/users/:username/unshareItems', unshareItems);
  return router;
}
