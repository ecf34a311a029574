import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/client.js';
import { toGeoError } from '../../../lib/errors.js';
import { createTestDatabase } from '../support/postgres.js';

describe('the statement timeout of the API sessions', () => {
  it('cancels a PostgreSQL statement at the limit on every pooled connection, answered as a clear 400', async () => {
    const test = await createTestDatabase();
    const handle = await openDatabase({ databaseUrl: test.url, statementTimeoutMs: 300, poolSize: 3 });
    try {
      const shown = await Promise.all(
        [1, 2, 3].map(() => handle.rows<{ statement_timeout: string }>(sql`show statement_timeout`)),
      );
      expect(shown.map((r) => r[0].statement_timeout)).toEqual(['300ms', '300ms', '300ms']);
      const started = Date.now();
      const error = await handle.rows(sql`select pg_sleep(5)`).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(Date.now() - started).toBeLessThan(3000);
      expect(toGeoError(error).toBody()).toMatchObject({
        code: 400,
        message: 'The request took too long to answer.',
        details: [expect.stringContaining('STATEMENT_TIMEOUT_SECONDS')],
      });
    } finally {
      await handle.close();
      await test.drop();
    }
  });

  it('sets it on the embedded PGlite connection too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geoportal-pglite-'));
    const handle = await openDatabase({ pgliteDir: dir, statementTimeoutMs: 300 });
    try {
      const [row] = await handle.rows<{ statement_timeout: string }>(sql`show statement_timeout`);
      expect(row.statement_timeout).toBe('300ms');
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the worker sessions without one', async () => {
    const test = await createTestDatabase();
    const handle = await openDatabase({ databaseUrl: test.url });
    try {
      const [row] = await handle.rows<{ statement_timeout: string }>(sql`show statement_timeout`);
      expect(row.statement_timeout).toBe('0');
    } finally {
      await handle.close();
      await test.drop();
    }
  });
});
