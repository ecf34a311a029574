import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/client.js';
import { findUser } from '../../../db/repositories/users.js';
import { bootstrap } from '../../../infra/bootstrap.js';
import { loadConfig } from '../../../infra/config.js';
import { createLogger } from '../../../infra/logger.js';

const log = createLogger('error');

async function bootstrapWith(password: string) {
  const dir = mkdtempSync(join(tmpdir(), 'geoportal-first-admin-'));
  const database = await openDatabase({ pgliteDir: dir });
  try {
    const config = loadConfig({ PORTAL_ADMIN_USERNAME: 'firstadmin', PORTAL_ADMIN_PASSWORD: password });
    await bootstrap(database, config, log, () => 1_700_000_000_000);
    return await findUser(database.db, 'firstadmin');
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the first administrator', () => {
  it('is created with a password that meets the default policy', async () => {
    const admin = await bootstrapWith('First-Admin-9');
    expect(admin?.role).toBe('org_admin');
  });

  it('is refused a configured password that breaks the policy, naming the rule', async () => {
    await expect(bootstrapWith('nodigits')).rejects.toThrow(
      /PORTAL_ADMIN_PASSWORD does not meet the password policy: Use at least 1 digit\./,
    );
  });
});
