import { type ChildProcess, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import type { SelfCheckResult } from '../../workflows/self-check.js';
import { stack } from './support/portal-client.js';
import { freePort } from './support/ports.js';
import { exitOf, productEnv, startProcess, untilAnswering } from './support/product-process.js';

const children: ChildProcess[] = [];

function start(entry: string, env: NodeJS.ProcessEnv) {
  const started = startProcess(entry, env);
  children.push(started.child);
  return started;
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
});

describe('the production entry points', () => {
  it('runs a separate worker process that serves its own task queue', async () => {
    const queue = `extra-${Date.now()}`;
    const worker = start('infra/worker-main.ts', productEnv({ TEMPORAL_TASK_QUEUE: queue }));
    const connection = await Connection.connect({ address: stack().temporalAddress });
    try {
      const client = new Client({ connection });
      const result = (await client.workflow.execute('selfCheckWorkflow', {
        taskQueue: queue,
        workflowId: `self-check-${queue}`,
        args: [{ checkId: queue }],
      })) as SelfCheckResult;
      expect(result.workerIdentity).toMatch(new RegExp(`^${worker.child.pid}@`));
    } finally {
      await connection.close();
    }
    const exited = exitOf(worker.child);
    worker.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('runs a separate API process that serves the portal', async () => {
    const port = await freePort();
    const api = start('api/main.ts', productEnv({ PORT: String(port) }));
    const info = await untilAnswering(port);
    expect(info.authInfo?.tokenServicesUrl).toBe(`http://127.0.0.1:${port}/sharing/rest/generateToken`);
    api.child.kill('SIGTERM');
    expect(await exitOf(api.child)).toBe(0);
  });

  it('forks its servers with the serving V8 flags however the primary was started', async () => {
    const port = await freePort();
    const api = start('api/main.ts', productEnv({ PORT: String(port), API_PROCESSES: '2' }));
    await untilAnswering(port);
    const argv = (pid: number | string) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const servers = execFileSync('pgrep', ['-P', String(api.child.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((pid) => argv(pid).some((a) => a.endsWith('api/main.ts')));
    // The primary was started without the flag (as `node --import tsx api/main.ts`); its two servers have it.
    expect(argv(api.child.pid as number)).not.toContain('--no-memory-reducer');
    expect(servers).toHaveLength(2);
    for (const pid of servers) expect(argv(pid)).toContain('--no-memory-reducer');
    api.child.kill('SIGTERM');
    expect(await exitOf(api.child)).toBe(0);
  });

  it('refuses to start with an invalid variable and names it', async () => {
    const bad = start('api/main.ts', productEnv({ PORT: 'eighty', MINIO_ENDPOINT: 'not a url' }));
    expect(await exitOf(bad.child)).toBe(1);
    expect(bad.output()).toContain('PORT');
    expect(bad.output()).toContain('MINIO_ENDPOINT');
  });

  it('refuses a separate API process without DATABASE_URL, since PGlite lives in one process', async () => {
    const bad = start('api/main.ts', productEnv({ DATABASE_URL: '' }));
    expect(await exitOf(bad.child)).toBe(1);
    expect(bad.output()).toContain('DATABASE_URL');
  });
});
