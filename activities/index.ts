// Every activity group, built from real dependencies passed in by the worker.
import { createGazetteerGeocoder } from './publish/gazetteer-geocoder.js';
import { createPublishActivities } from './publish/publish-activities.js';
import type { PublishDeps } from './publish/publish-deps.js';
import { createSelfCheckActivities, type SelfCheckDeps } from './self-check.js';

export type ActivityDeps = SelfCheckDeps & Partial<Pick<PublishDeps, 'geocoder'>>;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSelfCheckActivities(deps),
    ...createPublishActivities({ ...deps, geocoder: deps.geocoder ?? createGazetteerGeocoder() }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
