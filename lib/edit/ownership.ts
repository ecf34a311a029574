/**
 * Who may touch which feature under editorTrackingInfo's ownership access control. The service item's
 * owner and the organization's administrators are never restricted; everyone else may update, delete
 * or see a feature someone else created only when the matching allowOthersTo… flag says so. Anonymous
 * callers (no name; the features they create have an empty creator) also need allowAnonymousTo….
 */
import type { EditorTrackingInfo } from './editor-tracking.js';

export interface Editor {
  /** Empty for an anonymous caller. */
  username: string;
  /** The item's owner or an administrator. */
  privileged: boolean;
}

export type FeatureAccess = 'query' | 'update' | 'delete';

/** null: no restriction; otherwise decides from a feature's creator whether `editor` may touch it. */
export function ownershipRule(
  info: EditorTrackingInfo,
  editor: Editor,
  access: FeatureAccess,
): ((creator: string | null) => boolean) | null {
  if (editor.privileged) return null;
  const anonymous = editor.username === '';
  if (anonymous && access === 'update' && info.enableOwnershipAccessControl && !info.allowAnonymousToUpdate)
    return () => false;
  if (anonymous && access === 'delete' && info.enableOwnershipAccessControl && !info.allowAnonymousToDelete)
    return () => false;
  if (!info.enableEditorTracking || !info.enableOwnershipAccessControl) return null;
  const others =
    access === 'query'
      ? info.allowOthersToQuery
      : access === 'update'
        ? info.allowOthersToUpdate
        : info.allowOthersToDelete;
  if (others) return null;
  return (creator) => (creator ?? '') === editor.username;
}

/** The per-feature error when ownership refuses an edit. */
export const notOwnerDescription = (access: FeatureAccess, objectId: number): string =>
  `You do not have permission to ${access} feature ${objectId}: it was created by someone else.`;
