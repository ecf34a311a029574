/**
 * Relationship sharing rules: compositeShare (sharing or unsharing the origin does the same to the
 * destination) and copyOriginShareOnAdd (a new destination takes its origin's sharing).
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/portal-client.js';
import { addTextItem, newUser, type TestUser, unique } from './portal-helpers.js';

const relate = (user: TestUser, originItemId: string, destinationItemId: string, relationshipType: string) =>
  call(`/sharing/rest/content/users/${user.username}/addRelationship`, {
    token: user.token,
    originItemId,
    destinationItemId,
    relationshipType,
  });
const share = (user: TestUser, id: string, params: Record<string, string>) =>
  call(`/sharing/rest/content/users/${user.username}/items/${id}/share`, { token: user.token, ...params });
const unshare = (user: TestUser, id: string, groups: string) =>
  call(`/sharing/rest/content/users/${user.username}/items/${id}/unshare`, { token: user.token, groups });
const access = async (user: TestUser, id: string) =>
  (await call(`/sharing/rest/content/items/${id}`, { token: user.token }, { method: 'GET' })).json.access;

async function group(owner: TestUser): Promise<string> {
  const g = await call('/sharing/rest/community/createGroup', {
    token: owner.token,
    title: unique('composite '),
  });
  return g.json.group.id as string;
}

describe('compositeShare', () => {
  it('shares and unshares a web map application configuration with its web map', async () => {
    const u = await newUser();
    const map = await addTextItem(u);
    const config = await addTextItem(u, { type: 'Application Configuration', text: '{}' });
    expect((await relate(u, map, config, 'Map2AppConfig')).json).toEqual({ success: true });
    const g = await group(u);
    await share(u, map, { org: 'true', groups: g });
    expect(await access(u, map)).toBe('org');
    expect(await access(u, config)).toBe('org');
    await share(u, map, { everyone: 'true' });
    expect(await access(u, config)).toBe('public');
    await share(u, map, { everyone: 'false', org: 'false' });
    expect(await access(u, config)).toBe('shared');
    await unshare(u, map, g);
    expect(await access(u, map)).toBe('private');
    expect(await access(u, config)).toBe('private');
  });

  it('leaves destinations of relationships without the rule alone', async () => {
    const u = await newUser();
    const map = await addTextItem(u);
    const service = await addTextItem(u, { type: 'Feature Service', text: '' });
    await relate(u, map, service, 'Map2Service');
    await share(u, map, { everyone: 'true' });
    expect(await access(u, map)).toBe('public');
    expect(await access(u, service)).toBe('private');
  });
});

describe('copyOriginShareOnAdd', () => {
  it('gives a code attachment its web application’s sharing when the relationship is added', async () => {
    const [u, member, outsider] = [await newUser(), await newUser(), await newUser()];
    const app = await addTextItem(u, { type: 'Web Mapping Application', text: '{}' });
    const g = await group(u);
    await call(`/sharing/rest/community/groups/${g}/addUsers`, { token: u.token, users: member.username });
    await share(u, app, { groups: g });
    const code = await addTextItem(u, { type: 'Code Attachment', text: 'print(1)' });
    expect(await access(u, code)).toBe('private');
    expect(await access(member, code)).toBeUndefined();
    expect((await relate(u, app, code, 'WMA2Code')).json).toEqual({ success: true });
    expect(await access(u, code)).toBe('shared');
    expect(await access(member, code)).toBe('shared');
    expect(await access(outsider, code)).toBeUndefined();
  });
});
