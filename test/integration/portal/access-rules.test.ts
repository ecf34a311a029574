/**
 * The item rules of issue 13: composite deletes reach only destinations the caller could delete,
 * view-only groups take shares from their managers only, and a group-only item is not readable through
 * analyze or publish by someone outside its groups.
 */
import { describe, expect, it } from 'vitest';
import { upload } from '../publish/publish-client.js';
import { call } from '../support/portal-client.js';
import {
  addTextItem,
  callMultipart,
  fixtureBytes,
  newUser,
  type TestUser,
  unique,
} from './portal-helpers.js';

const relate = (user: TestUser, originItemId: string, destinationItemId: string, relationshipType: string) =>
  call(`/sharing/rest/content/users/${user.username}/addRelationship`, {
    token: user.token,
    originItemId,
    destinationItemId,
    relationshipType,
  });
const remove = (user: TestUser, id: string) =>
  call(`/sharing/rest/content/users/${user.username}/items/${id}/delete`, { token: user.token });
const exists = async (id: string, token: string) =>
  (await call(`/sharing/rest/content/items/${id}`, { token }, { method: 'GET' })).json.id === id;
const share = (owner: TestUser, id: string, params: Record<string, string>, token = owner.token) =>
  call(`/sharing/rest/content/users/${owner.username}/items/${id}/share`, { token, ...params });

async function group(owner: TestUser, fields: Record<string, string>, ...members: TestUser[]) {
  const g = await call('/sharing/rest/community/createGroup', {
    token: owner.token,
    title: unique('g '),
    ...fields,
  });
  const id = g.json.group.id as string;
  if (members.length > 0) {
    const added = await call(`/sharing/rest/community/groups/${id}/addUsers`, {
      token: owner.token,
      users: members.map((m) => m.username).join(','),
    });
    expect(added.json.notAdded).toEqual([]);
  }
  return id;
}

describe('composite delete', () => {
  it("keeps another owner's destination and drops only the relationship", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const app = await addTextItem(a, { type: 'Web Mapping Application', text: '{}' });
    const code = await addTextItem(b, { type: 'Code Attachment', text: 'x' });
    await share(b, code, { org: 'true' });
    expect((await relate(a, app, code, 'WMA2Code')).json.success).toBe(true);
    expect((await remove(a, app)).json.success).toBe(true);
    expect(await exists(code, b.token)).toBe(true);
    const related = await call(`/sharing/rest/content/items/${code}/relatedItems`, {
      token: b.token,
      relationshipType: 'WMA2Code',
      direction: 'reverse',
    });
    expect(related.json.relatedItems).toEqual([]);
  });

  it('keeps a delete-protected destination of the caller', async () => {
    const a = await newUser();
    const map = await addTextItem(a);
    const pdf = await addTextItem(a, { type: 'PDF' });
    await call(`/sharing/rest/content/users/${a.username}/items/${pdf}/protect`, { token: a.token });
    expect((await relate(a, map, pdf, 'Item2Attachment')).json.success).toBe(true);
    expect((await remove(a, map)).json.success).toBe(true);
    expect(await exists(pdf, a.token)).toBe(true);
    expect(await exists(map, a.token)).toBe(false);
  });

  it('deletes an unprotected destination the caller owns', async () => {
    const a = await newUser();
    const map = await addTextItem(a);
    const pdf = await addTextItem(a, { type: 'PDF' });
    await relate(a, map, pdf, 'Item2Attachment');
    await remove(a, map);
    expect(await exists(pdf, a.token)).toBe(false);
  });
});

describe('view-only groups', () => {
  it('refuse shares from plain members and take them from the owner', async () => {
    const [owner, member] = [await newUser(), await newUser()];
    const id = await group(owner, { isViewOnly: 'true' }, member);
    const mine = await addTextItem(member);
    expect((await share(member, mine, { groups: id })).json.notSharedWith).toEqual([id]);
    const theirs = await addTextItem(owner);
    expect((await share(owner, theirs, { groups: id })).json.notSharedWith).toEqual([]);
    expect(await exists(theirs, member.token)).toBe(true);
  });

  it('take shares from any member when not view-only', async () => {
    const [owner, member] = [await newUser(), await newUser()];
    const id = await group(owner, {}, member);
    const mine = await addTextItem(member);
    expect((await share(member, mine, { groups: id })).json.notSharedWith).toEqual([]);
  });
});

describe('group-only items through analyze and publish', () => {
  it('are readable by group members only', async () => {
    const [owner, member, outsider] = [
      await newUser('org_publisher'),
      await newUser('org_publisher'),
      await newUser('org_publisher'),
    ];
    const added = await callMultipart(
      `/sharing/rest/content/users/${owner.username}/addItem`,
      { token: owner.token, type: 'CSV', title: unique('csv ') },
      { name: 'places.csv', bytes: fixtureBytes('places.csv') },
    );
    const itemid = added.json.id as string;
    const groupId = await group(owner, {}, member);
    expect((await share(owner, itemid, { groups: groupId })).json.notSharedWith).toEqual([]);

    const analyze = (user: TestUser) =>
      upload('/sharing/rest/content/features/analyze', { token: user.token, itemid, filetype: 'csv' });
    expect((await analyze(outsider)).error.code).toBe(403);
    expect((await analyze(member)).publishParameters).toBeDefined();

    const published = await upload(`/sharing/rest/content/users/${outsider.username}/publish`, {
      token: outsider.token,
      itemid,
      filetype: 'csv',
      publishParameters: JSON.stringify({ name: unique('stolen'), locationType: 'none' }),
    });
    expect(published.error.code).toBe(403);
  });
});

describe('role names', () => {
  it('reads account_publisher as org_publisher, with the publisher privileges', async () => {
    const publisher = await newUser('account_publisher');
    const me = await call('/sharing/rest/community/self', { token: publisher.token });
    expect(me.json.role).toBe('org_publisher');
    expect(me.json.privileges).toContain('portal:publisher:publishFeatures');
  });
});
