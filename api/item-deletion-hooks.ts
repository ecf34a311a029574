/**
 * What deleting an item takes with it beyond its objects and row, in order: a hosted feature service's
 * tables and jobs, a tile service's cache. The entry point passes these to the app in `AppDeps`.
 */
import type { ItemDeletionHook } from './portal/item-removal.js';
import { deleteHostedService } from './publish/service-deletion.js';
import { deleteTileService } from './services/map-server-deletion.js';

export const ITEM_DELETION_HOOKS: readonly ItemDeletionHook[] = [deleteHostedService, deleteTileService];
