/** Follows the statusUrl of an asynchronous FeatureServer operation until the job is no longer executing. */
import { call, stack } from '../support/portal-client.js';

export async function followJob(statusUrl: string, token: string): Promise<Record<string, any>> {
  const path = statusUrl.replace(stack().baseUrl, '');
  for (let i = 0; i < 240; i++) {
    const status = (await call(path, { token }, { method: 'GET' })).json;
    if (status.status !== 'Executing') return status;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`job ${statusUrl} still executing`);
}
