import { describe, expect, it } from 'vitest';
import { call, stack } from '../support/portal-client.js';
import { admin, newUser, unique } from './portal-helpers.js';

async function adminGroup(): Promise<string> {
  const res = await call('/sharing/rest/community/createGroup', {
    token: await admin(),
    title: unique('collab '),
  });
  return res.json.group.id as string;
}

const create = async (params: Record<string, string>, token?: string) =>
  call('/sharing/rest/portals/self/createCollaboration', { token: token ?? (await admin()), ...params });

const valid = async () => ({
  name: unique('Rivers '),
  description: 'Sharing river data',
  workspaceName: 'Main',
  workspaceDescription: 'First workspace',
  portalGroupId: await adminGroup(),
  accessMode: 'sendAndReceive',
  config: '',
});

describe('createCollaboration', () => {
  it('creates the collaboration and its workspace linked to the group', async () => {
    const params = await valid();
    const res = await create(params);
    expect(res.json.success).toBe(true);
    expect(res.json.collaboration).toMatchObject({
      name: params.name,
      description: 'Sharing river data',
      config: { ownerUsername: stack().admin.username },
    });
    expect(res.json.collaboration.id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.json.collaborationWorkspaceId).toMatch(/^[0-9a-f]{32}$/);
    const id = res.json.collaboration.id;
    const one = await call(`/sharing/rest/portals/self/collaborations/${id}`, { token: await admin() });
    expect(one.json.name).toBe(params.name);
    const all = await call('/sharing/rest/portals/self/collaborations', { token: await admin(), num: '100' });
    expect(all.json.collaborations.map((c: { id: string }) => c.id)).toContain(id);
    const ws = await call(`/sharing/rest/portals/self/collaborations/${id}/workspaces`, {
      token: await admin(),
    });
    expect(ws.json.workspaces).toHaveLength(1);
    expect(ws.json.workspaces[0]).toMatchObject({
      id: res.json.collaborationWorkspaceId,
      name: 'Main',
      description: 'First workspace',
      collaborationId: id,
      participantGroupLinks: [{ portalGroupId: params.portalGroupId, accessMode: 'sendAndReceive' }],
    });
  });

  it('takes the host contact from the acting administrator when it is omitted', async () => {
    const res = await create(await valid());
    const id = res.json.collaboration.id;
    const parts = await call(`/sharing/rest/portals/self/collaborations/${id}/participants`, {
      token: await admin(),
    });
    expect(parts.json.participants[0].config).toEqual({
      contactFirstname: 'Portal',
      contactLastname: 'Administrator',
      contactEmailAddress: `${stack().admin.username}@localhost`,
    });
  });

  it('keeps the host contact given', async () => {
    const res = await create({
      ...(await valid()),
      hostContactFirstname: 'Rosa',
      hostContactLastname: 'Parks',
      hostContactEmailAddress: 'rosa@example.com',
    });
    const id = res.json.collaboration.id;
    const parts = await call(`/sharing/rest/portals/self/collaborations/${id}/participants`, {
      token: await admin(),
    });
    expect(parts.json.participants[0].config.contactEmailAddress).toBe('rosa@example.com');
  });

  it.each([
    ['name', 101],
    ['description', 251],
    ['workspaceName', 101],
    ['workspaceDescription', 251],
  ])('refuses a %s longer than its limit', async (field, length) => {
    const res = await create({ ...(await valid()), [field]: 'x'.repeat(length) });
    expect(res.json.error.details).toEqual([`'${field}' must be at most ${length - 1} characters.`]);
  });

  it('accepts names and descriptions exactly at their limits', async () => {
    const res = await create({
      ...(await valid()),
      name: unique('n').padEnd(100, 'x'),
      description: 'd'.repeat(250),
      workspaceName: 'w'.repeat(100),
      workspaceDescription: 'v'.repeat(250),
    });
    expect(res.json.success).toBe(true);
  });

  it('refuses an accessMode outside send, receive and sendAndReceive', async () => {
    const res = await create({ ...(await valid()), accessMode: 'broadcast' });
    expect(res.json.error.details[0]).toMatch(/accessMode/);
  });

  it('refuses a portalGroupId that is not a group of this portal', async () => {
    const res = await create({ ...(await valid()), portalGroupId: '0'.repeat(32) });
    expect(res.json.error.details[0]).toMatch(/is not a group of this portal/);
  });

  it('is refused to a non-administrator', async () => {
    const u = await newUser('org_publisher');
    const res = await create(await valid(), u.token);
    expect(res.json.error.code).toBe(403);
  });

  it('is refused on another portal id', async () => {
    const res = await call('/sharing/rest/portals/someOtherOrg/createCollaboration', {
      token: await admin(),
      ...(await valid()),
    });
    expect(res.json.error.code).toBe(403);
  });

  it('reports an unknown collaboration', async () => {
    const res = await call(`/sharing/rest/portals/self/collaborations/${'f'.repeat(32)}`, {
      token: await admin(),
    });
    expect(res.json.error.message).toBe('Collaboration not found.');
  });
});
