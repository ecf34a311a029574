// Every activity group, built from real dependencies passed in by the worker.
import { createSelfCheckActivities, type SelfCheckDeps } from './self-check.js';

export type ActivityDeps = SelfCheckDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSelfCheckActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
