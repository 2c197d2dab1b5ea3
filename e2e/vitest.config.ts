import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./support/global-setup.ts'],
    // Accessibility audits of every page of every journey (decision 136).
    setupFiles: ['./support/a11y-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser and one server: journeys run one file at a time, after the unit projects (vitest.config.ts).
    fileParallelism: false,
    sequence: { groupOrder: 1 },
  },
});
