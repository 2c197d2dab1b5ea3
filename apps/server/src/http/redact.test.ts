import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from './redact';

const token = 'q3J9v_Xr2mTz8LpA0sKdYwBe5NhUcFgI7oRjVtWx1yZ';

describe('redactUrl', () => {
  it('redacts the route parameters that carry secrets', () => {
    expect(redactUrl('/api/auth/validate/abc', '/api/auth/validate/:token')).toBe(`/api/auth/validate/${REDACTED}`);
    expect(redactUrl('/api/auth/shortkey/gettoken', '/api/auth/:x/gettoken')).toBe(`/api/auth/${REDACTED}/gettoken`);
  });

  it('redacts token-like segments on routes it does not know', () => {
    expect(redactUrl(`/api/customers/42/${token}/transactions`)).toBe(`/api/customers/42/${REDACTED}/transactions`);
  });

  it('redacts any segment of 64 characters or more, whatever its alphabet', () => {
    expect(redactUrl(`/api/auth/permission/${'A'.repeat(64)}`)).toBe('/api/auth/permission/[redacted]');
    expect(redactUrl(`/api/auth/permission/${'A'.repeat(63)}`)).toBe(`/api/auth/permission/${'A'.repeat(63)}`);
  });

  it('keeps ids, words and short values', () => {
    expect(redactUrl('/api/customers/123456789/customerpaymentplans?storeid=12')).toBe(
      '/api/customers/123456789/customerpaymentplans?storeid=12',
    );
    expect(redactUrl('/api/customers/billingitemcategories')).toBe('/api/customers/billingitemcategories');
  });

  it('redacts secret query values', () => {
    expect(redactUrl(`/x?token=abc&search=joe`)).toBe(`/x?token=${REDACTED}&search=joe`);
    expect(redactUrl(`/x?next=${token}`)).toBe(`/x?next=${REDACTED}`);
  });
});
