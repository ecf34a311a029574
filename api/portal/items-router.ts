/** Items: addItem (file, text or url), item info and data, update, delete. */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { findFolder } from '../../db/repositories/folders.js';
import { fileNameTaken, insertItem, type NewItem, updateItem } from '../../db/repositories/items.js';
import { findUser } from '../../db/repositories/users.js';
import { newId } from '../../infra/secrets.js';
import { itemControl } from '../../lib/access/items.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest, forbidden, GeoError } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import type { UploadedFile } from '../params.js';
import { sendJson } from '../render.js';
import { requirePrivilege } from './access.js';
import { changeableItem, readableItem } from './item-access.js';
import { itemPrefix, readItemData, type StoredData, storeText, storeUpload } from './item-data.js';
import { defaultTypeKeywords, itemJson } from './item-json.js';
import { readItemProperties } from './item-params.js';
import { deleteItemEverywhere } from './item-removal.js';
import { userNotFound } from './users-router.js';

const FOLDER = '{[0-9a-f]{32}}';

/** The new data of an add or update: an uploaded file or text, or nothing. */
function readData(c: Context<AppEnv>): { file?: UploadedFile; text?: string; name?: string } {
  const params = c.get('params');
  const file = params.file('file');
  const text = params.get('text');
  if (file && text !== undefined) {
    throw badRequest('Invalid or missing input parameters.', ["Send either 'file' or 'text', not both."]);
  }
  if (file) return { file, name: (params.get('fileName') || file.filename).trim() };
  return text !== undefined ? { text } : {};
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
  return undefined;
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
  const data = readData(c);
  const folderId = folder?.id ?? null;
  if (data.name) await assertNameFree(c, owner.username, folderId, data.name);
  const id = newId();
  const stored = await storeData(c, id, data);
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
    created: t,
    modified: t,
  };
  try {
    await insertItem(database.db, item);
  } catch (e) {
    // The row is the item; without it the stored object must not stay behind.
    if (stored) await store.removePrefix(itemPrefix(id));
    throw e;
  }
  return sendJson(c, { success: true, id, folder: folderId });
}

async function updateItemRoute(c: Context<AppEnv>) {
  const { item } = await changeableItem(c);
  const { database, now } = c.get('deps');
  const properties = readItemProperties(c.get('params'));
  if (properties.title === '' || properties.type === '') {
    throw badRequest('Invalid or missing input parameters.', ["'title' and 'type' must not be empty."]);
  }
  const data = readData(c);
  if (data.name) await assertNameFree(c, item.owner, item.folderId, data.name, item.id);
  const stored: StoredData | undefined = await storeData(c, item.id, data);
  const name = data.file ? data.name : data.text !== undefined ? null : undefined;
  await updateItem(database.db, item.id, {
    ...properties,
    ...stored,
    ...(name !== undefined ? { name } : {}),
    modified: now(),
  });
  return sendJson(c, { success: true, id: item.id });
}

async function deleteItemRoute(c: Context<AppEnv>) {
  const { item, caller } = await changeableItem(c);
  if (item.protected) {
    throw badRequest('Unable to delete item. Delete protection is turned on.', [], 'CONT_0048');
  }
  await deleteItemEverywhere(c.get('deps'), item, caller);
  return sendJson(c, { success: true, itemId: item.id });
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

  router.post('/content/users/:username/items/:itemId/protect', protection(true));
  router.post('/content/users/:username/items/:itemId/unprotect', protection(false));

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
