/** The resources every client reads at sign-in: info, generateToken, portals/self and community/self. */
import { Hono } from 'hono';
import { groupsOfUser, type MemberType } from '../../db/repositories/groups.js';
import { forbidden } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { portalUrl, publicRoot, servicesUrl } from '../urls.js';
import { groupJson } from './group-json.js';
import { generateToken } from './tokens.js';
import { userJson } from './user-json.js';

export const PORTAL_VERSION = '2024.1';
const methods = ['GET', 'POST'];

export function createPortalBasicsRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();

  router.on(methods, '/', (c) => sendJson(c, { currentVersion: PORTAL_VERSION }));

  // No currentVersion here: the Python API takes a root whose info carries one for a Server, not a Portal.
  router.on(methods, '/info', (c) =>
    sendJson(c, {
      owningSystemUrl: publicRoot(c),
      authInfo: { tokenServicesUrl: `${portalUrl(c)}/generateToken`, isTokenBasedSecurity: true },
    }),
  );

  router.on(methods, '/generateToken', async (c) => sendJson(c, await generateToken(c)));

  router.on(methods, '/portals/:id{[A-Za-z0-9]+}', (c) => {
    const deps = c.get('deps');
    const id = c.req.param('id');
    if (id !== 'self' && id !== deps.portalId) throw forbidden();
    return sendJson(c, portalSelf(c));
  });

  router.on(methods, '/community/self', async (c) => {
    const user = requireUser(c);
    const { database, portalId } = c.get('deps');
    const groups = await groupsOfUser(database.db, user.username);
    const membership = (memberType: MemberType) => ({ username: user.username, memberType });
    return sendJson(c, {
      ...userJson(user, portalId, true),
      groups: groups.map((g) => groupJson(g, membership(g.memberType))),
    });
  });

  return router;
}

function portalSelf(c: Parameters<typeof publicRoot>[0]) {
  const { portalId, portalName, config } = c.get('deps');
  const user = c.get('user');
  const root = publicRoot(c);
  const host = new URL(root).host + config.basePath;
  return {
    id: portalId,
    name: portalName,
    isPortal: true,
    portalMode: 'singletenant',
    portalName,
    portalHostname: host,
    customBaseUrl: host,
    urlKey: '',
    allSSL: root.startsWith('https:'),
    currentVersion: PORTAL_VERSION,
    supportsHostedServices: true,
    supportsOAuth: false,
    access: 'private',
    authorizedCrossOriginDomains: [],
    authorizedCrossOriginNoCorsDomains: [],
    maxTokenExpirationMinutes: config.tokens.maxMinutes,
    defaultExtent: {
      xmin: -20037508.342787,
      ymin: -20037508.342787,
      xmax: 20037508.342787,
      ymax: 20037508.342787,
      spatialReference: { wkid: 102100, latestWkid: 3857 },
    },
    helperServices: {
      geocode: [
        { url: `${servicesUrl(c)}/World/GeocodeServer`, name: 'World', batch: true, placefinding: true },
      ],
    },
    units: 'metric',
    culture: 'en',
    region: 'US',
    appInfo: {},
    ...(user ? { user: userJson(user, portalId, true) } : {}),
  };
}
