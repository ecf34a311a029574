/**
 * Item sharing: share with everyone (public), the organization, and groups the caller belongs to;
 * unshare from groups. Absent everyone/org leave that level unchanged. Items related by a
 * compositeShare relationship (a web app's code, an item's attached documents) follow their origin.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { findGroup, membership } from '../../db/repositories/groups.js';
import { itemGroupIds, shareWithGroup, unshareFromGroups } from '../../db/repositories/item-sharing.js';
import { type ItemRow, updateItem } from '../../db/repositories/items.js';
import type { UserRow } from '../../db/repositories/users.js';
import { canShareToGroup } from '../../lib/access/groups.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { compositeShareDestinations } from './composite-share.js';
import { commaList } from './group-params.js';
import { changeableItem } from './item-access.js';

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

async function share(c: Context<AppEnv>) {
  const { item, caller } = await changeableItem(c);
  const { database, now } = c.get('deps');
  const db = database.db;
  const params = c.get('params');
  const notSharedWith: string[] = [];
  const groupIds: string[] = [];
  for (const groupId of commaList(params.get('groups'))) {
    if (await mayShareTo(c, caller, groupId)) groupIds.push(groupId);
    else notSharedWith.push(groupId);
  }
  const [everyone, org] = [flag(params.get('everyone')), flag(params.get('org'))];
  // The item, then the items that share with it (compositeShare relationships).
  for (const target of [item, ...(await compositeShareDestinations(db, item, caller))]) {
    for (const groupId of groupIds) await shareWithGroup(db, target.id, groupId, caller.username, now());
    const groups = await itemGroupIds(db, target.id);
    await updateItem(db, target.id, {
      access: accessAfter(target, everyone, org, groups.length),
      modified: now(),
    });
  }
  return sendJson(c, { notSharedWith, itemId: item.id });
}

async function unshare(c: Context<AppEnv>) {
  const { item, caller } = await changeableItem(c);
  const { database, now } = c.get('deps');
  const db = database.db;
  const requested = commaList(c.get('params').get('groups'));
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
  return sendJson(c, { notUnsharedFrom, itemId: item.id });
}

export function createSharingRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.post('/content/users/:username/items/:itemId/share', share);
  router.post(`/content/users/:username/:folderId${FOLDER}/items/:itemId/share`, share);
  router.post('/content/users/:username/items/:itemId/unshare', unshare);
  router.post(`/content/users/:username/:folderId${FOLDER}/items/:itemId/unshare`, unshare);
  return router;
}
