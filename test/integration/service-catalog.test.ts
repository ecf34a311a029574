import { describe, expect, it } from 'vitest';
import { featureServer, fixture, publishFile, uniqueName, upload } from './publish/publish-client.js';
import { call, signIn } from './support/portal-client.js';

describe('the services directory', () => {
  it('lists the Hosted folder and the World locator at rest/services', async () => {
    const { json } = await call('/rest/services', {}, { method: 'GET' });
    expect(json.folders).toEqual(['Hosted']);
    expect(json.services).toEqual([{ name: 'World', type: 'GeocodeServer' }]);
  });

  it('lists a published feature service under Hosted once it is ready', async () => {
    const token = await signIn();
    const name = uniqueName('catalog_libraries');
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
    );
    const { status } = await publishFile(token, 'chicago-libraries.csv', 'csv', {
      ...analyzed.publishParameters,
      name,
    });
    expect(status.status).toBe('completed');
    const { json } = await call('/rest/services/Hosted', { token }, { method: 'GET' });
    expect(json.services).toContainEqual({ name: `Hosted/${name}`, type: 'FeatureServer' });
    const service = await call(featureServer(name), { token }, { method: 'GET' });
    expect(service.json.layers).toHaveLength(1);
  });
});
