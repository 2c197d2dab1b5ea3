import { describe, expect, it } from 'vitest';
import { emailDomain, isAllowedEmailDomain, isValidEmail, normalizeEmail } from './email';

/** 'ddd….ddd….ddd….com': two 63-character labels, one of `last` characters, then '.com'. */
const longDomain = (last: number): string => `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(last)}.com`;

describe('isValidEmail', () => {
  it('accepts ordinary addresses', () => {
    for (const e of ['a@b.co', 'jane.doe+pos@shop.example.com', "o'brien@mail.ca", 'x_y-z@sub-domain.example.org']) {
      expect(isValidEmail(e), e).toBe(true);
    }
  });

  it('refuses malformed addresses', () => {
    for (const e of [
      '',
      'plain',
      '@b.co',
      'a@',
      'a@b',
      'a@b.c',
      'a b@c.co',
      'a..b@c.co',
      '.a@c.co',
      'a.@c.co',
      'a@-b.co',
      'a@b-.co',
      'a@b..co',
      'a@b.co ',
      'a@@b.co',
      'a@b.123',
    ]) {
      expect(isValidEmail(e), e).toBe(false);
    }
  });

  it('accepts a 64-character local part and refuses 65', () => {
    expect(isValidEmail(`${'a'.repeat(64)}@example.com`)).toBe(true);
    expect(isValidEmail(`${'a'.repeat(65)}@example.com`)).toBe(false);
  });

  it('accepts 254 characters in all and refuses 255', () => {
    const e254 = `${'a'.repeat(64)}@${longDomain(57)}`;
    const e255 = `${'a'.repeat(64)}@${longDomain(58)}`;
    expect(e254).toHaveLength(254);
    expect(e255).toHaveLength(255);
    expect(isValidEmail(e254)).toBe(true);
    expect(isValidEmail(e255)).toBe(false);
  });

  it('refuses a domain label over 63 characters', () => {
    expect(isValidEmail(`a@${'d'.repeat(64)}.com`)).toBe(false);
    expect(isValidEmail(`a@${'d'.repeat(63)}.com`)).toBe(true);
  });
});

describe('e-mail helpers', () => {
  it('normalises for the agent e-mail check (lower case, trimmed)', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });

  it('checks the configured internal domains exactly', () => {
    const domains = ['pos.example', 'Staff.Example.com'];
    expect(emailDomain('x@POS.example')).toBe('pos.example');
    expect(isAllowedEmailDomain('x@POS.example', domains)).toBe(true);
    expect(isAllowedEmailDomain('x@staff.example.com', domains)).toBe(true);
    expect(isAllowedEmailDomain('x@evil.pos.example', domains)).toBe(false);
    expect(isAllowedEmailDomain('x@pos.example.evil', domains)).toBe(false);
    expect(isAllowedEmailDomain('no-at-sign', domains)).toBe(false);
  });
});
