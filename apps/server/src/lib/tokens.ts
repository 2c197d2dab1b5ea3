import { createHash, randomBytes } from 'node:crypto';

/** A new secret token: 32 random bytes (256 bits), base64url — 43 URL-safe characters. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
