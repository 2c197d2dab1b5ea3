import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import {
  accountNumberMac,
  dataEncryptionKey,
  decryptAccountNumber,
  encryptAccountNumber,
} from './account-number-cipher';

describe('bank account numbers at rest', () => {
  const key = dataEncryptionKey(loadConfig({ NODE_ENV: 'test', DATA_ENCRYPTION_KEY: 'ab'.repeat(32) }));

  it('DATA_ENCRYPTION_KEY is 64 hex characters; unset → the development key, refused in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_ENCRYPTION_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_ENCRYPTION_KEY: 'short' })).toThrow(
      /DATA_ENCRYPTION_KEY: must be 64 hexadecimal characters/,
    );
    expect(key.toString('hex')).toBe('ab'.repeat(32));
    expect(dataEncryptionKey(loadConfig({ NODE_ENV: 'test' }))).toHaveLength(32);
    expect(() => dataEncryptionKey({ env: 'production', dataEncryptionKey: null })).toThrow(
      /DATA_ENCRYPTION_KEY is not configured/,
    );
  });

  it('encrypts with a fresh IV each time, decrypts only for the same customer and key, refuses demo placeholders', () => {
    const a = encryptAccountNumber(key, 100001, '000123456789');
    const b = encryptAccountNumber(key, 100001, '000123456789');
    expect(a).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(a).not.toBe(b);
    expect(decryptAccountNumber(key, 100001, a)).toBe('000123456789');
    expect(() => decryptAccountNumber(key, 100002, a)).toThrow();
    expect(() => decryptAccountNumber(Buffer.alloc(32, 1), 100001, a)).toThrow();
    expect(() => decryptAccountNumber(key, 100001, 'demo:6789')).toThrow(/not an encrypted account number/);
  });

  it('the MAC used in request hashes is stable and keyed', () => {
    expect(accountNumberMac(key, '55554444')).toBe(accountNumberMac(key, '55554444'));
    expect(accountNumberMac(key, '55554444')).not.toBe(accountNumberMac(Buffer.alloc(32, 1), '55554444'));
    expect(accountNumberMac(key, '55554444')).not.toContain('55554444');
  });
});
