/** Organization administration: removeUsers and the password security policy (read, update, reset). */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { deletePolicy, findPolicy, savePolicy } from '../../db/repositories/security-policy.js';
import { findUser } from '../../db/repositories/users.js';
import { currentPolicy } from '../../infra/passwords.js';
import { badRequest } from '../../lib/errors.js';
import { applyPolicyUpdate, type PasswordPolicy, POLICY_FIELDS } from '../../lib/portal/password-policy.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { assertThisPortal, requireAdmin } from './access.js';
import { commaList } from './group-params.js';
import { removalBlocker, removeUser } from './user-removal.js';

/** Only the requirements that are set, as the portal lists them. */
function policyJson(policy: PasswordPolicy, type: 'default' | 'custom', created: number, modified: number) {
  const set = Object.fromEntries(Object.entries(policy).filter(([, v]) => v !== null));
  return { passwordPolicy: { type, ...set, created, modified } };
}

export function createOrgAdminRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  const removeUsers = async (c: Context<AppEnv>) => {
    assertThisPortal(c);
    const admin = requireAdmin(c);
    const names = commaList(c.get('params').get('users'));
    if (names.length === 0)
      throw badRequest('Invalid or missing input parameters.', ["'users' is required."]);
    const { database } = c.get('deps');
    const notRemoved: string[] = [];
    for (const name of names) {
      const user = await findUser(database.db, name);
      const removable =
        user && user.username !== admin.username && !(await removalBlocker(database.db, user));
      if (!removable || !(await removeUser(database.db, user))) notRemoved.push(name);
    }
    return sendJson(c, { notRemoved });
  };
  router.post('/portals/:portalId/removeUsers', removeUsers);
  router.post('/portals/:portalId/removeusers', removeUsers);

  router.on(['GET', 'POST'], '/portals/:portalId/securityPolicy', async (c) => {
    assertThisPortal(c);
    requireAdmin(c);
    const { database } = c.get('deps');
    const row = await findPolicy(database.db);
    const policy = await currentPolicy(database.db);
    return sendJson(
      c,
      policyJson(policy, row ? 'custom' : 'default', row?.created ?? -1, row?.modified ?? -1),
    );
  });

  router.post('/portals/:portalId/securityPolicy/update', async (c) => {
    assertThisPortal(c);
    requireAdmin(c);
    const { database, now } = c.get('deps');
    const params = c.get('params');
    const values = Object.fromEntries(POLICY_FIELDS.map((f) => [f, params.get(f)]));
    const next = applyPolicyUpdate(await currentPolicy(database.db), values);
    await savePolicy(database.db, next, now());
    return sendJson(c, { success: true });
  });

  router.post('/portals/:portalId/securityPolicy/reset', async (c) => {
    assertThisPortal(c);
    requireAdmin(c);
    await deletePolicy(c.get('deps').database.db);
    return sendJson(c, { success: true });
  });

  return router;
}
