import type { Database } from '../db/client';

/**
 * On SIGINT/SIGTERM (or a call of the returned function): run `stop` once, then close the database and exit;
 * a stop taking longer than `graceMs` exits with 1. Shared by `npm start` (main.ts) and `npm run worker`.
 */
export function exitGracefully(options: {
  graceMs: number;
  database: Database;
  announce: (signal: string) => void;
  stop: () => Promise<unknown>;
}): (signal: string, exitCode?: number) => Promise<void> {
  let stopping = false;
  async function exit(signal: string, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    options.announce(signal);
    const timer = setTimeout(() => process.exit(1), options.graceMs);
    timer.unref();
    try {
      await options.stop();
    } finally {
      await options.database.close();
      process.exit(exitCode);
    }
  }
  process.on('SIGINT', () => void exit('SIGINT'));
  process.on('SIGTERM', () => void exit('SIGTERM'));
  return exit;
}
