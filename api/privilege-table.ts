/**
 * The privilege table as people read it (README "Security" → "Privileges"): one row per operation of
 * ROUTE_RULES, one column per kind of caller. A unit test keeps the README's copy equal to this.
 */
import { privilegesOf } from '../lib/access/roles.js';
import { type CallerRule, type ResourceRule, ROUTE_RULES, type RouteRule } from './privileges.js';

export const COLUMNS = [
  'anonymous',
  'org_user',
  'org_publisher',
  'org_admin',
  'owner',
  'group member',
  'other user',
] as const;

type Kind = 'anonymous' | 'org_user' | 'org_publisher' | 'org_admin';

/** Whether a caller of this kind passes the rule: yes, no, or own (only on their own path). */
function callerCell(rules: readonly CallerRule[], kind: Kind): string {
  let cell = 'yes';
  for (const r of rules) {
    if (r === 'anyone') continue;
    if (kind === 'anonymous') return 'no';
    if (r === 'admin' && kind !== 'org_admin') return 'no';
    if ((r === 'selfOrAdmin' && kind !== 'org_admin') || r === 'self') cell = 'own';
    if (typeof r === 'object') {
      const wanted = 'privilege' in r ? [r.privilege] : r.anyPrivilege;
      if (!wanted.some((p) => privilegesOf(kind).includes(p))) return 'no';
    }
  }
  return cell;
}

/** Owner, group member and other user: what the handler's resource rule grants each. */
const RESOURCE: Record<ResourceRule, [string, string, string]> = {
  'item:read': ['yes', 'if shared with the group', 'if org or public'],
  'item:change': ['yes', 'no', 'no'],
  'service:read': ['yes', 'if shared with the group', 'if org or public'],
  'service:edit': ['yes', 'if readable, as the layer allows', 'if readable, as the layer allows'],
  'service:change': ['yes', 'no', 'no'],
  'group:see': ['yes', 'yes', 'if org or public group'],
  'group:manage': ['yes', 'group admins', 'no'],
  'group:own': ['yes', 'no', 'no'],
  'job:owner': ['yes', 'no', 'no'],
  'user:self': ['self', 'no', 'no'],
  relationship: ['yes', 'if both items readable', 'if both items readable'],
  listing: ['theirs', 'shared with the group', 'org and public'],
};

const READS = new Set<ResourceRule>(['item:read', 'service:read', 'service:edit', 'group:see', 'listing']);

export function privilegeRow(rule: RouteRule): string[] {
  const kinds: Kind[] = ['anonymous', 'org_user', 'org_publisher', 'org_admin'];
  const callers = kinds.map((k) => {
    const cell = callerCell(rule.caller, k);
    if (cell === 'yes' && k === 'anonymous' && rule.resource && READS.has(rule.resource))
      return 'public only';
    if (cell === 'yes' && k === 'anonymous' && rule.resource === 'user:self') return 'password change';
    return cell;
  });
  const resource = rule.resource ? RESOURCE[rule.resource] : ['–', '–', '–'];
  return [rule.operation, ...callers, ...resource];
}

/** The Markdown table, one line per operation, its columns padded as the formatter pads them. */
export function privilegeTableMarkdown(rules: readonly RouteRule[] = ROUTE_RULES): string {
  const rows = [['operation', ...COLUMNS], ...rules.map(privilegeRow)];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n');
}
