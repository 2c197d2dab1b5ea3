import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Journeys typed key by key (order flow, dialogs) take seconds on a busy 2-core CI machine; 5 s was flaky.
    testTimeout: 15_000,
  },
});
