import { describe, expect, it } from 'vitest';
import { passwordProblems } from './password';

describe('passwordProblems', () => {
  it('accepts a long password with a letter and a digit', () => {
    expect(passwordProblems('correct horse 42 battery')).toEqual([]);
  });
  it('refuses 11 characters and accepts 12', () => {
    expect(passwordProblems('abcdefghij1')).toContain('too_short');
    expect(passwordProblems('abcdefghijk1')).toEqual([]);
  });
  it('needs a letter and a digit', () => {
    expect(passwordProblems('123456789012')).toEqual(['needs_letter']);
    expect(passwordProblems('abcdefghijkl')).toEqual(['needs_digit']);
  });
  it('refuses a password built on the e-mail name', () => {
    expect(passwordProblems('distributor-2026', 'distributor@example.com')).toEqual(['contains_email']);
  });
});
