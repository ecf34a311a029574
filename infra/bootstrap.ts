/**
 * First-start work shared by every entry point: migrations, the organization row and the first
 * administrator. Idempotent, so several processes may run it against one database.
 */

import type { DatabaseHandle } from '../db/client.js';
import { ensurePortal } from '../db/repositories/portal.js';
import { findUser, insertUser } from '../db/repositories/users.js';
import { isGeoError } from '../lib/errors.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { newPasswordHash } from './passwords.js';
import { newId, newPassword } from './secrets.js';

export interface PortalIdentity {
  portalId: string;
  portalName: string;
  /** Set only when this start created the administrator with a generated password. */
  generatedAdminPassword?: string;
}

export async function bootstrap(
  database: DatabaseHandle,
  config: Config,
  log: Logger,
  now: () => number,
): Promise<PortalIdentity> {
  await database.migrate();
  const portal = await ensurePortal(database.db, newId().slice(0, 16), 'Geoportal', now());
  const existing = await findUser(database.db, config.admin.username);
  let generatedAdminPassword: string | undefined;
  if (!existing) {
    const password = config.admin.password ?? newPassword();
    if (!config.admin.password) generatedAdminPassword = password;
    const t = now();
    try {
      await insertUser(database.db, {
        username: config.admin.username,
        fullName: 'Portal Administrator',
        firstName: 'Portal',
        lastName: 'Administrator',
        email: `${config.admin.username}@localhost`,
        role: 'org_admin',
        passwordHash: await firstAdminPasswordHash(database, password),
        passwordChangedAt: t,
        created: t,
        modified: t,
      });
      log.info('created the first administrator', { username: config.admin.username });
    } catch (e) {
      // Another process created it between our read and write: theirs stands.
      if (!(await findUser(database.db, config.admin.username))) throw e;
      generatedAdminPassword = undefined;
    }
  }
  return { portalId: portal.id, portalName: portal.name, generatedAdminPassword };
}

/** The first administrator's password obeys the organization's password policy like any other. */
async function firstAdminPasswordHash(database: DatabaseHandle, password: string): Promise<string> {
  try {
    return await newPasswordHash(database.db, password);
  } catch (e) {
    if (!isGeoError(e)) throw e;
    throw new Error(`PORTAL_ADMIN_PASSWORD does not meet the password policy: ${e.details.join(' ')}`);
  }
}
