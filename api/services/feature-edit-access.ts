/**
 * Kept for soap/handlers/layer-query.ts, which is being reworked on another branch: the ownership rules
 * live in lib/access/ownership.ts and their lookups in db/repositories/access.ts. New code imports those.
 */
export { ownFeaturesWhere, serviceEditor as editorOf } from '../../db/repositories/access.js';
export { narrowedWhere } from '../../lib/access/ownership.js';
