/** Group properties from createGroup and update parameters, validated. */
import type { NewGroup } from '../../db/repositories/groups.js';
import { badRequest } from '../../lib/errors.js';
import type { RequestParams } from '../params.js';

const ACCESS = ['private', 'org', 'public'];
const SORT_FIELDS = ['title', 'owner', 'avgrating', 'numviews', 'created', 'modified'];

export const commaList = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const bool = (raw: string) => raw.toLowerCase() === 'true';

export function readGroupProperties(params: RequestParams): Partial<NewGroup> {
  const group: Partial<NewGroup> = {};
  const problems: string[] = [];
  const title = params.get('title');
  if (title !== undefined) {
    if (title.trim() === '' || title.length > 250) problems.push("'title' must be 1 to 250 characters.");
    group.title = title.trim();
  }
  for (const [name, max] of [
    ['description', 32_000],
    ['snippet', 250],
    ['phone', 250],
  ] as const) {
    const value = params.get(name);
    if (value === undefined) continue;
    if (value.length > max) problems.push(`'${name}' must be at most ${max} characters.`);
    group[name] = value;
  }
  if (params.has('tags')) group.tags = commaList(params.get('tags'));
  const access = params.get('access')?.toLowerCase();
  if (access !== undefined) {
    if (!ACCESS.includes(access)) problems.push(`'access' must be one of ${ACCESS.join(', ')}.`);
    group.access = access;
  }
  const sortField = params.get('sortField');
  if (sortField !== undefined) {
    if (!SORT_FIELDS.includes(sortField.toLowerCase())) {
      problems.push(`'sortField' must be one of ${SORT_FIELDS.join(', ')}.`);
    }
    group.sortField = sortField;
  }
  const sortOrder = params.get('sortOrder')?.toLowerCase();
  if (sortOrder !== undefined) {
    if (sortOrder !== 'asc' && sortOrder !== 'desc') problems.push("'sortOrder' must be asc or desc.");
    group.sortOrder = sortOrder;
  }
  const invitation = params.get('isInvitationOnly');
  if (invitation !== undefined) group.isInvitationOnly = bool(invitation);
  const viewOnly = params.get('isViewOnly');
  if (viewOnly !== undefined) group.isViewOnly = bool(viewOnly);
  if (problems.length > 0) throw badRequest('Invalid or missing input parameters.', problems);
  return group;
}
