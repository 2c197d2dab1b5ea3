import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE_NAME = 'pos-backoffice.lock';

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another pos-backoffice process (pid ${pid}). ` +
        'Stop that process first, or point DATA_DIR at another folder. ' +
        '(The embedded database cannot be shared between processes.)',
    );
  }
}

interface LockContent {
  pid: number;
  host: string;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockContent | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockContent;
  } catch {
    return undefined;
  }
}

/**
 * Take the data directory for this process. PGlite has no cross-process locking, so a second process on the
 * same folder would silently diverge; this refuses it. A lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): { file: string; release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const content: LockContent = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(content));
      closeSync(fd);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          const current = readLock(file);
          if (current?.pid === process.pid) unlinkSync(file);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(file);
      const sameHost = !holder || holder.host === os.hostname();
      if (holder && sameHost && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new DataDirInUseError(dataDir, holder.pid);
      }
      if (holder && !sameHost) throw new DataDirInUseError(dataDir, holder.pid);
      // Stale lock from a process that is gone: remove it and try once more.
      unlinkSync(file);
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}
