import { defineConfig } from 'vitest/config';

// Two projects: unit tests of pure code (no servers), and integration tests that talk to the real
// PostgreSQL, Temporal and MinIO servers started once by the integration global setup.
export default defineConfig({
  test: {
    teardownTimeout: 60_000,
    projects: [
      {
        test: {
          name: 'unit',
          // Unit tests first, then the integration project with its own worker limit.
          sequence: { groupOrder: 0 },
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
    ],
  },
});
