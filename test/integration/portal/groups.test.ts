import { describe, expect, it } from 'vitest';
import { call } from '../support/portal-client.js';
import { admin, newUser, type TestUser, unique } from './portal-helpers.js';

const createGroup = async (owner: TestUser, fields: Record<string, string> = {}) => {
  const res = await call('/sharing/rest/community/createGroup', {
    token: owner.token,
    title: unique('group '),
    ...fields,
  });
  if (!res.json.success) throw new Error(res.text);
  return res.json.group as { id: string; title: string };
};
const groupInfo = (id: string, token: string) =>
  call(`/sharing/rest/community/groups/${id}`, { token }, { method: 'GET' });
const members = (id: string, token: string) => call(`/sharing/rest/community/groups/${id}/users`, { token });

describe('createGroup and group info', () => {
  it('creates a group owned by the caller with the properties sent', async () => {
    const u = await newUser();
    const res = await call('/sharing/rest/community/createGroup', {
      token: u.token,
      title: unique('Rivers '),
      tags: 'water,maps',
      access: 'org',
      snippet: 'River data',
    });
    expect(res.json.success).toBe(true);
    const info = await groupInfo(res.json.group.id, u.token);
    expect(info.json).toMatchObject({
      owner: u.username,
      tags: ['water', 'maps'],
      access: 'org',
      snippet: 'River data',
      userMembership: { username: u.username, memberType: 'owner' },
    });
  });

  it('lists the group with the owner membership in community/self', async () => {
    const u = await newUser();
    const g = await createGroup(u);
    const self = await call('/sharing/rest/community/self', { token: u.token });
    expect(self.json.groups).toHaveLength(1);
    expect(self.json.groups[0]).toMatchObject({ id: g.id, userMembership: { memberType: 'owner' } });
  });

  it('refuses a title another group has', async () => {
    const u = await newUser();
    const g = await createGroup(u);
    const res = await call('/sharing/rest/community/createGroup', {
      token: u.token,
      title: g.title.toUpperCase(),
    });
    expect(res.json.error.details[0]).toMatch(/already exists/);
  });

  it('refuses an unknown access value', async () => {
    const u = await newUser();
    const res = await call('/sharing/rest/community/createGroup', {
      token: u.token,
      title: unique('g'),
      access: 'world',
    });
    expect(res.json.error.details[0]).toMatch(/access/);
  });

  it('requires a title', async () => {
    const u = await newUser();
    const res = await call('/sharing/rest/community/createGroup', { token: u.token });
    expect(res.json.error.details[0]).toMatch(/title/);
  });

  it('hides a private group from non-members', async () => {
    const a = await newUser();
    const b = await newUser();
    const g = await createGroup(a);
    expect((await groupInfo(g.id, b.token)).json.error.messageCode).toBe('COM_0003');
    expect((await groupInfo(g.id, await admin())).json.id).toBe(g.id);
  });
});

describe('group members', () => {
  it('adds members and admins and lists them', async () => {
    const [owner, m, a] = [await newUser(), await newUser(), await newUser()];
    const g = await createGroup(owner);
    const res = await call(`/sharing/rest/community/groups/${g.id}/addUsers`, {
      token: owner.token,
      users: `${m.username},nobody-at-all`,
      admins: a.username,
    });
    expect(res.json.notAdded).toEqual(['nobody-at-all']);
    const list = await members(g.id, owner.token);
    expect(list.json).toEqual({
      owner: owner.username,
      admins: [owner.username, a.username],
      users: [m.username],
    });
  });

  it('lets a group admin add users but not an ordinary member', async () => {
    const [owner, a, m, x] = [await newUser(), await newUser(), await newUser(), await newUser()];
    const g = await createGroup(owner);
    await call(`/sharing/rest/community/groups/${g.id}/addUsers`, {
      token: owner.token,
      admins: a.username,
      users: m.username,
    });
    const byAdmin = await call(`/sharing/rest/community/groups/${g.id}/addUsers`, {
      token: a.token,
      users: x.username,
    });
    expect(byAdmin.json.notAdded).toEqual([]);
    const byMember = await call(`/sharing/rest/community/groups/${g.id}/removeUsers`, {
      token: m.token,
      users: x.username,
    });
    expect(byMember.json.error.code).toBe(403);
    expect((await members(g.id, owner.token)).json.users).toContain(x.username);
  });

  it('removes members but never the owner', async () => {
    const [owner, m] = [await newUser(), await newUser()];
    const g = await createGroup(owner);
    await call(`/sharing/rest/community/groups/${g.id}/addUsers`, { token: owner.token, users: m.username });
    const res = await call(`/sharing/rest/community/groups/${g.id}/removeUsers`, {
      token: owner.token,
      users: `${m.username},${owner.username}`,
    });
    expect(res.json.notRemoved).toEqual([owner.username]);
    expect((await members(g.id, owner.token)).json.users).toEqual([]);
  });
});

describe('update, reassign and delete', () => {
  it('updates the properties sent', async () => {
    const u = await newUser();
    const g = await createGroup(u, { description: 'before' });
    const res = await call(`/sharing/rest/community/groups/${g.id}/update`, {
      token: u.token,
      snippet: 'after',
    });
    expect(res.json).toEqual({ success: true, groupId: g.id });
    const info = await groupInfo(g.id, u.token);
    expect(info.json).toMatchObject({ snippet: 'after', description: 'before' });
  });

  it('refuses an update by a member who does not own the group', async () => {
    const [owner, m] = [await newUser(), await newUser()];
    const g = await createGroup(owner);
    await call(`/sharing/rest/community/groups/${g.id}/addUsers`, { token: owner.token, users: m.username });
    const res = await call(`/sharing/rest/community/groups/${g.id}/update`, { token: m.token, snippet: 'x' });
    expect(res.json.error.code).toBe(403);
  });

  it('reassigns ownership, keeping the previous owner as a member', async () => {
    const [owner, next] = [await newUser(), await newUser()];
    const g = await createGroup(owner);
    const res = await call(`/sharing/rest/community/groups/${g.id}/reassign`, {
      token: owner.token,
      targetUsername: next.username,
    });
    expect(res.json.success).toBe(true);
    const list = await members(g.id, next.token);
    expect(list.json).toEqual({ owner: next.username, admins: [next.username], users: [owner.username] });
  });

  it('refuses to reassign to an unknown user', async () => {
    const owner = await newUser();
    const g = await createGroup(owner);
    const res = await call(`/sharing/rest/community/groups/${g.id}/reassign`, {
      token: owner.token,
      targetUsername: 'nobody-at-all',
    });
    expect(res.json.error.message).toBe('User not found.');
  });

  it('deletes the group', async () => {
    const owner = await newUser();
    const g = await createGroup(owner);
    const res = await call(`/sharing/rest/community/groups/${g.id}/delete`, { token: owner.token });
    expect(res.json).toEqual({ success: true, groupId: g.id });
    expect((await groupInfo(g.id, owner.token)).json.error.messageCode).toBe('COM_0003');
  });

  it('refuses deletion by a non-owner', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const g = await createGroup(owner, { access: 'org' });
    const res = await call(`/sharing/rest/community/groups/${g.id}/delete`, { token: other.token });
    expect(res.json.error.code).toBe(403);
    expect((await groupInfo(g.id, owner.token)).json.id).toBe(g.id);
  });
});
