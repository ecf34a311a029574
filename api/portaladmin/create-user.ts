/** portaladmin/security/users/createUser: administrators add built-in accounts to the organization. */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { findUser, insertUser } from '../../db/repositories/users.js';
import { newPasswordHash } from '../../infra/passwords.js';
import { ROLES, roleOf } from '../../lib/access/roles.js';
import { badRequest } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { requireAdmin } from '../portal/access.js';
import { readProfile } from '../portal/user-profile.js';
import { sendJson } from '../render.js';

const USERNAME = /^[A-Za-z0-9@._-]{6,24}$/;

const invalid = (detail: string) => badRequest('Unable to create user.', [detail]);

function readNewUser(c: Context<AppEnv>) {
  const params = c.get('params');
  const username = params.get('username')?.trim() ?? '';
  if (!USERNAME.test(username)) {
    throw invalid("'username' must be 6 to 24 characters of letters, digits and @ - . _");
  }
  const password = params.get('password');
  if (!password) throw invalid("'password' is required for accounts of the portal.");
  const provider = (params.get('provider') || 'arcgis').toLowerCase();
  if (provider !== 'arcgis')
    throw invalid("'provider' must be arcgis: only built-in accounts are supported.");
  // ArcGIS's older names (account_admin, …) name the same roles; the canonical name is stored.
  const role = roleOf(params.get('role') || 'org_user');
  if (!role) throw invalid(`'role' must be one of ${ROLES.join(', ')}.`);
  const profile = readProfile(params);
  if (!profile.email) throw invalid("'email' is required.");
  return { username, password, role, profile };
}

export function createPortalAdminRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.post('/security/users/createUser', async (c) => {
    requireAdmin(c);
    const { database, now } = c.get('deps');
    const { username, password, role, profile } = readNewUser(c);
    if (await findUser(database.db, username)) throw invalid(`User '${username}' already exists.`);
    const passwordHash = await newPasswordHash(database.db, password);
    const t = now();
    const firstName = profile.firstName ?? '';
    const lastName = profile.lastName ?? '';
    try {
      await insertUser(database.db, {
        ...profile,
        username,
        firstName,
        lastName,
        fullName: profile.fullName || `${firstName} ${lastName}`.trim(),
        role,
        passwordHash,
        passwordChangedAt: t,
        created: t,
        modified: t,
      });
    } catch (e) {
      // Two requests for one name: the unique index decided, the loser hears the name is taken.
      if (await findUser(database.db, username)) throw invalid(`User '${username}' already exists.`);
      throw e;
    }
    return sendJson(c, { status: 'success' });
  });

  return router;
}
