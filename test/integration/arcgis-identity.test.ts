import { getPortal } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { describe, expect, it } from 'vitest';
import { stack } from './support/portal-client.js';

describe('@esri/arcgis-rest-request against the running portal', () => {
  it('signs in with ArcGISIdentityManager and reads portals/self', async () => {
    const portal = `${stack().baseUrl}/sharing/rest`;
    const session = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal,
    });
    expect(session.username).toBe(stack().admin.username);
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const self = await session.getPortal();
    expect(self.isPortal).toBe(true);
    expect(self.user?.username).toBe(stack().admin.username);
    const viaHelper = await getPortal(undefined, { authentication: session, portal });
    expect(viaHelper.id).toBe(self.id);
  });

  it('fails sign-in with a wrong password through the client error path', async () => {
    await expect(
      ArcGISIdentityManager.signIn({
        username: stack().admin.username,
        password: 'nope',
        portal: `${stack().baseUrl}/sharing/rest`,
      }),
    ).rejects.toThrow(/Unable to generate token/);
  });
});
