import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, ping } from '../../db/client.js';
import { findTokenUser, findUser, insertToken } from '../../db/repositories/users.js';
import { bootstrap } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { createLogger } from '../../infra/logger.js';
import { tokenHash, verifyPassword } from '../../infra/secrets.js';
import { createTestDatabase } from './support/postgres.js';

const log = createLogger('error');

// The same suite on the real PostgreSQL server and on the embedded PGlite: both must behave alike.
describe.each(['postgres', 'pglite'] as const)('the database layer on %s', (kind) => {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  const config = loadConfig({ PORTAL_ADMIN_USERNAME: 'firstadmin', PORTAL_ADMIN_PASSWORD: 'First-Admin-9' });

  beforeAll(async () => {
    if (kind === 'postgres') {
      const db = await createTestDatabase();
      handle = await openDatabase({ databaseUrl: db.url });
      cleanup = async () => {
        await handle.close();
        await db.drop();
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'geoportal-pglite-'));
      handle = await openDatabase({ pgliteDir: dir });
      cleanup = async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      };
    }
  });
  afterAll(async () => cleanup?.());

  it('reports its kind and answers a ping', async () => {
    expect(handle.kind).toBe(kind);
    expect(await ping(handle)).toBe(true);
  });

  it('answers raw statements as plain arrays of their rows, in and out of a transaction', async () => {
    const statement = sql`select g as n, 'row ' || g as label from generate_series(1, 1500) g order by g`;
    const outside = await handle.rows<{ n: number; label: string }>(statement);
    const inside = await handle.transaction((tx) => tx.rows<{ n: number; label: string }>(statement));
    for (const rows of [outside, inside]) {
      // A plain array (on PostgreSQL, not the driver's result, which is left empty: db/client.ts detachedRows).
      expect(Object.getPrototypeOf(rows)).toBe(Array.prototype);
      expect(rows).toHaveLength(1500);
      expect(rows[0]).toEqual({ n: 1, label: 'row 1' });
      expect(rows[1499]).toEqual({ n: 1500, label: 'row 1500' });
      expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe((1500 * 1501) / 2);
    }
  });

  it('applies the migrations and bootstraps the organization and first administrator', async () => {
    const identity = await bootstrap(handle, config, log, () => 1_700_000_000_000);
    expect(identity.portalId).toMatch(/^[0-9a-f]{16}$/);
    expect(identity.generatedAdminPassword).toBeUndefined();
    const admin = await findUser(handle.db, 'firstadmin');
    expect(admin?.role).toBe('org_admin');
    expect(await verifyPassword('First-Admin-9', admin!.passwordHash)).toBe(true);
  });

  it('is idempotent: a second bootstrap keeps the same organization and user', async () => {
    const first = await bootstrap(handle, config, log, () => 1);
    const second = await bootstrap(handle, config, log, () => 2);
    expect(second.portalId).toBe(first.portalId);
    const rows = await handle.rows<{ n: number }>(sql`select count(*)::int as n from portals`);
    expect(rows[0]?.n).toBe(1);
  });

  it('two concurrent bootstraps agree on one organization', async () => {
    const [a, b] = await Promise.all([
      bootstrap(handle, config, log, () => 3),
      bootstrap(handle, config, log, () => 4),
    ]);
    expect(a.portalId).toBe(b.portalId);
  });

  it('finds users case-insensitively and refuses a second user differing only in case', async () => {
    expect((await findUser(handle.db, 'FIRSTADMIN'))?.username).toBe('firstadmin');
    await expect(
      handle.rows(sql`insert into users (username, role, password_hash, password_changed_at, created, modified)
        values ('FirstAdmin', 'org_user', 'x', 0, 0, 0)`),
    ).rejects.toThrow();
  });

  it('resolves a token only before it expires', async () => {
    await insertToken(handle.db, {
      hash: tokenHash('tok'),
      username: 'firstadmin',
      expires: 1000,
      created: 0,
    });
    expect((await findTokenUser(handle.db, tokenHash('tok'), 999))?.user.username).toBe('firstadmin');
    expect(await findTokenUser(handle.db, tokenHash('tok'), 1000)).toBeUndefined();
    expect(await findTokenUser(handle.db, tokenHash('other'), 0)).toBeUndefined();
  });
});

describe('doubles read from PostgreSQL', () => {
  it('come back exact even where the database rounds them for its other clients', async () => {
    const db = await createTestDatabase();
    const name = new URL(db.url).pathname.slice(1);
    const admin = await openDatabase({ databaseUrl: db.url });
    await admin.rows(sql.raw(`alter database ${name} set extra_float_digits = 0`));
    await admin.close();
    const handle = await openDatabase({ databaseUrl: db.url });
    try {
      const [row] = await handle.rows<{ v: number; digits: string }>(
        sql`select 0.1::float8 + 0.2::float8 as v, current_setting('extra_float_digits') as digits`,
      );
      // With the database's 0 the text would be 0.3, which reads as another double.
      expect(row.v).toBe(0.1 + 0.2);
      expect(row.digits).toBe('1');
    } finally {
      await handle.close();
      await db.drop();
    }
  });

  it('and from the embedded PGlite, as text too (points of a cache build are read as text)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geoportal-pglite-'));
    const handle = await openDatabase({ pgliteDir: dir });
    try {
      const [row] = await handle.rows<{ v: number; t: string }>(
        sql`select 0.1::float8 + 0.2::float8 as v, ((0.1::float8 + 0.2::float8)::text) as t`,
      );
      expect(row.v).toBe(0.1 + 0.2);
      expect(Number(row.t)).toBe(0.1 + 0.2);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
