/** A user's content: content/users/{u} (root items and folders), one folder, createFolder, folder delete. */
import type { Context } from 'hono';
import { Hono } from 'hono';
import {
  deleteFolderRow,
  type FolderRow,
  findFolder,
  insertFolder,
  listFolders,
} from '../../db/repositories/folders.js';
import { listItems } from '../../db/repositories/items.js';
import { findUser } from '../../db/repositories/users.js';
import { newId } from '../../infra/secrets.js';
import { itemControl } from '../../lib/access/items.js';
import { badRequest } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { requireSelfOrAdmin } from './access.js';
import { itemJson } from './item-json.js';
import { deleteItemEverywhere } from './item-removal.js';
import { pageInfo, readPage } from './paging.js';
import { userNotFound } from './users-router.js';

const FOLDER = '{[0-9a-f]{32}}';
const folderJson = (f: FolderRow) => ({ username: f.owner, id: f.id, title: f.title, created: f.created });

async function contentOwner(c: Context<AppEnv>) {
  requireSelfOrAdmin(c, c.req.param('username') ?? '');
  const owner = await findUser(c.get('deps').database.db, c.req.param('username') ?? '');
  if (!owner) throw userNotFound(c.req.param('username') ?? '');
  return owner;
}

async function ownerFolder(c: Context<AppEnv>, owner: string): Promise<FolderRow> {
  const folder = await findFolder(c.get('deps').database.db, owner, c.req.param('folderId') ?? '');
  if (!folder) throw badRequest('Folder not found.', [`No folder '${c.req.param('folderId')}'.`]);
  return folder;
}

async function listing(c: Context<AppEnv>, owner: string, folder: FolderRow | null) {
  const { database, portalId } = c.get('deps');
  const params = c.get('params');
  // Without start or num the portal lists up to 1000 items at once.
  const paged = params.has('start') || params.has('num');
  const page = readPage(params, paged ? 10 : 1000, paged ? 100 : 1000);
  const { total, rows } = await listItems(database.db, {
    visibleTo: 'everyone',
    owners: [owner],
    folderId: folder?.id ?? null,
    offset: page.start - 1,
    limit: page.num,
    sortField: 'created',
    sortOrder: 'asc',
  });
  const viewer = c.get('user');
  return {
    username: owner,
    ...pageInfo(page, total, rows.length),
    currentFolder: folder ? folderJson(folder) : null,
    items: rows.map((i) => itemJson(i, portalId, itemControl(i, viewer))),
    folders: folder ? [] : (await listFolders(database.db, owner)).map(folderJson),
  };
}

export function createUserContentRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/content/users/:username/createFolder', async (c) => {
    const owner = await contentOwner(c);
    const title = c.get('params').get('title')?.trim() ?? '';
    if (title === '' || title.length > 250) {
      throw badRequest('Invalid or missing input parameters.', ["'title' must be 1 to 250 characters."]);
    }
    const { database, now } = c.get('deps');
    if (await findFolder(database.db, owner.username, title)) {
      throw badRequest(`Folder title '${title}' not available.`, [
        `${owner.username} already has this folder.`,
      ]);
    }
    const folder = await insertFolder(database.db, {
      id: newId(),
      owner: owner.username,
      title,
      created: now(),
    });
    return sendJson(c, { success: true, folder: folderJson(folder) });
  });

  router.post(`/content/users/:username/:folderId${FOLDER}/delete`, async (c) => {
    const owner = await contentOwner(c);
    const folder = await ownerFolder(c, owner.username);
    const deps = c.get('deps');
    const { rows } = await listItems(deps.database.db, {
      visibleTo: 'everyone',
      owners: [owner.username],
      folderId: folder.id,
      offset: 0,
      limit: 100_000,
      sortField: 'created',
      sortOrder: 'asc',
    });
    // Deleting a folder deletes what is in it, as the portal does.
    for (const item of rows) await deleteItemEverywhere(deps, item, c.get('user'));
    await deleteFolderRow(deps.database.db, folder.id);
    return sendJson(c, { success: true, folder: folderJson(folder) });
  });

  router.on(['GET', 'POST'], '/content/users/:username', async (c) => {
    const owner = await contentOwner(c);
    return sendJson(c, await listing(c, owner.username, null));
  });

  router.on(['GET', 'POST'], `/content/users/:username/:folderId${FOLDER}`, async (c) => {
    const owner = await contentOwner(c);
    return sendJson(c, await listing(c, owner.username, await ownerFolder(c, owner.username)));
  });

  return router;
}
