import { describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { addTextItem, admin, newUser, unique, withDatabase } from './portal-helpers.js';

const removeUsers = async (users: string, token?: string) =>
  call('/sharing/rest/portals/self/removeUsers', { token: token ?? (await admin()), users });

describe('removeUsers', () => {
  it('removes users who own nothing, with their tokens and memberships', async () => {
    const [a, b, owner] = [await newUser(), await newUser(), await newUser()];
    const group = await call('/sharing/rest/community/createGroup', {
      token: owner.token,
      title: unique('g '),
    });
    await call(`/sharing/rest/community/groups/${group.json.group.id}/addUsers`, {
      token: owner.token,
      users: a.username,
    });
    const res = await removeUsers(`${a.username},${b.username}`);
    expect(res.json).toEqual({ notRemoved: [] });
    await expect(signIn(a.username, a.password)).rejects.toThrow(/Invalid username or password/);
    const left = await withDatabase(
      (sql) => sql`select
        (select count(*)::int from tokens where username in (${a.username}, ${b.username})) as tokens,
        (select count(*)::int from group_members where username = ${a.username}) as members`,
    );
    expect(left[0]).toEqual({ tokens: 0, members: 0 });
    const stale = await call('/sharing/rest/community/self', { token: a.token });
    expect(stale.json.error.code).toBe(498);
  });

  it('lists in notRemoved the users who own content or groups, do not exist, or are the caller', async () => {
    const [withItem, withGroup, free] = [await newUser(), await newUser(), await newUser()];
    await addTextItem(withItem);
    await call('/sharing/rest/community/createGroup', { token: withGroup.token, title: unique('g ') });
    const res = await removeUsers(
      `${withItem.username}, ${withGroup.username},nobody-at-all,${stack().admin.username},${free.username}`,
    );
    expect(res.json.notRemoved).toEqual([
      withItem.username,
      withGroup.username,
      'nobody-at-all',
      stack().admin.username,
    ]);
    expect(await signIn(withItem.username, withItem.password)).toBeTruthy();
    await expect(signIn(free.username, free.password)).rejects.toThrow(/Invalid username/);
  });

  it('removes the relationships the user created', async () => {
    const [owner, linker] = [await newUser(), await newUser()];
    const map = await addTextItem(owner);
    const service = await addTextItem(owner, { type: 'Feature Service' });
    for (const id of [map, service]) {
      await call(`/sharing/rest/content/users/${owner.username}/items/${id}/share`, {
        token: owner.token,
        org: 'true',
      });
    }
    const params = { originItemId: map, destinationItemId: service, relationshipType: 'Map2Service' };
    const added = await call(`/sharing/rest/content/users/${linker.username}/addRelationship`, {
      token: linker.token,
      ...params,
    });
    expect(added.json.success).toBe(true);
    expect((await removeUsers(linker.username)).json.notRemoved).toEqual([]);
    const related = await call(`/sharing/rest/content/items/${map}/relatedItems`, {
      token: owner.token,
      direction: 'forward',
    });
    expect(related.json.total).toBe(0);
  });

  it('is refused to a non-administrator and removes nobody', async () => {
    const [caller, target] = [await newUser(), await newUser()];
    const res = await removeUsers(target.username, caller.token);
    expect(res.json.error.code).toBe(403);
    expect(await signIn(target.username, target.password)).toBeTruthy();
  });

  it('accepts the lower-case path removeusers', async () => {
    const u = await newUser();
    const res = await call('/sharing/rest/portals/self/removeusers', {
      token: await admin(),
      users: u.username,
    });
    expect(res.json.notRemoved).toEqual([]);
  });

  it("requires 'users'", async () => {
    const res = await removeUsers('');
    expect(res.json.error.details[0]).toMatch(/users/);
  });
});
