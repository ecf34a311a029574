import { describe, expect, it } from 'vitest';
import { call } from '../support/portal-client.js';
import { addTextItem, newUser, type TestUser, unique } from './portal-helpers.js';

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
