import { describe, expect, it } from 'vitest';
import { licenseStatus } from './license';

describe('licenseStatus', () => {
  const active = (expiresOn: string | null, today: string) =>
    licenseStatus({ storeStatus: 'active', expiresOn, today });
  it('is active through the expiry day, in grace for 37 days, then lapsed', () => {
    expect(active('2026-10-01', '2026-10-01')).toEqual({ status: 'active', graceUntil: '2026-11-07' });
    expect(active('2026-10-01', '2026-10-02').status).toBe('grace');
    expect(active('2026-10-01', '2026-11-07').status).toBe('grace');
    expect(active('2026-10-01', '2026-11-08').status).toBe('expired');
  });
  it('is active without a recorded expiry, and disabled for a store that is not active', () => {
    expect(active(null, '2030-01-01')).toEqual({ status: 'active', graceUntil: null });
    expect(licenseStatus({ storeStatus: 'closed', expiresOn: '2030-01-01', today: '2026-01-01' }).status).toBe(
      'disabled',
    );
  });
});
