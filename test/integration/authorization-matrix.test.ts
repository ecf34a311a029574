/**
 * The authorization matrix, generated from the privilege table (api/privileges.ts): every route, with
 * each kind of caller, against a real database. The expected answer of each cell is worked out here
 * from the table's rule and the roles' documented privileges, not from the guard's code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallerRule, type ResourceRule, ROUTE_RULES, type RouteRule } from '../../api/privileges.js';
import { type InProcessApp, inProcessApp } from './support/in-process-app.js';

type Kind = 'anonymous' | 'org_user' | 'org_publisher' | 'org_admin';
const KINDS: Kind[] = ['anonymous', 'org_user', 'org_publisher', 'org_admin'];

/** The privileges ArcGIS's User, Publisher and Administrator roles hold that the table names. */
const HOLDS: Record<Kind, string[]> = {
  anonymous: [],
  org_user: ['portal:user:createItem', 'portal:user:createGroup'],
  org_publisher: [
    'portal:user:createItem',
    'portal:user:createGroup',
    'portal:publisher:publishFeatures',
    'portal:publisher:publishTiles',
    'portal:publisher:publishVectorTiles',
  ],
  org_admin: [
    'portal:user:createItem',
    'portal:user:createGroup',
    'portal:publisher:publishFeatures',
    'portal:publisher:publishTiles',
    'portal:publisher:publishVectorTiles',
  ],
};

/** 499 (sign in), 403 (refused) or 'allowed', for a caller of `kind` acting on their own or another's path. */
function expected(rule: RouteRule, kind: Kind, ownPath: boolean): 499 | 403 | 'allowed' {
  const needs = (r: CallerRule) => r !== 'anyone';
  if (kind === 'anonymous') return rule.caller.some(needs) ? 499 : 'allowed';
  for (const r of rule.caller) {
    if (r === 'anyone' || r === 'signedIn') continue;
    if (r === 'admin' && kind !== 'org_admin') return 403;
    if (r === 'selfOrAdmin' && !ownPath && kind !== 'org_admin') return 403;
    if (r === 'self' && !ownPath) return 403;
    if (typeof r === 'object' && 'privilege' in r && !HOLDS[kind].includes(r.privilege)) return 403;
    if (typeof r === 'object' && 'anyPrivilege' in r && !r.anyPrivilege.some((p) => HOLDS[kind].includes(p)))
      return 403;
  }
  return 'allowed';
}

/** A concrete URL for a route pattern: the path user, and ids of things that do not exist. */
function concrete(path: string, username: string): string {
  return path
    .replace(/:(username|user)\b/g, username)
    .replace(/:folderId\{[^}]*\}\}?/g, 'f'.repeat(32))
    .replace(/:folder\b/g, 'f'.repeat(32))
    .replace(/:id\{[^}]*\}/g, 'self')
    .replace(/:portalId/g, 'self')
    .replace(/:itemId/g, '0'.repeat(32))
    .replace(/:groupId/g, '0'.repeat(32))
    .replace(/:collaborationId/g, '0'.repeat(32))
    .replace(/:name/g, 'NoSuchService')
    .replace(/:(layer|objectId|attachmentId)\{\[0-9\]\+\}/g, '0')
    .replace(/:(level|row|col|width|height)/g, '1')
    .replace(/:file/g, 'nothing.png')
    .replace(/\*$/, 'styles/root.json');
}

interface Cell {
  operation: string;
  request: string;
  kind: Kind;
  ownPath: boolean;
  want: 499 | 403 | 'allowed';
}

const cells: Cell[] = [];
for (const rule of ROUTE_RULES) {
  const withPathUser = rule.paths.some((p) => /:(username|user)\b/.test(p));
  for (const method of rule.methods) {
    for (const path of rule.paths) {
      for (const kind of KINDS) {
        for (const ownPath of withPathUser && kind !== 'anonymous' ? [true, false] : [true]) {
          cells.push({
            operation: rule.operation,
            request: `${method} ${path}`,
            kind,
            ownPath,
            want: expected(rule, kind, ownPath),
          });
        }
      }
    }
  }
}

/** Parameters that take a cell past the handler's own checks that are not about the caller. */
const EXTRA: Record<string, Record<string, string>> = {
  // Without a token, only a password change proven by the old password may be asked for.
  'POST /sharing/rest/community/users/:username/update': { password: 'x', oldPassword: 'y' },
};

// Signing out revokes the caller's token and a user deleting themself succeeds, so those cells come last.
const last = (c: Cell) =>
  c.operation === 'delete user' ? 2 + Number(c.ownPath) : c.operation === 'signout' ? 1 : 0;
cells.sort((a, b) => last(a) - last(b));

let portal: InProcessApp;
const tokens: Partial<Record<Kind, { username: string; token: string }>> = {};

beforeAll(async () => {
  portal = await inProcessApp();
  for (const kind of KINDS) if (kind !== 'anonymous') tokens[kind] = await portal.user(kind);
});
afterAll(async () => portal?.close());

/** The resource kinds: the resource's owner, a member of a group it is shared with, another user. */
type Holder = 'owner' | 'group member' | 'other user';
const HOLDERS: Holder[] = ['owner', 'group member', 'other user'];

/**
 * What each resource rule grants each holder, for a private item shared with one group and that
 * group (private, the member added as a plain member): the rules of the table's README columns.
 */
const GRANTS: Partial<Record<ResourceRule, Record<Holder, boolean>>> = {
  'item:read': { owner: true, 'group member': true, 'other user': false },
  'item:change': { owner: true, 'group member': false, 'other user': false },
  'group:see': { owner: true, 'group member': true, 'other user': false },
  'group:manage': { owner: true, 'group member': false, 'other user': false },
  'group:own': { owner: true, 'group member': false, 'other user': false },
};

/** Refused by a resource rule: 403, or the "does not exist or is inaccessible" answer of an unreadable one. */
const refusedByResource = (json: Record<string, any>) =>
  json.error?.code === 403 || ['CONT_0001', 'COM_0003'].includes(json.error?.messageCode);

describe('the authorization matrix', () => {
  it(`answers every route for every kind of caller as the table says (${cells.length} cells)`, async () => {
    const wrong: string[] = [];
    for (const cell of cells) {
      const [method, path] = cell.request.split(' ') as ['GET' | 'POST', string];
      // Signing out revokes the token: each such cell signs in afresh.
      const caller =
        cell.operation === 'signout' && cell.kind !== 'anonymous'
          ? await portal.user(cell.kind)
          : tokens[cell.kind];
      const pathUser = cell.ownPath ? (caller?.username ?? 'nobody12') : 'someoneelse';
      const params = { ...EXTRA[cell.request], ...(caller ? { token: caller.token } : {}) };
      const res = await portal.call(concrete(path, pathUser), params, method);
      const code = res.json.error?.code;
      const got = code === 499 || code === 403 || code === 498 ? code : 'allowed';
      if (got !== cell.want)
        wrong.push(
          `${cell.request} as ${cell.kind}${cell.ownPath ? '' : ' on another user'}: want ${cell.want}, got ${got} ${res.text.slice(0, 160)}`,
        );
      if (res.status >= 500 && !path.startsWith('/services/'))
        wrong.push(`${cell.request} as ${cell.kind}: HTTP ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers the owner, a group member and another user of a real item and group as the table says', async () => {
    const [owner, member, other] = [
      await portal.user('org_publisher'),
      await portal.user('org_user'),
      await portal.user('org_user'),
    ];
    const as = { owner, 'group member': member, 'other user': other };
    const made = await portal.call(`/sharing/rest/content/users/${owner.username}/addItem`, {
      token: owner.token,
      type: 'Web Map',
      title: 'matrix map',
      text: '{}',
    });
    const itemId = made.json.id as string;
    const group = await portal.call('/sharing/rest/community/createGroup', {
      token: owner.token,
      title: `matrix ${itemId}`,
    });
    const groupId = group.json.group.id as string;
    await portal.call(`/sharing/rest/community/groups/${groupId}/addUsers`, {
      token: owner.token,
      users: member.username,
    });
    const shared = await portal.call(`/sharing/rest/content/users/${owner.username}/items/${itemId}/share`, {
      token: owner.token,
      groups: groupId,
    });
    expect(shared.json.notSharedWith).toEqual([]);

    const destructive = (path: string) => /\/(delete|reassign)$/.test(path);
    const requests = ROUTE_RULES.filter((r) => r.resource && GRANTS[r.resource]).flatMap((rule) =>
      rule.methods.flatMap((method) =>
        rule.paths.filter((p) => !p.includes(':folderId')).map((path) => ({ rule, method, path })),
      ),
    );
    // The member leaving the group comes after every other request but the owner's deletes, which come
    // last of all, so the membership, the item and the group stay for every other request.
    const leaves = (path: string) => path.endsWith('/leave');
    const ordered = [
      ...requests
        .filter((r) => !leaves(r.path))
        .flatMap((r) =>
          HOLDERS.filter((h) => h !== 'owner' || !destructive(r.path)).map((h) => ({ ...r, holder: h })),
        ),
      ...requests.filter((r) => leaves(r.path)).flatMap((r) => HOLDERS.map((h) => ({ ...r, holder: h }))),
      ...requests
        .filter((r) => destructive(r.path))
        .sort((a, b) => Number(a.path.endsWith('/delete')) - Number(b.path.endsWith('/delete')))
        .map((r) => ({ ...r, holder: 'owner' as Holder })),
    ];
    const wrong: string[] = [];
    for (const { rule, method, path, holder } of ordered) {
      const url = path
        .replace(/:(username|user)\b/g, owner.username)
        .replace(/:itemId/g, itemId)
        .replace(/:groupId/g, groupId);
      const res = await portal.call(url, { token: as[holder].token }, method);
      const want = GRANTS[rule.resource as ResourceRule]![holder];
      const got = !refusedByResource(res.json);
      if (got !== want)
        wrong.push(
          `${method} ${path} as ${holder}: want ${want ? 'allowed' : 'refused'}, got ${res.text.slice(0, 160)}`,
        );
    }
    expect(ordered.length).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });
});
