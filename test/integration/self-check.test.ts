import { Client, Connection } from '@temporalio/client';
import { Client as MinioClient } from 'minio';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelfCheckResult } from '../../workflows/self-check.js';
import { stack } from './support/portal-client.js';

describe('the stack self-check workflow', () => {
  let connection: Connection;
  let client: Client;
  beforeAll(async () => {
    connection = await Connection.connect({ address: stack().temporalAddress });
    client = new Client({ connection });
  });
  afterAll(async () => connection?.close());

  it('runs on the product worker and writes an object to MinIO and a row to PostgreSQL', async () => {
    const checkId = `it-${Date.now()}`;
    const result = (await client.workflow.execute('selfCheckWorkflow', {
      taskQueue: stack().taskQueue,
      workflowId: `self-check-${checkId}`,
      args: [{ checkId }],
    })) as SelfCheckResult;
    expect(result.objectKey).toBe(`system/self-check/${checkId}.json`);

    const m = stack().minio;
    const url = new URL(m.endpoint);
    const minio = new MinioClient({
      endPoint: url.hostname,
      port: Number(url.port),
      useSSL: false,
      accessKey: m.accessKey,
      secretKey: m.secretKey,
    });
    const chunks: Buffer[] = [];
    for await (const c of await minio.getObject(m.bucket, result.objectKey)) chunks.push(c as Buffer);
    expect(JSON.parse(Buffer.concat(chunks).toString()).checkId).toBe(checkId);

    const sql = postgres(stack().databaseUrl, { max: 1 });
    const rows = await sql`select id, object_key from self_checks where id = ${checkId}`;
    await sql.end();
    expect(rows).toEqual([{ id: checkId, object_key: result.objectKey }]);
  });

  it('is idempotent: running the same check id twice leaves one row', async () => {
    const checkId = `it-twice-${Date.now()}`;
    for (const suffix of ['a', 'b']) {
      await client.workflow.execute('selfCheckWorkflow', {
        taskQueue: stack().taskQueue,
        workflowId: `self-check-${checkId}-${suffix}`,
        args: [{ checkId }],
      });
    }
    const sql = postgres(stack().databaseUrl, { max: 1 });
    const rows = await sql`select count(*)::int as n from self_checks where id = ${checkId}`;
    await sql.end();
    expect(rows[0]?.n).toBe(1);
  });
});
