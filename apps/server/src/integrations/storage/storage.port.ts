import type { Readable } from 'node:stream';

/** A stored object read back. */
export interface StoredObject {
  body: Readable;
  /** Bytes, when the store says. */
  size: number | null;
}

/**
 * Where uploaded files live: the local folder DATA_DIR/uploads (default) or an S3-compatible bucket
 * (S3_* set). Keys are made by the server only (see `isStorageKey`); the store never sees a user's file name.
 */
export interface StoragePort {
  readonly kind: 'local' | 's3';
  /** Store the bytes under `key` (replacing nothing: keys are random). Visible under `key` only once complete. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object, or null when there is none under `key`. */
  get(key: string): Promise<StoredObject | null>;
  /** Remove the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
}

/** 'checkImage/2026/11/3f9a…c2b.png': segments of [A-Za-z0-9_-], one optional '.ext' on the last; no '..'. */
const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*(\.[a-z0-9]{1,8})?$/;

export function isStorageKey(key: string): boolean {
  return key.length <= 256 && KEY.test(key);
}

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
}
