/**
 * Who may call what: every route the app mounts, with the caller it needs and the resource rule its
 * handler applies. The guard (privilege-guard.ts) enforces `caller` for every request before the
 * handler runs, from this table; a route missing here is refused (and fails test/integration/
 * authorization-matrix.test.ts, which also exercises every entry with each kind of caller).
 * `resource` is checked by the handler against lib/access with the resource at hand (an item, a group,
 * a service, a job); it is listed here so the table says the whole rule, and the README's privilege
 * table is this table.
 */
import { PUBLISH_FEATURES, PUBLISH_TILES, PUBLISH_VECTOR_TILES } from '../lib/access/roles.js';

/** What the caller must be, whatever the resource: all of a rule's entries must hold. */
export type CallerRule =
  | 'anyone'
  | 'signedIn'
  /** The user named in the path (`:username` or `:user`) or an administrator. */
  | 'selfOrAdmin'
  /** The user named in the path themself (administrators too act only as themselves). */
  | 'self'
  | 'admin'
  | { privilege: string }
  /** At least one of these privileges; the handler asks for the one the request needs. */
  | { anyPrivilege: readonly string[] };

/** The rule the handler applies to the resource the request names. */
export type ResourceRule =
  /** The item is readable: public, org (signed in), shared with a group of the caller, owner, admin. */
  | 'item:read'
  /** The caller owns the item or is an administrator. */
  | 'item:change'
  /** The hosted service's item is readable (499 without a token, 403 without access). */
  | 'service:read'
  /** Reading the service, then the layer's capabilities and ownership access control per feature. */
  | 'service:edit'
  /** The service's owner or an administrator. */
  | 'service:change'
  /** Public groups to anyone, org groups to members of the organization, others to their members. */
  | 'group:see'
  /** The group's owner or admins, or an administrator of the organization. */
  | 'group:manage'
  /** The group's owner or an administrator of the organization. */
  | 'group:own'
  /** The user who started the job or an administrator. */
  | 'job:owner'
  /** The path user themself, or an administrator; without a token, a password change proven by the old one. */
  | 'user:self'
  /** Both items readable by the caller (and changeable as the relationship type requires). */
  | 'relationship'
  /** Only what the caller may read is listed. */
  | 'listing';

export interface RouteRule {
  operation: string;
  methods: readonly ('GET' | 'POST')[];
  /** Hono paths relative to BASE_PATH, exactly as mounted. */
  paths: readonly string[];
  caller: readonly CallerRule[];
  resource?: ResourceRule;
}

const GP = ['GET', 'POST'] as const;
const POST = ['POST'] as const;
const GET = ['GET'] as const;
const SR = '/sharing/rest';
const FOLDER = ':folderId{[0-9a-f]{32}}';
const FS = '/rest/services/Hosted/:name/FeatureServer';
const LAYER = `${FS}/:layer{[0-9]+}`;
const FEATURE = `${LAYER}/:objectId{[0-9]+}`;
const MS = '/rest/services/Hosted/:name/MapServer';
const ADMIN_FS = '/rest/admin/services/Hosted/:name/FeatureServer';
const ADMIN_LAYER = `${ADMIN_FS}/:layer{[0-9]+}`;
const VTS = '/rest/services/Hosted/:name/VectorTileServer';
const GEO = '/rest/services/:name/GeocodeServer';
const PUBLISHER = { anyPrivilege: [PUBLISH_FEATURES, PUBLISH_TILES, PUBLISH_VECTOR_TILES] } as const;

const anyone = ['anyone'] as const;
const signedIn = ['signedIn'] as const;
const admin = ['admin'] as const;
const selfOrAdmin = ['selfOrAdmin'] as const;

export const ROUTE_RULES: readonly RouteRule[] = [
  // Portal basics and sign-in
  { operation: 'portal root', methods: GP, paths: [SR], caller: anyone },
  // Pages for people: the home page (sign-in form, links), its scripts and styles, and the map viewer,
  // which holds no data itself (what it draws comes through the services, under their rules).
  { operation: 'home page', methods: GET, paths: ['/'], caller: anyone },
  { operation: 'static files', methods: GET, paths: ['/static/*'], caller: anyone },
  {
    operation: 'map viewer',
    methods: GET,
    paths: ['/apps/viewer/:folder/:name/:type{FeatureServer|MapServer}'],
    caller: anyone,
  },

  { operation: 'info', methods: GP, paths: [`${SR}/info`], caller: anyone },
  { operation: 'generateToken', methods: GP, paths: [`${SR}/generateToken`], caller: anyone },
  // revokeToken revokes the token it is given (holding it is the entitlement); signout the one the request signs in with.
  { operation: 'revokeToken', methods: ['POST'], paths: [`${SR}/oauth2/revokeToken`], caller: anyone },
  { operation: 'signout', methods: GP, paths: [`${SR}/oauth2/signout`], caller: signedIn },
  { operation: 'portal', methods: GP, paths: [`${SR}/portals/:id{[A-Za-z0-9]+}`], caller: anyone },
  { operation: 'community/self', methods: GP, paths: [`${SR}/community/self`], caller: signedIn },
  // Users
  {
    operation: 'list users',
    methods: GP,
    paths: [`${SR}/portals/:portalId/users`, `${SR}/community/users`],
    caller: signedIn,
  },
  { operation: 'user', methods: GP, paths: [`${SR}/community/users/:username`], caller: signedIn },
  {
    operation: 'update user',
    methods: POST,
    paths: [`${SR}/community/users/:username/update`],
    caller: anyone,
    resource: 'user:self',
  },
  {
    operation: 'delete user',
    methods: POST,
    paths: [`${SR}/community/users/:username/delete`],
    caller: selfOrAdmin,
  },
  {
    operation: 'createUser',
    methods: POST,
    paths: ['/portaladmin/security/users/createUser'],
    caller: admin,
  },
  {
    operation: 'removeUsers',
    methods: POST,
    paths: [`${SR}/portals/:portalId/removeUsers`, `${SR}/portals/:portalId/removeusers`],
    caller: admin,
  },
  {
    operation: 'securityPolicy',
    methods: GP,
    paths: [`${SR}/portals/:portalId/securityPolicy`],
    caller: admin,
  },
  {
    operation: 'update securityPolicy',
    methods: POST,
    paths: [`${SR}/portals/:portalId/securityPolicy/update`, `${SR}/portals/:portalId/securityPolicy/reset`],
    caller: admin,
  },
  // Groups
  {
    operation: 'createGroup',
    methods: POST,
    paths: [`${SR}/community/createGroup`],
    caller: [{ privilege: 'portal:user:createGroup' }],
  },
  {
    operation: 'search groups',
    methods: GP,
    paths: [`${SR}/community/groups`],
    caller: anyone,
    resource: 'listing',
  },
  {
    operation: 'group',
    methods: GP,
    paths: [`${SR}/community/groups/:groupId`, `${SR}/community/groups/:groupId/users`],
    caller: anyone,
    resource: 'group:see',
  },
  {
    operation: 'group members',
    methods: POST,
    paths: [`${SR}/community/groups/:groupId/addUsers`, `${SR}/community/groups/:groupId/removeUsers`],
    caller: signedIn,
    resource: 'group:manage',
  },
  {
    operation: 'join or leave group',
    methods: POST,
    paths: [`${SR}/community/groups/:groupId/join`, `${SR}/community/groups/:groupId/leave`],
    caller: signedIn,
    resource: 'group:see',
  },
  {
    operation: 'group applications',
    methods: GP,
    paths: [`${SR}/community/groups/:groupId/applications`],
    caller: signedIn,
    resource: 'group:manage',
  },
  {
    operation: 'accept or decline application',
    methods: POST,
    paths: [
      `${SR}/community/groups/:groupId/applications/:username/accept`,
      `${SR}/community/groups/:groupId/applications/:username/decline`,
    ],
    caller: signedIn,
    resource: 'group:manage',
  },
  {
    operation: 'change group',
    methods: POST,
    paths: [
      `${SR}/community/groups/:groupId/update`,
      `${SR}/community/groups/:groupId/delete`,
      `${SR}/community/groups/:groupId/reassign`,
    ],
    caller: signedIn,
    resource: 'group:own',
  },
  // Collaborations
  {
    operation: 'createCollaboration',
    methods: POST,
    paths: [`${SR}/portals/:portalId/createCollaboration`],
    caller: admin,
  },
  {
    operation: 'collaborations',
    methods: GP,
    paths: [
      `${SR}/portals/:portalId/collaborations`,
      `${SR}/portals/:portalId/collaborations/:collaborationId`,
      `${SR}/portals/:portalId/collaborations/:collaborationId/workspaces`,
      `${SR}/portals/:portalId/collaborations/:collaborationId/participants`,
    ],
    caller: admin,
  },
  // Items, folders, sharing, relationships, search
  {
    operation: 'addItem',
    methods: POST,
    paths: [`${SR}/content/users/:username/addItem`, `${SR}/content/users/:username/${FOLDER}/addItem`],
    caller: [{ privilege: 'portal:user:createItem' }, 'selfOrAdmin'],
  },
  {
    operation: 'item',
    methods: GP,
    paths: [`${SR}/content/items/:itemId`],
    caller: anyone,
    resource: 'item:read',
  },
  {
    operation: 'item data',
    methods: GET,
    paths: [`${SR}/content/items/:itemId/data`],
    caller: anyone,
    resource: 'item:read',
  },
  {
    operation: 'item thumbnail and metadata',
    methods: GET,
    paths: [
      `${SR}/content/items/:itemId/info/thumbnail/:name`,
      `${SR}/content/items/:itemId/info/metadata/metadata.xml`,
    ],
    caller: anyone,
    resource: 'item:read',
  },
  {
    operation: 'relatedItems',
    methods: GP,
    paths: [`${SR}/content/items/:itemId/relatedItems`],
    caller: anyone,
    resource: 'item:read',
  },
  {
    operation: 'change item',
    methods: POST,
    paths: [
      `${SR}/content/users/:username/items/:itemId/update`,
      `${SR}/content/users/:username/${FOLDER}/items/:itemId/update`,
      `${SR}/content/users/:username/items/:itemId/delete`,
      `${SR}/content/users/:username/${FOLDER}/items/:itemId/delete`,
      `${SR}/content/users/:username/items/:itemId/protect`,
      `${SR}/content/users/:username/items/:itemId/unprotect`,
      `${SR}/content/users/:username/items/:itemId/move`,
      `${SR}/content/users/:username/${FOLDER}/items/:itemId/move`,
    ],
    caller: signedIn,
    resource: 'item:change',
  },
  {
    operation: 'item upload in parts',
    methods: POST,
    paths: ['addPart', 'commit', 'cancel'].flatMap((op) => [
      `${SR}/content/users/:username/items/:itemId/${op}`,
      `${SR}/content/users/:username/${FOLDER}/items/:itemId/${op}`,
    ]),
    caller: signedIn,
    resource: 'item:change',
  },
  {
    operation: 'share item',
    methods: POST,
    paths: [
      `${SR}/content/users/:username/items/:itemId/share`,
      `${SR}/content/users/:username/${FOLDER}/items/:itemId/share`,
      `${SR}/content/users/:username/items/:itemId/unshare`,
      `${SR}/content/users/:username/${FOLDER}/items/:itemId/unshare`,
    ],
    caller: signedIn,
    resource: 'item:change',
  },
  {
    operation: 'reassign item',
    methods: POST,
    paths: [
      `${SR}/content/users/:username/items/:itemId/reassign`,
      `${SR}/content/users/:username/${FOLDER}/items/:itemId/reassign`,
    ],
    caller: admin,
  },
  {
    // Into (out of) the groups the caller may share into (manages); see api/portal/sharing-router.ts.
    operation: 'share item (group)',
    methods: POST,
    paths: [`${SR}/content/items/:itemId/share`, `${SR}/content/items/:itemId/unshare`],
    caller: signedIn,
    resource: 'item:read',
  },
  {
    // Each item is checked in the handler (item:change); one that fails is a failed result in the batch.
    operation: 'item batches',
    methods: POST,
    paths: [
      `${SR}/content/users/:username/shareItems`,
      `${SR}/content/users/:username/unshareItems`,
      `${SR}/content/users/:username/moveItems`,
      `${SR}/content/users/:username/deleteItems`,
    ],
    caller: selfOrAdmin,
    resource: 'item:change',
  },
  {
    operation: 'user content',
    methods: GP,
    paths: [`${SR}/content/users/:username`, `${SR}/content/users/:username/${FOLDER}`],
    caller: selfOrAdmin,
  },
  {
    operation: 'folders',
    methods: POST,
    paths: [`${SR}/content/users/:username/createFolder`, `${SR}/content/users/:username/${FOLDER}/delete`],
    caller: selfOrAdmin,
  },
  {
    operation: 'relationships',
    methods: POST,
    paths: [
      `${SR}/content/users/:username/addRelationship`,
      `${SR}/content/users/:username/deleteRelationship`,
      `${SR}/content/users/:username/deleteRelationships`,
    ],
    caller: ['self'],
    resource: 'relationship',
  },
  { operation: 'search', methods: GP, paths: [`${SR}/search`], caller: anyone, resource: 'listing' },
  // Publishing
  {
    operation: 'analyze',
    methods: GP,
    paths: [`${SR}/content/features/analyze`],
    caller: [{ privilege: PUBLISH_FEATURES }],
  },
  {
    operation: 'publish',
    methods: GP,
    paths: [`${SR}/content/users/:user/publish`, `${SR}/content/users/:user/:folder/publish`],
    caller: ['selfOrAdmin', PUBLISHER],
  },
  {
    operation: 'job status',
    methods: GP,
    paths: [
      `${SR}/content/users/:user/items/:itemId/status`,
      `${SR}/content/users/:user/:folder/items/:itemId/status`,
      `${SR}/content/users/:user/items/:itemId/errorRecords`,
    ],
    caller: signedIn,
    resource: 'job:owner',
  },
  // ArcGIS Server REST
  { operation: 'server info', methods: GP, paths: ['/rest/info'], caller: anyone },
  {
    operation: 'services directory',
    methods: GP,
    paths: ['/rest/services', '/rest/services/Hosted'],
    caller: anyone,
    resource: 'listing',
  },
  {
    operation: 'geocode',
    methods: GP,
    paths: [GEO, `${GEO}/`, `${GEO}/findAddressCandidates`, `${GEO}/geocodeAddresses`],
    caller: anyone,
  },
  { operation: 'loadAddressPoints', methods: POST, paths: [`${GEO}/loadAddressPoints`], caller: admin },
  {
    operation: 'read feature service',
    methods: GP,
    paths: [
      FS,
      `${FS}/layers`,
      `${FS}/query`,
      LAYER,
      `${LAYER}/query`,
      `${LAYER}/queryRelatedRecords`,
      `${LAYER}/queryAttachments`,
      FEATURE,
      `${FEATURE}/attachments`,
      `${FEATURE}/attachments/:attachmentId{[0-9]+}`,
    ],
    caller: anyone,
    resource: 'service:read',
  },
  {
    operation: 'service job status',
    methods: GP,
    paths: [`${FS}/jobs/:jobId{[0-9a-f]{32}}`],
    caller: signedIn,
    resource: 'service:read',
  },
  {
    operation: 'edit features',
    methods: POST,
    paths: [
      `${FS}/applyEdits`,
      `${LAYER}/applyEdits`,
      `${LAYER}/addFeatures`,
      `${LAYER}/updateFeatures`,
      `${LAYER}/deleteFeatures`,
      `${LAYER}/calculate`,
      `${LAYER}/append`,
      `${FEATURE}/addAttachment`,
      `${FEATURE}/updateAttachment`,
      `${FEATURE}/deleteAttachments`,
    ],
    caller: anyone,
    resource: 'service:edit',
  },
  {
    operation: 'read map and tiles',
    methods: GP,
    paths: [
      MS,
      `${MS}/layers`,
      `${MS}/legend`,
      `${MS}/tile/:level/:row/:col`,
      `${MS}/tilemap/:level/:row/:col/:width/:height`,
      VTS,
      `${VTS}/resources/*`,
      `${VTS}/tile/:level/:row/:col`,
      `${VTS}/tilemap/:level/:row/:col/:width/:height`,
    ],
    caller: anyone,
    resource: 'service:read',
  },
  {
    operation: 'draw and search the map',
    methods: GP,
    paths: [
      `${MS}/export`,
      `${MS}/identify`,
      `${MS}/find`,
      `${MS}/:layer{[0-9]+}`,
      `${MS}/:layer{[0-9]+}/query`,
    ],
    caller: anyone,
    resource: 'service:read',
  },
  {
    operation: 'OGC API Features',
    methods: GET,
    paths: [
      '/rest/services/Hosted/:name/OGCFeatureServer',
      '/rest/services/Hosted/:name/OGCFeatureServer/conformance',
      '/rest/services/Hosted/:name/OGCFeatureServer/api',
      '/rest/services/Hosted/:name/OGCFeatureServer/collections',
      '/rest/services/Hosted/:name/OGCFeatureServer/collections/:collectionId',
      '/rest/services/Hosted/:name/OGCFeatureServer/collections/:collectionId/items',
      '/rest/services/Hosted/:name/OGCFeatureServer/collections/:collectionId/items/:featureId',
    ],
    caller: anyone,
    resource: 'service:read',
  },
  {
    operation: 'WMTS',
    methods: GET,
    paths: [
      `${MS}/WMTS`,
      `${MS}/WMTS/1.0.0/WMTSCapabilities.xml`,
      `${MS}/WMTS/tile/1.0.0/:layer/:style/:set/:level/:row/:col`,
    ],
    caller: anyone,
    resource: 'service:read',
  },
  {
    operation: 'service admin',
    methods: GP,
    paths: [ADMIN_FS, ADMIN_LAYER],
    caller: signedIn,
    resource: 'service:change',
  },
  {
    operation: 'change service',
    methods: POST,
    paths: [
      ...['addToDefinition', 'updateDefinition', 'deleteFromDefinition'].flatMap((op) => [
        `${ADMIN_FS}/${op}`,
        `${ADMIN_LAYER}/${op}`,
      ]),
      `${ADMIN_LAYER}/truncate`,
    ],
    caller: signedIn,
    resource: 'service:change',
  },
  {
    operation: 'updateTiles',
    methods: POST,
    paths: [`${MS}/updateTiles`],
    caller: signedIn,
    resource: 'service:change',
  },
  // The map-server SOAP surface (its faults come from the service's own check)
  {
    operation: 'SOAP MapServer',
    methods: GP,
    paths: ['/services/Hosted/:name/MapServer'],
    caller: anyone,
    resource: 'service:read',
  },
  {
    operation: 'WMS',
    methods: GP,
    paths: ['/services/Hosted/:name/MapServer/WMSServer'],
    caller: anyone,
    resource: 'service:read',
  },
  {
    operation: 'SOAP output',
    methods: GET,
    paths: ['/services/Hosted/:name/MapServer/output/:file'],
    caller: anyone,
  },
];
