/**
 * The process's one boundary lookup (country and US state polygons, ≈ 1 s and 40 MB to build): built on
 * first use and shared by every lookup publish the process runs, like the locator service.
 */
import type { BoundaryLookup } from '../lib/geocode/boundary-lookup.js';
import { createPackageBoundaryLookup } from './gazetteer/package-locator.js';

let shared: Promise<BoundaryLookup> | undefined;

export function sharedBoundaryLookup(): Promise<BoundaryLookup> {
  shared ??= createPackageBoundaryLookup().catch((e) => {
    // A failed build is tried again by the next caller rather than cached.
    shared = undefined;
    throw e;
  });
  return shared;
}
