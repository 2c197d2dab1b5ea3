import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { AppConfig } from '../config';
import { AppError } from '../http/errors';

/*
 * Bank account numbers at rest (decision 059): AES-256-GCM with a 96-bit random IV and the 128-bit tag, bound to
 * the customer by the additional data. Stored as 'v1:<iv>:<tag>:<ciphertext>' (base64url). The key is
 * DATA_ENCRYPTION_KEY; without it a fixed development key is used, and refused when NODE_ENV=production.
 * Demo rows hold 'demo:<last4>', which is not a ciphertext (decision 016) and is never decrypted.
 */

/** The development key: public by design, so data encrypted with it is not protected. */
const DEVELOPMENT_KEY = createHash('sha256').update('pos-backoffice development data key (not secret)').digest();

export function dataEncryptionKey(config: Pick<AppConfig, 'env' | 'dataEncryptionKey'>): Buffer {
  if (config.dataEncryptionKey) return Buffer.from(config.dataEncryptionKey, 'hex');
  if (config.env === 'production') {
    throw new AppError(
      'unavailable',
      'Bank accounts cannot be stored: DATA_ENCRYPTION_KEY is not configured on the server.',
    );
  }
  return DEVELOPMENT_KEY;
}

const aadFor = (customerId: number) => Buffer.from(`payment_instrument:customer:${customerId}`);

export function encryptAccountNumber(key: Buffer, customerId: number, accountNumber: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aadFor(customerId));
  const ct = Buffer.concat([cipher.update(accountNumber, 'utf8'), cipher.final()]);
  return `v1:${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ct.toString('base64url')}`;
}

/** The account number back (the billing issue's collection needs it); throws for demo placeholders and tampering. */
export function decryptAccountNumber(key: Buffer, customerId: number, stored: string): string {
  const m = /^v1:([A-Za-z0-9_-]+):([A-Za-z0-9_-]+):([A-Za-z0-9_-]+)$/.exec(stored);
  if (!m) throw new Error('not an encrypted account number (a demo placeholder or another format)');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(m[1]!, 'base64url'));
  decipher.setAAD(aadFor(customerId));
  decipher.setAuthTag(Buffer.from(m[2]!, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(m[3]!, 'base64url')), decipher.final()]).toString('utf8');
}

/** A keyed MAC of an account number (for request hashes): equal numbers give equal MACs, and it does not reveal one. */
export function accountNumberMac(key: Buffer, accountNumber: string): string {
  return createHmac('sha256', key).update(`account-number:${accountNumber}`).digest('hex');
}
