import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, it } from 'vitest';
import { ADMIN, type InProcessApp, inProcessApp } from '../auth/in-process-app.js';
import { addKindsLayer } from './hosted-kinds.js';

let app: InProcessApp;
let token: string;
beforeAll(async () => {
  app = await inProcessApp();
  await addKindsLayer(app.deps.database, ADMIN.username, 'Query,Update,Editing,Create,Delete');
  token = (
    await app.call('/sharing/rest/generateToken', {
      username: ADMIN.username,
      password: ADMIN.password,
      client: 'requestip',
    })
  ).json.token;
}, 60000);
afterAll(async () => app?.close());
it('probe', async () => {
  for (const line of (process.env.EDITS ?? '').split('\n').filter(Boolean)) {
    const [kind, json] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    const res =
      kind === 'GET'
        ? await app.call(json, { token }, { method: 'GET' })
        : kind === 'POST'
          ? await app.call(json.split(' ')[0], {
              token,
              ...JSON.parse(json.split(' ').slice(1).join(' ') || '{}'),
            })
          : await app.call('/rest/services/Hosted/kinds/FeatureServer/0/applyEdits', { token, [kind]: json });
    appendFileSync(
      '/work/main/.scratch/probe2.out',
      `${kind} ${json} => ${JSON.stringify(res.json).slice(0, 300)}\n`,
    );
  }
}, 120000);
