/**
 * Who may share into a group: its members, except that a view-only group (isViewOnly) takes items
 * only from its owner and its group administrators; administrators of the organization always may.
 */
import { isAdmin, type Principal } from './roles.js';

export type MemberType = 'owner' | 'admin' | 'member';

export function canShareToGroup(
  group: { isViewOnly: boolean },
  caller: Principal,
  memberType: MemberType | undefined,
): boolean {
  if (isAdmin(caller)) return true;
  if (!memberType) return false;
  return !group.isViewOnly || memberType === 'owner' || memberType === 'admin';
}

/** Public groups to anyone, org groups to signed-in users, others to their members and administrators. */
export function canSeeGroup(
  group: { access: string },
  viewer: Principal | undefined,
  memberType: MemberType | undefined,
): boolean {
  if (group.access === 'public') return true;
  if (!viewer || viewer.disabled) return false;
  return group.access === 'org' || memberType !== undefined || isAdmin(viewer);
}

/**
 * Changing a group (update, delete, reassign) takes its owner or an administrator of the organization;
 * managing its members (`members`) also lets its group administrators.
 */
export function canManageGroup(
  viewer: Principal,
  memberType: MemberType | undefined,
  what: 'group' | 'members',
): boolean {
  return isAdmin(viewer) || memberType === 'owner' || (what === 'members' && memberType === 'admin');
}
