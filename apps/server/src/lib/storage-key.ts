import { randomBytes } from 'node:crypto';
import { FILE_TYPE_EXTENSIONS, UPLOAD_PUBLIC_ID_BYTES, type FileType, type UploadKind } from '@pos/domain';

/** A fresh storage key: kind/yyyy/mm/<128 random bits>.<ext of the sniffed type>. No user input. */
export function newStorageKey(kind: UploadKind, type: FileType, now: Date): string {
  const yyyy = String(now.getUTCFullYear());
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${kind}/${yyyy}/${mm}/${randomBytes(16).toString('hex')}.${FILE_TYPE_EXTENSIONS[type][0]}`;
}

/** A fresh public id of an upload (decision 140): UPLOAD_PUBLIC_ID_BYTES random bytes, base64url — never guessable. */
export function newUploadPublicId(): string {
  return randomBytes(UPLOAD_PUBLIC_ID_BYTES).toString('base64url');
}
