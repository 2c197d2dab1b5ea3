import { describe, expect, it, vi } from 'vitest';
import { getFlag, getToken, setFlag, setSession } from '../../../lib/session';
import { jsonResponse, makeSession } from '../../../test/factories';
import { signOut } from './sign-out';

describe('signOut', () => {
  it('releases the session, resets the permission flags and goes to /login', async () => {
    setSession(makeSession({ token: 'tok' }));
    setFlag('search_orders_edit', true);
    setFlag('create_distributor_orders', true);
    setFlag('customer_features_limited', true);
    const fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { info: {} })));
    vi.stubGlobal('fetch', fetchMock);

    await signOut();

    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/auth/logout/tok');
    expect(getToken()).toBeNull();
    expect(getFlag('search_orders_edit')).toBe(false);
    expect(getFlag('create_distributor_orders')).toBe(false);
    expect(getFlag('customer_features_limited')).toBeNull();
    expect(window.location.hash).toBe('#/login');
  });

  it('a distributor goes to /distributor and the page reloads after 10 ms', async () => {
    vi.useFakeTimers();
    setSession(makeSession({ token: 'dist', role: 'Distributor' }));
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { info: { released: true } }))),
    );
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);

    await signOut();

    expect(window.location.hash).toBe('#/distributor');
    expect(getToken()).toBeNull();
    vi.advanceTimersByTime(9);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('sets isLoggedIn to false', async () => {
    setSession(makeSession());
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { info: { released: true } }))),
    );
    await signOut();
    expect(window.sessionStorage.getItem('isLoggedIn')).toBe('false');
  });

  it("logs 'release token failed' and still signs out when the release fails", async () => {
    setSession(makeSession());
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.reject(new TypeError('offline'))),
    );
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    await signOut();

    expect(log).toHaveBeenCalledWith('release token failed', expect.anything());
    expect(getToken()).toBeNull();
    expect(window.location.hash).toBe('#/login');
  });
});
