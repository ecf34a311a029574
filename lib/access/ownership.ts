/**
 * Ownership access control of a hosted layer's features (editorTrackingInfo): which features a caller
 * may see, update or delete, as a where-clause tree over the creator field. The service item's owner and
 * administrators are never restricted (lib/edit/ownership.ts decides per feature; this is the same rule
 * as a filter the query engine applies).
 */
import type { EditorTrackingInfo } from '../edit/editor-tracking.js';
import { type Editor, type FeatureAccess, ownershipRule } from '../edit/ownership.js';
import type { Condition } from '../query/where-ast.js';
import { parseWhere } from '../query/where-parser.js';
import { isAdmin, type Principal, sameUser } from './roles.js';

export type { Editor, FeatureAccess };

/** The caller as an editor of a service whose item `owner` owns: privileged when owner or administrator. */
export function editorOf(owner: string, user: Principal | undefined): Editor {
  if (!user) return { username: '', privileged: false };
  return { username: user.username, privileged: sameUser(user.username, owner) || isAdmin(user) };
}

/**
 * The condition limiting a query (or a delete by where clause) to the editor's own features when the
 * layer's ownership access control keeps others' features from them; null when nothing is kept from
 * them. An anonymous editor's own features are those with an empty creator.
 */
export function ownFeaturesCondition(
  info: EditorTrackingInfo,
  creatorField: string | undefined,
  editor: Editor,
  access: FeatureAccess,
): Condition | null {
  if (!creatorField || !info.enableOwnershipAccessControl) return null;
  if (!ownershipRule(info, editor, access)) return null;
  const field = { type: 'field', name: creatorField } as const;
  if (editor.username !== '') {
    return { type: 'compare', operator: '=', left: field, right: { type: 'string', value: editor.username } };
  }
  return {
    type: 'or',
    operands: [
      { type: 'isNull', negated: false, operand: field },
      { type: 'compare', operator: '=', left: field, right: { type: 'string', value: '' } },
    ],
  };
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * The where text of an ownership condition (the shapes ownFeaturesCondition builds), for the surfaces
 * that pass where clauses on as text; it parses back to the same tree.
 */
export function ownershipWhereText(condition: Condition): string {
  switch (condition.type) {
    case 'or':
      return `(${condition.operands.map(ownershipWhereText).join(' OR ')})`;
    case 'isNull':
      if (condition.operand.type !== 'field') break;
      return `${condition.operand.name} IS ${condition.negated ? 'NOT ' : ''}NULL`;
    case 'compare':
      if (condition.left.type !== 'field' || condition.right.type !== 'string') break;
      return `${condition.left.name} ${condition.operator} ${literal(condition.right.value)}`;
  }
  throw new Error(`ownershipWhereText: unexpected ${condition.type} condition`);
}

/**
 * The client's where clause narrowed to `own`. The clause is parsed alone first, so a clause with
 * unbalanced parentheses (`1=1) OR (1=1`) is refused instead of escaping the brackets around it.
 */
export function narrowedWhere(where: string | undefined, own: string): string {
  if (!where?.trim()) return own;
  parseWhere(where);
  return `(${where}) AND ${own}`;
}
