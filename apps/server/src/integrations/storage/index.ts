import path from 'node:path';
import type { AppConfig } from '../../config';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';
import type { StoragePort } from './storage.port';

export * from './storage.port';

/** Where uploads go: S3-compatible storage when every S3_* variable is set, else DATA_DIR/uploads. */
export function createStorage(config: Pick<AppConfig, 'dataDir' | 's3'>): StoragePort {
  return config.s3 ? createS3Storage(config.s3) : createLocalStorage(uploadsDir(config.dataDir));
}

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}
