import os from 'node:os';
import { defineConfig } from 'vitest/config';

/*
 * Every project in one run (`npm test`). Vitest's default is one worker fewer than the machine has cores — on the
 * 2-core CI machine that is ONE file at a time, and the in-process PGlite of a server test uses a single core. So the
 * unit projects (domain, server, web, scripts) run with a worker per core, together, first; the browser journeys
 * (one browser and one server for the whole run, files one at a time) follow alone (sequence.groupOrder), so their
 * timings never compete with a PGlite test (issue 32 item 8).
 */
const WORKERS = Math.max(2, os.availableParallelism());

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      'packages/domain',
      'apps/server',
      'apps/web',
      'e2e',
      // The repository's own scripts (check-imports.mjs).
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'], environment: 'node' } },
    ],
  },
});
