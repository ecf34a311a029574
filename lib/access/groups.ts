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
