/**
 * Portal search as clients use it: `group:<id>` lists a group's content for callers who may see the
 * group, `NOT`/`-field:` leave matches out, `typekeywords:` matches a type keyword; community/groups
 * searches groups with the same language under the groups' visibility; join requests go through
 * `applications`, `accept` and `decline` by group administrators, and members `leave`. Expected answers
 * are the test's own fixtures, chosen per case.
 */
import {
  joinGroup,
  leaveGroup,
  SearchQueryBuilder,
  searchGroups,
  searchItems,
} from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, stack } from '../support/portal-client.js';
import { addTextItem, newUser, type TestUser, unique } from './portal-helpers.js';

const portal = () => `${stack().baseUrl}/sharing/rest`;
const ids = (res: { json: Record<string, any> }) =>
  (res.json.results ?? []).map((r: { id: string }) => r.id).sort();
const search = (q: string, token?: string) =>
  call('/sharing/rest/search', { q, num: '100', ...(token ? { token } : {}) });
const groupSearch = (q: string, token?: string) =>
  call('/sharing/rest/community/groups', { q, num: '100', ...(token ? { token } : {}) });
const signInAs = (u: TestUser) =>
  ArcGISIdentityManager.signIn({ username: u.username, password: u.password, portal: portal() });

async function createGroup(owner: TestUser, fields: Record<string, string>): Promise<string> {
  const res = await call('/sharing/rest/community/createGroup', { token: owner.token, ...fields });
  if (!res.json.success) throw new Error(`createGroup failed: ${res.text}`);
  return res.json.group.id as string;
}

describe('item search: group:, negation and typekeywords', () => {
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let group: string;
  const item: Record<string, string> = {};

  beforeAll(async () => {
    [owner, member, outsider] = [await newUser(), await newUser(), await newUser()];
    group = await createGroup(owner, { title: unique('content '), access: 'private' });
    await call(`/sharing/rest/community/groups/${group}/addUsers`, {
      token: owner.token,
      users: member.username,
    });
    item.river = await addTextItem(owner, { tags: 'river', typeKeywords: 'Hydro,Survey' });
    item.lake = await addTextItem(owner, { tags: 'lake', typeKeywords: 'Hydro' });
    item.draft = await addTextItem(owner, { tags: 'river,draft' });
    for (const id of [item.river, item.draft]) {
      const shared = await call(`/sharing/rest/content/users/${owner.username}/items/${id}/share`, {
        token: owner.token,
        groups: group,
      });
      expect(shared.json.notSharedWith).toEqual([]);
    }
  }, 60_000);

  it('group:<id> lists the items shared with the group, to its owner and its members', async () => {
    const want = [item.river, item.draft].sort();
    expect(ids(await search(`group:${group}`, owner.token))).toEqual(want);
    expect(ids(await search(`group:${group}`, member.token))).toEqual(want);
    const authentication = await signInAs(member);
    const found = await searchItems({ q: new SearchQueryBuilder().match(group).in('group'), authentication });
    expect(found.results.map((r) => r.id).sort()).toEqual(want);
  });

  it('group:<id> of a private group lists nothing to an outsider, even items shared more widely', async () => {
    await call(`/sharing/rest/content/users/${owner.username}/items/${item.river}/share`, {
      token: owner.token,
      org: 'true',
    });
    expect(ids(await search(`owner:${owner.username} tags:river`, outsider.token))).toEqual([item.river]);
    expect(ids(await search(`group:${group}`, outsider.token))).toEqual([]);
  });

  it('NOT and -field: leave out what the term matches', async () => {
    const mine = `owner:${owner.username}`;
    expect(ids(await search(`${mine} NOT tags:draft`, owner.token))).toEqual([item.river, item.lake].sort());
    expect(ids(await search(`${mine} -tags:draft`, owner.token))).toEqual([item.river, item.lake].sort());
    expect(ids(await search(`${mine} -group:${group}`, owner.token))).toEqual([item.lake]);
    expect(ids(await search(`${mine} NOT (tags:lake OR tags:draft)`, owner.token))).toEqual([item.river]);
  });

  it('typekeywords: matches a type keyword, in any case', async () => {
    const mine = `owner:${owner.username}`;
    expect(ids(await search(`${mine} typekeywords:hydro`, owner.token))).toEqual(
      [item.river, item.lake].sort(),
    );
    expect(ids(await search(`${mine} typekeywords:Survey`, owner.token))).toEqual([item.river]);
    expect(ids(await search(`${mine} -typekeywords:Survey`, owner.token))).toEqual(
      [item.lake, item.draft].sort(),
    );
  });

  it('refuses a field it cannot search instead of ignoring it', async () => {
    const res = await search('colour:red', owner.token);
    expect(res.json.error.code).toBe(400);
    expect(res.json.error.details.join(' ')).toMatch(/Field 'colour' cannot be searched here/);
  });

  it('refuses search parameters it does not implement (bbox, categories, filter)', async () => {
    const res = await call('/sharing/rest/search', { q: 'x', bbox: '-10,-10,10,10', token: owner.token });
    expect(res.json.error.code).toBe(400);
    expect(res.json.error.details).toEqual(["'bbox' is not supported by this portal's search."]);
  });
});

describe('group search, join and leave', () => {
  let owner: TestUser;
  let other: TestUser;
  let prefix: string;
  const g: Record<string, string> = {};

  beforeAll(async () => {
    [owner, other] = [await newUser(), await newUser()];
    prefix = unique('srch');
    g.hidden = await createGroup(owner, { title: `${prefix} hidden`, access: 'private', tags: 'alpha' });
    g.invited = await createGroup(owner, {
      title: `${prefix} invited`,
      access: 'org',
      isInvitationOnly: 'true',
      tags: 'beta',
    });
    g.open = await createGroup(owner, { title: `${prefix} open`, access: 'public', tags: 'beta' });
  }, 60_000);

  it('lists the groups each caller may see: all to the owner, org and public to others, public to anyone', async () => {
    expect(ids(await groupSearch(`title:${prefix}`, owner.token))).toEqual(
      [g.hidden, g.invited, g.open].sort(),
    );
    expect(ids(await groupSearch(`title:${prefix}`, other.token))).toEqual([g.invited, g.open].sort());
    expect(ids(await groupSearch(`title:${prefix}`))).toEqual([g.open]);
    const found = await searchGroups({
      q: new SearchQueryBuilder().match(prefix).in('title'),
      authentication: await signInAs(other),
    });
    expect(found.results.map((r) => r.id).sort()).toEqual([g.invited, g.open].sort());
  });

  it('reads owner:, tags:, id:, isinvitationonly: and negation in group queries', async () => {
    const mine = `owner:${owner.username}`;
    expect(ids(await groupSearch(`${mine} isinvitationonly:true`, owner.token))).toEqual([g.invited]);
    expect(ids(await groupSearch(`${mine} tags:beta`, owner.token))).toEqual([g.invited, g.open].sort());
    expect(ids(await groupSearch(`${mine} -tags:alpha`, owner.token))).toEqual([g.invited, g.open].sort());
    expect(ids(await groupSearch(`id:${g.hidden}`, owner.token))).toEqual([g.hidden]);
    expect(ids(await groupSearch(`id:${g.hidden}`, other.token))).toEqual([]);
  });

  it('takes a join request, which a group administrator sees and accepts; the member then leaves', async () => {
    const authentication = await signInAs(other);
    expect(await joinGroup({ id: g.open, authentication })).toMatchObject({ success: true, groupId: g.open });
    const apps = await call(`/sharing/rest/community/groups/${g.open}/applications`, { token: owner.token });
    expect(apps.json.applications.map((a: { username: string }) => a.username)).toEqual([other.username]);
    const notAdmin = await call(`/sharing/rest/community/groups/${g.open}/applications`, {
      token: other.token,
    });
    expect(notAdmin.json.error.code).toBe(403);
    const accepted = await call(
      `/sharing/rest/community/groups/${g.open}/applications/${other.username}/accept`,
      { token: owner.token },
    );
    expect(accepted.json.success).toBe(true);
    const users = await call(`/sharing/rest/community/groups/${g.open}/users`, { token: owner.token });
    expect(users.json.users).toEqual([other.username]);
    const after = await call(`/sharing/rest/community/groups/${g.open}/applications`, { token: owner.token });
    expect(after.json.applications).toEqual([]);
    expect(await leaveGroup({ id: g.open, authentication })).toMatchObject({ success: true });
    const left = await call(`/sharing/rest/community/groups/${g.open}/users`, { token: owner.token });
    expect(left.json.users).toEqual([]);
  });

  it('declines a request: the applicant does not become a member', async () => {
    await call(`/sharing/rest/community/groups/${g.open}/join`, { token: other.token, comments: 'please' });
    const apps = await call(`/sharing/rest/community/groups/${g.open}/applications`, { token: owner.token });
    expect(apps.json.applications).toMatchObject([{ username: other.username, comments: 'please' }]);
    const declined = await call(
      `/sharing/rest/community/groups/${g.open}/applications/${other.username}/decline`,
      { token: owner.token },
    );
    expect(declined.json.success).toBe(true);
    const users = await call(`/sharing/rest/community/groups/${g.open}/users`, { token: owner.token });
    expect(users.json.users).toEqual([]);
    const again = await call(
      `/sharing/rest/community/groups/${g.open}/applications/${other.username}/accept`,
      { token: owner.token },
    );
    expect(again.json.error.code).toBe(400);
  });

  it('refuses to join an invitation-only group, a group one belongs to, and a group one cannot see', async () => {
    const invited = await call(`/sharing/rest/community/groups/${g.invited}/join`, { token: other.token });
    expect(invited.json.error.code).toBe(403);
    const own = await call(`/sharing/rest/community/groups/${g.open}/join`, { token: owner.token });
    expect(own.json.error.code).toBe(400);
    const hidden = await call(`/sharing/rest/community/groups/${g.hidden}/join`, { token: other.token });
    expect(hidden.json.error.code).toBe(400);
    expect(hidden.json.error.messageCode).toBe('COM_0003');
  });

  it('does not let the owner leave, nor a non-member', async () => {
    const ownerLeaves = await call(`/sharing/rest/community/groups/${g.open}/leave`, { token: owner.token });
    expect(ownerLeaves.json.error.code).toBe(400);
    const stranger = await call(`/sharing/rest/community/groups/${g.invited}/leave`, { token: other.token });
    expect(stranger.json.error.code).toBe(400);
  });
});
