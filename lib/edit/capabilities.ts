/**
 * A layer's `capabilities` string ("Query,Create,Update,Delete,Editing") read as the operations it
 * allows. `Editing` alone allows all three edit kinds, as on ArcGIS; listing any of Create, Update or
 * Delete narrows it to those.
 */
import { GeoError } from '../errors.js';

export type EditKind = 'create' | 'update' | 'delete';

export interface Capabilities {
  query: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
  text: string;
}

export function parseCapabilities(text: string): Capabilities {
  const names = new Set(
    text
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  const specific = names.has('create') || names.has('update') || names.has('delete');
  const editing = names.has('editing');
  return {
    query: names.has('query'),
    create: names.has('create') || (editing && !specific),
    update: names.has('update') || (editing && !specific),
    delete: names.has('delete') || (editing && !specific),
    text,
  };
}

export const allowsEditing = (c: Capabilities): boolean => c.create || c.update || c.delete;

export const operationNotSupported = (capabilities: string): GeoError =>
  new GeoError({
    code: 400,
    message: 'Requested operation is not supported by this service.',
    details: [`The layer's capabilities are '${capabilities}'.`],
  });

/** Refuses the whole request when the layer does not offer one of the edit kinds it contains. */
export function requireEditCapabilities(c: Capabilities, kinds: Iterable<EditKind>): void {
  for (const kind of kinds) if (!c[kind]) throw operationNotSupported(c.text);
}
