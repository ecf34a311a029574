/**
 * Items: addItem (file, text or url), item info and data, update, delete, move to a folder; and the
 * batches of a user's items (deleteItems, moveItems), one result per item as ArcGIS answers them.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { findFolder, insertFolder } from '../../db/repositories/folders.js';
import { findGroup, membership } from '../../db/repositories/groups.js';
import { reassignItemRows } from '../../db/repositories/item-reassign.js';
import { itemGroupIds } from '../../db/repositories/item-sharing.js';
import { recordCompletedAdd } from '../../db/repositories/item-uploads.js';
import {
  fileNameTaken,
  findItem,
  type ItemRow,
  insertItem,
  itemWithFileName,
  type NewItem,
  updateItem,
} from '../../db/repositories/items.js';
import { findUser } from '../../db/repositories/users.js';
import { newId } from '../../infra/secrets.js';
import { canShareToGroup } from '../../lib/access/groups.js';
import { itemControl } from '../../lib/access/items.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest, forbidden, GeoError, isGeoError } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import type { RequestParams, UploadedFile } from '../params.js';
import { sendJson } from '../render.js';
import { requirePrivilege } from './access.js';
import { batchError, batchOfItems, changeableItem, readableItem } from './item-access.js';
import {
  itemPrefix,
  readItemData,
  type StoredData,
  storeDownload,
  storeText,
  storeUpload,
} from './item-data.js';
import { defaultTypeKeywords, itemJson } from './item-json.js';
import { metadataResponse, readMetadata, storeMetadata } from './item-metadata.js';
import { readItemProperties } from './item-params.js';
import { deleteItemEverywhere } from './item-removal.js';
import { readThumbnail, storeThumbnail, thumbnailResponse } from './item-thumbnail.js';
import { addPart, beginUpload, cancel, commit, multipartFilename } from './item-uploads.js';
import { relate, relationshipOnAdd } from './relationships-router.js';
import { userNotFound } from './users-router.js';

const FOLDER = '{[0-9a-f]{32}}';

/** The new data of an add or update: an uploaded file, text, a file the server downloads, or nothing. */
function readData(c: Context<AppEnv>): {
  file?: UploadedFile;
  text?: string;
  dataUrl?: string;
  name?: string;
} {
  const params = c.get('params');
  const file = params.file('file');
  const text = params.get('text');
  const dataUrl = params.get('dataUrl')?.trim() || undefined;
  if ([file, text, dataUrl].filter((v) => v !== undefined).length > 1) {
    throw badRequest('Invalid or missing input parameters.', ["Send one of 'file', 'text' and 'dataUrl'."]);
  }
  if (file) return { file, name: (params.get('fileName') || file.filename).trim() };
  if (dataUrl) return { dataUrl, name: (params.get('fileName') || fileNameOfUrl(dataUrl)).trim() };
  return text !== undefined ? { text } : {};
}

/** The last segment of a URL's path, as a file name ('data' when it has none). */
function fileNameOfUrl(raw: string): string {
  try {
    const last = new URL(raw).pathname.split('/').pop() ?? '';
    const kept = [...decodeURIComponent(last)].filter((ch) => ch >= ' ' && ch !== '/' && ch !== '\\');
    return kept.join('') || 'data';
  } catch {
    return 'data';
  }
}

async function assertNameFree(
  c: Context<AppEnv>,
  owner: string,
  folderId: string | null,
  name: string,
  id?: string,
) {
  if (await fileNameTaken(c.get('deps').database.db, owner, folderId, name, id)) {
    throw new GeoError({
      code: 409,
      message: 'Item with this file name already exists in the folder.',
      details: [`The folder already holds an item with the file name '${name}'.`],
      messageCode: 'CONT_0011',
    });
  }
}

async function storeData(c: Context<AppEnv>, id: string, data: ReturnType<typeof readData>) {
  const { store } = c.get('deps');
  if (data.file) return storeUpload(store, id, data.file);
  if (data.text !== undefined) return storeText(store, id, data.text);
  if (data.dataUrl) return storeDownload(c, id, data.dataUrl, data.name ?? 'data');
  return undefined;
}

/** A true/false parameter (absent or empty: false). */
function flag(params: RequestParams, name: string): boolean {
  const raw = params.get(name)?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw badRequest('Invalid or missing input parameters.', [`'${name}' must be true or false.`]);
}

/** addItem with overwrite=true onto `item`, the folder's item of the same file name: its data and properties. */
async function overwriteItem(
  c: Context<AppEnv>,
  itemId: string,
  properties: Partial<NewItem>,
  data: ReturnType<typeof readData>,
  folderId: string | null,
) {
  const params = c.get('params');
  if (params.get('originItemId') || params.get('destinationItemId') || multipartFilename(params)) {
    throw badRequest('Invalid or missing input parameters.', [
      "'overwrite' replaces an item's file: it makes no relationship and takes no upload in parts.",
    ]);
  }
  const { database, now } = c.get('deps');
  const item = await findItem(database.db, itemId);
  if (!item) throw badRequest('Item does not exist or is inaccessible.');
  const thumbnail = await readThumbnail(c);
  const metadata = await readMetadata(c);
  const stored = await storeData(c, item.id, data);
  const thumbnailName = thumbnail && (await storeThumbnail(c, item, thumbnail));
  if (metadata) await storeMetadata(c, item.id, metadata);
  await updateItem(database.db, item.id, {
    ...properties,
    ...stored,
    name: data.name ?? item.name,
    ...(thumbnailName ? { thumbnail: thumbnailName } : {}),
    modified: now(),
  });
  return sendJson(c, { success: true, id: item.id, folder: folderId });
}

async function addItem(c: Context<AppEnv>) {
  const caller = requirePrivilege(c, 'portal:user:createItem');
  const { database, store, now } = c.get('deps');
  const ownerName = c.req.param('username') ?? '';
  if (caller.username.toLowerCase() !== ownerName.toLowerCase() && !isAdmin(caller)) throw forbidden();
  const owner = await findUser(database.db, ownerName);
  if (!owner) throw userNotFound(ownerName);
  const folderParam = c.req.param('folderId');
  const folder = folderParam ? await findFolder(database.db, owner.username, folderParam) : undefined;
  if (folderParam && !folder) throw badRequest('Folder not found.', [`No folder '${folderParam}'.`]);
  const properties = readItemProperties(c.get('params'));
  if (!properties.type || !properties.title) throw badRequest("'type' and 'title' property required.");
  // An upload in parts (multipart=true) names its file now and sends it with addPart and commit.
  const inParts = multipartFilename(c.get('params'));
  const data = inParts ? { name: inParts } : readData(c);
  const folderId = folder?.id ?? null;
  // overwrite=true: a file item of the same name in the folder takes the new file (and properties).
  const overwrite = flag(c.get('params'), 'overwrite');
  const same =
    overwrite && data.name
      ? await itemWithFileName(database.db, owner.username, folderId, data.name)
      : undefined;
  if (same) return overwriteItem(c, same, properties, data, folderId);
  if (data.name) await assertNameFree(c, owner.username, folderId, data.name);
  const thumbnail = await readThumbnail(c);
  const metadata = await readMetadata(c);
  // The item takes the id its file was staged under as it arrived (api/upload-routes.ts), if it was.
  const id = data.file?.staged?.id ?? newId();
  // A relationship to make with the new item, read (and refused when malformed) before anything is stored.
  const related = relationshipOnAdd(c, id);
  const asyncAdd = flag(c.get('params'), 'async');
  const stored = await storeData(c, id, data);
  const thumbnailName = thumbnail && (await storeThumbnail(c, { id, thumbnail: null }, thumbnail));
  if (metadata) await storeMetadata(c, id, metadata);
  const t = now();
  const item: NewItem = {
    ...properties,
    ...stored,
    id,
    owner: owner.username,
    folderId,
    title: properties.title,
    type: properties.type,
    typeKeywords: properties.typeKeywords ?? defaultTypeKeywords(properties.type),
    name: data.name ?? null,
    thumbnail: thumbnailName ?? null,
    created: t,
    modified: t,
  };
  let row: ItemRow;
  try {
    row = await insertItem(database.db, item);
  } catch (e) {
    // The row is the item; without it the stored object must not stay behind.
    if (stored || thumbnailName || metadata) await store.removePrefix(itemPrefix(id));
    throw e;
  }
  if (related) {
    try {
      await relate(c, caller, related.type, related.key);
    } catch (e) {
      // The item was asked for with its relationship: without the relationship there is no item.
      await deleteItemEverywhere(c.get('deps'), row);
      throw e;
    }
  }
  if (inParts) await beginUpload(c, id, inParts);
  // async=true: the item is added by the time this answers; its status says completed, as a client polls it.
  else if (asyncAdd) await recordCompletedAdd(database.db, id, data.name ?? '', now());
  return sendJson(c, { success: true, id, folder: folderId });
}

async function updateItemRoute(c: Context<AppEnv>) {
  const { item } = await changeableItem(c);
  const { database, now } = c.get('deps');
  const properties = readItemProperties(c.get('params'));
  if (properties.title === '' || properties.type === '') {
    throw badRequest('Invalid or missing input parameters.', ["'title' and 'type' must not be empty."]);
  }
  const inParts = multipartFilename(c.get('params'));
  const data = inParts ? {} : readData(c);
  if (inParts) await assertNameFree(c, item.owner, item.folderId, inParts, item.id);
  if (data.name) await assertNameFree(c, item.owner, item.folderId, data.name, item.id);
  const thumbnail = await readThumbnail(c);
  const metadata = await readMetadata(c);
  const stored: StoredData | undefined = await storeData(c, item.id, data);
  const thumbnailName = thumbnail && (await storeThumbnail(c, item, thumbnail));
  if (metadata) await storeMetadata(c, item.id, metadata);
  const name = data.file || data.dataUrl ? data.name : data.text !== undefined ? null : undefined;
  await updateItem(database.db, item.id, {
    ...properties,
    ...stored,
    ...(name !== undefined ? { name } : {}),
    ...(thumbnailName ? { thumbnail: thumbnailName } : {}),
    modified: now(),
  });
  // The item keeps its data until the parts of the new file are committed.
  if (inParts) await beginUpload(c, item.id, inParts);
  return sendJson(c, { success: true, id: item.id });
}

const deleteProtected = () =>
  badRequest('Unable to delete item. Delete protection is turned on.', [], 'CONT_0048');

async function deleteItemRoute(c: Context<AppEnv>) {
  const { item, caller } = await changeableItem(c);
  if (item.protected) throw deleteProtected();
  await deleteItemEverywhere(c.get('deps'), item, caller);
  return sendJson(c, { success: true, itemId: item.id });
}

/** content/users/{u}/deleteItems: deletes a batch of {u}'s items, each as delete does. */
async function deleteItems(c: Context<AppEnv>) {
  const caller = requireUser(c);
  const results = [];
  for (const { itemId, item, error } of await batchOfItems(c, caller)) {
    if (!item || item.protected) {
      results.push({ itemId, success: false, error: batchError(error ?? deleteProtected()) });
      continue;
    }
    try {
      await deleteItemEverywhere(c.get('deps'), item, caller);
      results.push({ itemId, success: true });
    } catch (e) {
      // A deletion hook that refuses (a service still in use) fails this item, not the batch.
      if (!isGeoError(e) || e.code >= 500) throw e;
      results.push({ itemId, success: false, error: batchError(e) });
    }
  }
  return sendJson(c, { results });
}

/** The folder a move goes to: `/` (or nothing) for the root, else one of the owner's folders by id or title. */
async function moveTarget(c: Context<AppEnv>, owner: string): Promise<string | null> {
  const raw = (c.get('params').get('folder') ?? '').trim();
  if (raw === '' || raw === '/') return null;
  const folder = await findFolder(c.get('deps').database.db, owner, raw);
  if (!folder) throw badRequest('Folder not found.', [`${owner} has no folder '${raw}'.`]);
  return folder.id;
}

/** Moves an item to a folder of its owner; a file name the folder already holds refuses the move. */
async function moveItem(c: Context<AppEnv>, item: ItemRow, folderId: string | null): Promise<void> {
  if (item.name) await assertNameFree(c, item.owner, folderId, item.name, item.id);
  const { database, now } = c.get('deps');
  if (item.folderId !== folderId) await updateItem(database.db, item.id, { folderId, modified: now() });
}

async function moveItemRoute(c: Context<AppEnv>) {
  const { item } = await changeableItem(c);
  const folderId = await moveTarget(c, item.owner);
  await moveItem(c, item, folderId);
  return sendJson(c, { success: true, itemId: item.id, owner: item.owner, folder: folderId ?? '/' });
}

/**
 * items/{id}/reassign (administrators): the item goes to `targetUsername`, in its folder
 * `targetFolderName` (made when missing; `/` or nothing for the root). A private or group-only item
 * keeps its groups, so the new owner must be able to share into each of them; a file name the folder
 * already holds refuses it. A hosted service or tile cache changes owner with its item.
 */
async function reassignItem(c: Context<AppEnv>) {
  const { item } = await changeableItem(c);
  const { database, now } = c.get('deps');
  const params = c.get('params');
  const targetName = (params.get('targetUsername') ?? '').trim();
  if (targetName === '')
    throw badRequest('Invalid or missing input parameters.', ["'targetUsername' is required."]);
  const target = await findUser(database.db, targetName);
  if (!target) throw userNotFound(targetName);
  if (item.access !== 'org' && item.access !== 'public') {
    for (const groupId of await itemGroupIds(database.db, item.id)) {
      const group = await findGroup(database.db, groupId);
      const memberType = group && (await membership(database.db, group.id, target.username));
      if (group && !canShareToGroup(group, target, memberType))
        throw badRequest('Unable to reassign item.', [
          `The item is shared with group '${group.title}', which ${target.username} cannot share into.`,
        ]);
    }
  }
  const folderName = (params.get('targetFolderName') ?? params.get('targetFoldername') ?? '').trim();
  let folderId: string | null = null;
  if (folderName !== '' && folderName !== '/') {
    if (folderName.length > 250)
      throw badRequest('Invalid or missing input parameters.', [
        "'targetFolderName' must be at most 250 characters.",
      ]);
    const folder =
      (await findFolder(database.db, target.username, folderName)) ??
      (await insertFolder(database.db, {
        id: newId(),
        owner: target.username,
        title: folderName,
        created: now(),
      }));
    folderId = folder.id;
  }
  if (item.name) await assertNameFree(c, target.username, folderId, item.name, item.id);
  await reassignItemRows(database, item.id, { owner: target.username, folderId, modified: now() });
  return sendJson(c, { success: true, itemId: item.id });
}

/** content/users/{u}/moveItems: moves a batch of {u}'s items to one of {u}'s folders (or the root). */
async function moveItems(c: Context<AppEnv>) {
  const caller = requireUser(c);
  const owner = await findUser(c.get('deps').database.db, c.req.param('username') ?? '');
  if (!owner) throw userNotFound(c.req.param('username') ?? '');
  const folderId = await moveTarget(c, owner.username);
  const results = [];
  for (const { itemId, item, error } of await batchOfItems(c, caller)) {
    if (!item) {
      results.push({ itemId, success: false, error: batchError(error) });
      continue;
    }
    try {
      await moveItem(c, item, folderId);
      results.push({ itemId, success: true });
    } catch (e) {
      if (!isGeoError(e) || e.code >= 500) throw e;
      results.push({ itemId, success: false, error: batchError(e) });
    }
  }
  return sendJson(c, { results });
}

/** protect / unprotect: delete protection, which the owner or an administrator turns on and off. */
const protection = (on: boolean) => async (c: Context<AppEnv>) => {
  const { item } = await changeableItem(c);
  const { database, now } = c.get('deps');
  await updateItem(database.db, item.id, { protected: on, modified: now() });
  return sendJson(c, { success: true, itemId: item.id });
};

export function createItemsRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/content/users/:username/addItem', addItem);
  router.post(`/content/users/:username/:folderId${FOLDER}/addItem`, addItem);
  router.post('/content/users/:username/items/:itemId/update', updateItemRoute);
  router.post(`/content/users/:username/:folderId${FOLDER}/items/:itemId/update`, updateItemRoute);
  router.post('/content/users/:username/items/:itemId/delete', deleteItemRoute);
  router.post(`/content/users/:username/:folderId${FOLDER}/items/:itemId/delete`, deleteItemRoute);

  for (const at of ['/content/users/:username', `/content/users/:username/:folderId${FOLDER}`]) {
    router.post(`${at}/items/:itemId/addPart`, addPart);
    router.post(`${at}/items/:itemId/commit`, commit);
    router.post(`${at}/items/:itemId/cancel`, cancel);
  }
  router.post('/content/users/:username/items/:itemId/move', moveItemRoute);
  router.post(`/content/users/:username/:folderId${FOLDER}/items/:itemId/move`, moveItemRoute);
  router.post('/content/users/:username/items/:itemId/reassign', reassignItem);
  router.post(`/content/users/:username/:folderId${FOLDER}/items/:itemId/reassign`, reassignItem);
  router.post('/content/users/:username/deleteItems', deleteItems);
  router.post('/content/users/:username/moveItems', moveItems);

  router.post('/content/users/:username/items/:itemId/protect', protection(true));
  router.post('/content/users/:username/items/:itemId/unprotect', protection(false));

  router.get('/content/items/:itemId/info/metadata/metadata.xml', async (c) =>
    metadataResponse(c, await readableItem(c, c.req.param('itemId'))),
  );
  router.get('/content/items/:itemId/info/thumbnail/:name', async (c) => {
    const item = await readableItem(c, c.req.param('itemId'));
    return thumbnailResponse(c, item, c.req.param('name'));
  });
  router.on(['GET', 'POST'], '/content/items/:itemId', async (c) => {
    const item = await readableItem(c, c.req.param('itemId'));
    return sendJson(c, itemJson(item, c.get('deps').portalId, itemControl(item, c.get('user'))));
  });

  router.get('/content/items/:itemId/data', async (c) => {
    const item = await readableItem(c, c.req.param('itemId'));
    const { body, headers } = await readItemData(c.get('deps').store, item);
    return c.body(body, 200, headers);
  });

  return router;
}
