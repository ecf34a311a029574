/** Distributed collaboration hosted here: createCollaboration and reads of collaborations and workspaces. */
import type { Context } from 'hono';
import { Hono } from 'hono';
import {
  type CollaborationRow,
  findCollaboration,
  insertCollaboration,
  listCollaborations,
  type WorkspaceRow,
  workspacesOf,
} from '../../db/repositories/collaborations.js';
import { findGroup } from '../../db/repositories/groups.js';
import { newId } from '../../infra/secrets.js';
import { badRequest } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { assertThisPortal, requireAdmin } from './access.js';
import { pageInfo, readPage } from './paging.js';

export const ACCESS_MODES = ['send', 'receive', 'sendAndReceive'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function collaborationJson(row: CollaborationRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    collaborationHostPortalId: row.hostPortalId,
    config: { ...row.config, ownerUsername: row.owner },
    created: row.created,
    modified: row.modified,
  };
}

async function workspaceJson(c: Context<AppEnv>, row: WorkspaceRow) {
  const group = row.portalGroupId ? await findGroup(c.get('deps').database.db, row.portalGroupId) : undefined;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    collaborationId: row.collaborationId,
    config: row.config,
    created: row.created,
    modified: row.modified,
    participantGroupLinks: group
      ? [
          {
            portalId: c.get('deps').portalId,
            portalGroupId: group.id,
            portalGroupName: group.title,
            config: row.config,
            accessMode: row.accessMode,
          },
        ]
      : [],
    participantsWithoutGroupLinks: [],
  };
}

/** The create parameters, every limit of the spec checked at once so a client sees all problems. */
function readCreate(c: Context<AppEnv>) {
  const params = c.get('params');
  const problems: string[] = [];
  const text = (name: string, max: number, required: boolean) => {
    const value = params.get(name)?.trim() ?? '';
    if (required && value === '') problems.push(`'${name}' is required.`);
    if ([...value].length > max) problems.push(`'${name}' must be at most ${max} characters.`);
    return value;
  };
  const name = text('name', 100, true);
  const description = text('description', 250, false);
  const workspaceName = text('workspaceName', 100, true);
  const workspaceDescription = text('workspaceDescription', 250, false);
  const portalGroupId = text('portalGroupId', 64, true);
  const accessMode = params.get('accessMode') ?? '';
  if (!ACCESS_MODES.includes(accessMode))
    problems.push(`'accessMode' must be one of ${ACCESS_MODES.join(', ')}.`);
  const firstName = text('hostContactFirstname', 128, false);
  const lastName = text('hostContactLastname', 128, false);
  const email = text('hostContactEmailAddress', 256, false);
  if (email && !EMAIL.test(email)) problems.push("'hostContactEmailAddress' must be an e-mail address.");
  let config: Record<string, unknown> = {};
  const rawConfig = params.get('config')?.trim();
  if (rawConfig) {
    try {
      config = JSON.parse(rawConfig);
      if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('not an object');
    } catch {
      problems.push("'config' must be a JSON object.");
    }
  }
  if (problems.length > 0) throw badRequest('Unable to create the collaboration.', problems);
  return {
    name,
    description,
    workspaceName,
    workspaceDescription,
    portalGroupId,
    accessMode,
    config,
    firstName,
    lastName,
    email,
  };
}

async function collaborationOf(c: Context<AppEnv>): Promise<CollaborationRow> {
  const found = await findCollaboration(c.get('deps').database.db, c.req.param('collaborationId') ?? '');
  if (!found)
    throw badRequest('Collaboration not found.', [`No collaboration '${c.req.param('collaborationId')}'.`]);
  return found;
}

export function createCollaborationsRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/portals/:portalId/createCollaboration', async (c) => {
    assertThisPortal(c);
    const admin = requireAdmin(c);
    const input = readCreate(c);
    const { database, now, portalId } = c.get('deps');
    if (!(await findGroup(database.db, input.portalGroupId))) {
      throw badRequest('Unable to create the collaboration.', [
        `'portalGroupId' ${input.portalGroupId} is not a group of this portal.`,
      ]);
    }
    const t = now();
    const { collaboration, workspace } = await insertCollaboration(
      database.db,
      {
        id: newId(),
        name: input.name,
        description: input.description,
        hostPortalId: portalId,
        owner: admin.username,
        config: input.config,
        // Omitted contact fields come from the acting administrator.
        contactFirstName: input.firstName || admin.firstName,
        contactLastName: input.lastName || admin.lastName,
        contactEmail: input.email || admin.email,
        created: t,
        modified: t,
      },
      {
        id: newId(),
        name: input.workspaceName,
        description: input.workspaceDescription,
        config: input.config,
        portalGroupId: input.portalGroupId,
        accessMode: input.accessMode,
        created: t,
        modified: t,
      },
    );
    return sendJson(c, {
      success: true,
      collaboration: collaborationJson(collaboration),
      collaborationWorkspaceId: workspace.id,
    });
  });

  router.on(['GET', 'POST'], '/portals/:portalId/collaborations', async (c) => {
    assertThisPortal(c);
    requireAdmin(c);
    const page = readPage(c.get('params'), 25, 100);
    const { total, rows } = await listCollaborations(c.get('deps').database.db, page.start - 1, page.num);
    return sendJson(c, {
      ...pageInfo(page, total, rows.length),
      collaborations: rows.map(collaborationJson),
    });
  });

  router.on(['GET', 'POST'], '/portals/:portalId/collaborations/:collaborationId', async (c) => {
    assertThisPortal(c);
    requireAdmin(c);
    return sendJson(c, collaborationJson(await collaborationOf(c)));
  });

  router.on(['GET', 'POST'], '/portals/:portalId/collaborations/:collaborationId/workspaces', async (c) => {
    assertThisPortal(c);
    requireAdmin(c);
    const collaboration = await collaborationOf(c);
    const rows = await workspacesOf(c.get('deps').database.db, collaboration.id);
    const page = readPage(c.get('params'), 25, 100);
    const shown = rows.slice(page.start - 1, page.start - 1 + page.num);
    const workspaces = await Promise.all(shown.map((w) => workspaceJson(c, w)));
    return sendJson(c, { ...pageInfo(page, rows.length, shown.length), workspaces });
  });

  router.on(['GET', 'POST'], '/portals/:portalId/collaborations/:collaborationId/participants', async (c) => {
    assertThisPortal(c);
    requireAdmin(c);
    const collaboration = await collaborationOf(c);
    const { portalId, portalName } = c.get('deps');
    const host = {
      collaborationId: collaboration.id,
      portalInfo: { id: portalId, name: portalName, portalType: 'onpremises' },
      collaborationRole: 'Host',
      status: 'active',
      config: {
        contactFirstname: collaboration.contactFirstName,
        contactLastname: collaboration.contactLastName,
        contactEmailAddress: collaboration.contactEmail,
      },
      created: collaboration.created,
      modified: collaboration.modified,
    };
    return sendJson(c, { total: 1, start: 1, num: 1, nextStart: -1, participants: [host] });
  });

  return router;
}
