/**
 * A fresh database on the machine's PostgreSQL for each test run, dropped afterwards. The server is the
 * real one (TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test); when it is down we try to
 * start the local cluster once, as the developers' guide describes.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

function tryStartLocalCluster(): void {
  try {
    const versions = execFileSync('ls', ['/etc/postgresql'], { encoding: 'utf8' }).trim().split('\n');
    for (const v of versions) {
      execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start'], { stdio: 'ignore' });
    }
  } catch {
    // nothing to start here; the caller reports the server as unreachable
  }
}

export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!(await reachable(adminUrl))) {
    tryStartLocalCluster();
    if (!(await reachable(adminUrl))) {
      throw new Error(
        `PostgreSQL is not reachable at ${adminUrl}. Start it, or set TEST_POSTGRES_URL to a server where the ` +
          'user may create databases.',
      );
    }
  }
  const name = `geoportal_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}
