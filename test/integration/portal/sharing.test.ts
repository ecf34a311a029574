import { shareItemWithGroup } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { describe, expect, it } from 'vitest';
import { call, stack } from '../support/portal-client.js';
import { addTextItem, admin, newUser, type TestUser, unique } from './portal-helpers.js';

const share = (owner: TestUser, id: string, params: Record<string, string>, token = owner.token) =>
  call(`/sharing/rest/content/users/${owner.username}/items/${id}/share`, { token, ...params });
const info = (id: string, token?: string) =>
  call(`/sharing/rest/content/items/${id}`, token ? { token } : {});
const visible = async (id: string, token?: string) => (await info(id, token)).json.id === id;

async function groupWith(owner: TestUser, ...members: TestUser[]): Promise<string> {
  const g = await call('/sharing/rest/community/createGroup', {
    token: owner.token,
    title: unique('share '),
  });
  const id = g.json.group.id as string;
  if (members.length > 0) {
    await call(`/sharing/rest/community/groups/${id}/addUsers`, {
      token: owner.token,
      users: members.map((m) => m.username).join(','),
    });
  }
  return id;
}

describe('share and unshare', () => {
  it('shares with the organization: members see the item, anonymous callers do not', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const id = await addTextItem(owner);
    expect((await share(owner, id, { org: 'true' })).json).toEqual({ notSharedWith: [], itemId: id });
    expect((await info(id, owner.token)).json.access).toBe('org');
    expect(await visible(id, other.token)).toBe(true);
    expect(await visible(id)).toBe(false);
  });

  it('shares with everyone: anonymous callers read and find the item', async () => {
    const owner = await newUser();
    const title = unique('public ');
    const id = await addTextItem(owner, { title });
    await share(owner, id, { everyone: 'true' });
    expect(await visible(id)).toBe(true);
    const found = await call('/sharing/rest/search', { q: `"${title}"` });
    expect(found.json.results.map((r: { id: string }) => r.id)).toEqual([id]);
  });

  it('shares with a group: its members see, search and read the data, others do not', async () => {
    const [owner, member, outsider] = [await newUser(), await newUser(), await newUser()];
    const group = await groupWith(owner, member);
    const id = await addTextItem(owner, { text: '{"shared":true}' });
    expect((await share(owner, id, { groups: group })).json.notSharedWith).toEqual([]);
    expect((await info(id, owner.token)).json.access).toBe('shared');
    expect(await visible(id, member.token)).toBe(true);
    expect(await visible(id, outsider.token)).toBe(false);
    const found = await call('/sharing/rest/search', { token: member.token, q: `owner:${owner.username}` });
    expect(found.json.results.map((r: { id: string }) => r.id)).toEqual([id]);
    const data = await call(
      `/sharing/rest/content/items/${id}/data`,
      { token: member.token },
      { method: 'GET' },
    );
    expect(data.json).toEqual({ shared: true });
  });

  it('refuses groups the owner does not belong to, listing them in notSharedWith', async () => {
    const [owner, stranger] = [await newUser(), await newUser()];
    const foreign = await groupWith(stranger);
    const id = await addTextItem(owner);
    const res = await share(owner, id, { groups: `${foreign},${'0'.repeat(32)}` });
    expect(res.json.notSharedWith).toEqual([foreign, '0'.repeat(32)]);
    expect((await info(id, owner.token)).json.access).toBe('private');
  });

  it('unshares from a group: its members lose the item and it becomes private again', async () => {
    const [owner, member] = [await newUser(), await newUser()];
    const group = await groupWith(owner, member);
    const id = await addTextItem(owner);
    await share(owner, id, { groups: group });
    const res = await call(`/sharing/rest/content/users/${owner.username}/items/${id}/unshare`, {
      token: owner.token,
      groups: group,
    });
    expect(res.json).toEqual({ notUnsharedFrom: [], itemId: id });
    expect(await visible(id, member.token)).toBe(false);
    expect((await info(id, owner.token)).json.access).toBe('private');
  });

  it('takes public access away while keeping the organization level', async () => {
    const owner = await newUser();
    const id = await addTextItem(owner);
    await share(owner, id, { everyone: 'true' });
    await share(owner, id, { everyone: 'false' });
    expect((await info(id, owner.token)).json.access).toBe('org');
  });

  it('is refused to a member who does not own the item', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const id = await addTextItem(owner);
    await share(owner, id, { org: 'true' });
    const res = await share(owner, id, { everyone: 'true' }, other.token);
    expect(res.json.error.code).toBe(403);
    expect((await info(id, owner.token)).json.access).toBe('org');
  });
});

describe("shareItems and unshareItems (a batch of a user's items)", () => {
  const batch = (
    op: 'shareItems' | 'unshareItems',
    owner: TestUser,
    params: Record<string, string>,
    token = owner.token,
  ) => call(`/sharing/rest/content/users/${owner.username}/${op}`, { token, ...params });

  it('shares each item of the batch with the groups and levels asked for, one result per item', async () => {
    const [owner, member, other] = [await newUser(), await newUser(), await newUser()];
    const group = await groupWith(owner, member);
    const strangers = await groupWith(other);
    const [a, b] = [await addTextItem(owner), await addTextItem(owner)];
    const theirs = await addTextItem(other);
    const missing = '0'.repeat(32);
    const res = await batch('shareItems', owner, {
      items: [a, b, theirs, missing].join(','),
      groups: `${group},${strangers}`,
      org: 'true',
    });
    expect(res.json).toEqual({
      results: [
        { itemId: a, success: true, notSharedWith: [strangers] },
        { itemId: b, success: true, notSharedWith: [strangers] },
        {
          itemId: theirs,
          success: false,
          notSharedWith: [],
          error: { code: 400, message: 'Item does not exist or is inaccessible.' },
        },
        {
          itemId: missing,
          success: false,
          notSharedWith: [],
          error: { code: 400, message: 'Item does not exist or is inaccessible.' },
        },
      ],
    });
    for (const id of [a, b]) {
      expect((await info(id, owner.token)).json.access).toBe('org');
      expect(await visible(id, member.token)).toBe(true);
    }
    // The other user's item is as it was: private, and unseen by the owner's group.
    expect((await info(theirs, other.token)).json.access).toBe('private');
    expect(await visible(theirs, member.token)).toBe(false);
  });

  it('unshares each item from the groups, naming the groups an item was not in', async () => {
    const [owner, member] = [await newUser(), await newUser()];
    const [g1, g2] = [await groupWith(owner, member), await groupWith(owner)];
    const [a, b] = [await addTextItem(owner), await addTextItem(owner)];
    await share(owner, a, { groups: `${g1},${g2}` });
    await share(owner, b, { groups: g1 });
    const res = await batch('unshareItems', owner, { items: `${a},${b}`, groups: `${g1},${g2}` });
    expect(res.json).toEqual({
      results: [
        { itemId: a, success: true, notUnsharedFrom: [] },
        { itemId: b, success: true, notUnsharedFrom: [g2] },
      ],
    });
    for (const id of [a, b]) {
      expect((await info(id, owner.token)).json.access).toBe('private');
      expect(await visible(id, member.token)).toBe(false);
    }
  });

  it("lets an administrator share a user's items on their behalf, and no one else", async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const id = await addTextItem(owner);
    const refused = await batch('shareItems', owner, { items: id, everyone: 'true' }, other.token);
    expect(refused.json.error.code).toBe(403);
    expect((await info(id, owner.token)).json.access).toBe('private');
    const res = await batch('shareItems', owner, { items: id, everyone: 'true' }, await admin());
    expect(res.json).toEqual({ results: [{ itemId: id, success: true, notSharedWith: [] }] });
    expect(await visible(id)).toBe(true);
  });

  it('refuses a batch without items, or with more than it takes, before changing anything', async () => {
    const owner = await newUser();
    const none = await batch('shareItems', owner, { everyone: 'true' });
    expect(none.json.error).toMatchObject({ code: 400, details: ["'items' is required."] });
    const many = Array.from({ length: 1001 }, (_, i) => i.toString(16).padStart(32, '0')).join(',');
    const tooMany = await batch('unshareItems', owner, { items: many, groups: 'x' });
    expect(tooMany.json.error).toMatchObject({
      code: 400,
      details: ["'items' names 1001 items; one request may name at most 1000."],
    });
  });
});

describe('content/items/{id}/share and unshare (as a group member or administrator)', () => {
  const asMember = (op: 'share' | 'unshare', id: string, user: TestUser, groups: string) =>
    call(`/sharing/rest/content/items/${id}/${op}`, { token: user.token, groups });
  const inGroup = async (group: string, user: TestUser) =>
    (await call('/sharing/rest/search', { token: user.token, q: `group:${group}` })).json.results.map(
      (r: { id: string }) => r.id,
    ) as string[];

  it("lets a group member share another user's org item into the group, as @esri/arcgis-rest-portal does", async () => {
    const [owner, curator, member] = [await newUser(), await newUser(), await newUser()];
    const group = await groupWith(curator, member);
    const id = await addTextItem(owner);
    await share(owner, id, { org: 'true' });
    const authentication = await ArcGISIdentityManager.signIn({
      username: curator.username,
      password: curator.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
    // Not the owner and not an administrator: rest-js posts to content/items/{id}/share.
    const shared = await shareItemWithGroup({ id, groupId: group, owner: owner.username, authentication });
    expect(shared).toEqual({ notSharedWith: [], itemId: id });
    expect(await inGroup(group, member)).toEqual([id]);
    expect((await info(id, owner.token)).json.access).toBe('org');
    // A group the curator does not belong to is refused, and the item stays out of it.
    const foreign = await groupWith(owner);
    expect((await asMember('share', id, curator, foreign)).json).toEqual({
      notSharedWith: [foreign],
      itemId: id,
    });
    expect(await inGroup(foreign, owner)).toEqual([]);
  });

  it("is the owner's share for the item's owner: everyone and org set the sharing level", async () => {
    const [owner, member, other] = [await newUser(), await newUser(), await newUser()];
    const group = await groupWith(owner, member);
    const id = await addTextItem(owner);
    const shareAsOwner = (params: Record<string, string>) =>
      call(`/sharing/rest/content/items/${id}/share`, { token: owner.token, ...params });
    expect((await shareAsOwner({ org: 'true' })).json).toEqual({ notSharedWith: [], itemId: id });
    expect((await info(id, owner.token)).json.access).toBe('org');
    expect(await visible(id, other.token)).toBe(true);
    expect(await visible(id)).toBe(false);
    expect((await shareAsOwner({ everyone: 'true', groups: group })).json).toEqual({
      notSharedWith: [],
      itemId: id,
    });
    expect((await info(id, owner.token)).json.access).toBe('public');
    expect(await visible(id)).toBe(true);
    expect(await inGroup(group, member)).toEqual([id]);
    // everyone=false takes public access away and leaves the organization level.
    await shareAsOwner({ everyone: 'false' });
    expect((await info(id, owner.token)).json.access).toBe('org');
    expect(await visible(id)).toBe(false);
    // Not the owner: the levels stay the owner's to set, the group share is refused for a non-member.
    const notOwned = await addTextItem(owner);
    await share(owner, notOwned, { org: 'true' });
    const byOther = await call(`/sharing/rest/content/items/${notOwned}/share`, {
      token: other.token,
      everyone: 'true',
      groups: group,
    });
    expect(byOther.json).toEqual({ notSharedWith: [group], itemId: notOwned });
    expect((await info(notOwned, owner.token)).json.access).toBe('org');
  });

  it('leaves a group-only item to its owner: no one else shares it into more groups', async () => {
    const [owner, member] = [await newUser(), await newUser()];
    const [shared, other] = [await groupWith(owner, member), await groupWith(member)];
    const id = await addTextItem(owner);
    await share(owner, id, { groups: shared });
    expect((await asMember('share', id, member, other)).json).toEqual({ notSharedWith: [other], itemId: id });
    expect(await inGroup(other, member)).toEqual([]);
    // A private item is not even readable by the member: it looks missing.
    const hidden = await addTextItem(owner);
    expect((await asMember('share', hidden, member, other)).json.error.code).toBe(400);
  });

  it("lets a group owner take another user's item out of the group, and only out of groups they manage", async () => {
    const [owner, curator] = [await newUser(), await newUser()];
    const [managed, notManaged] = [await groupWith(curator, owner), await groupWith(owner, curator)];
    const id = await addTextItem(owner);
    await share(owner, id, { org: 'true', groups: `${managed},${notManaged}` });
    const res = await asMember('unshare', id, curator, `${managed},${notManaged}`);
    expect(res.json).toEqual({ notUnsharedFrom: [notManaged], itemId: id });
    expect(await inGroup(managed, owner)).toEqual([]);
    expect(await inGroup(notManaged, owner)).toEqual([id]);
  });
});
