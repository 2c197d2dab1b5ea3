import { describe, expect, it } from 'vitest';
import { makeSession } from '../test/factories';
import {
  clearToken,
  getFlag,
  getLastActive,
  getRole,
  getSession,
  getToken,
  isDistributorToken,
  isLoggedIn,
  removeFlag,
  resetSessionMemoryForTests,
  setFlag,
  setLastActive,
  setSession,
  STORAGE_KEYS,
} from './session';

describe('session store', () => {
  it('restores the session from sessionStorage when the in-memory one is missing', () => {
    const info = makeSession({ token: 'restored', agentID: '12' });
    window.sessionStorage.setItem(STORAGE_KEYS.sessionInfo, JSON.stringify(info));

    expect(getSession()).toEqual(info);
    expect(getToken()).toBe('restored');
  });

  it('survives a reload: memory gone, storage kept', () => {
    setSession(makeSession({ token: 'kept', role: 'AR Team' }));
    resetSessionMemoryForTests();
    expect(getToken()).toBe('kept');
    expect(isLoggedIn()).toBe(true);
    expect(getRole()).toBe('AR Team');
  });

  it('ignores unreadable stored session info', () => {
    window.sessionStorage.setItem(STORAGE_KEYS.sessionInfo, '{not json');
    expect(getSession()).toBeNull();
    window.sessionStorage.setItem(STORAGE_KEYS.sessionInfo, JSON.stringify({ name: 'no token' }));
    expect(getSession()).toBeNull();
  });

  it('restores a stored session whose fields are missing or of the wrong kind, with their empty values', () => {
    window.sessionStorage.setItem(
      STORAGE_KEYS.sessionInfo,
      JSON.stringify({
        token: 't-1',
        name: 7,
        role: 'Sales',
        agentID: 42,
        account_manager: { name: 'x' },
        additional_privileges: ['receipts', 3],
        extra: 'dropped',
      }),
    );
    expect(getSession()).toEqual({
      token: 't-1',
      name: '',
      email: '',
      agentID: '42',
      role: 'Sales',
      account_manager: null,
      additional_privileges: [],
    });
    resetSessionMemoryForTests();
    window.sessionStorage.setItem(STORAGE_KEYS.sessionInfo, JSON.stringify({ token: '', name: 'empty token' }));
    expect(getSession()).toBeNull();
    window.sessionStorage.setItem(STORAGE_KEYS.sessionInfo, JSON.stringify(['t-1']));
    expect(getSession()).toBeNull();
  });

  it('clearToken forgets the session in memory and storage', () => {
    setSession(makeSession());
    setFlag('distributor_token', true);
    clearToken();
    expect(getToken()).toBeNull();
    expect(window.sessionStorage.getItem(STORAGE_KEYS.sessionInfo)).toBeNull();
    expect(isLoggedIn()).toBe(false);
    expect(isDistributorToken()).toBe(false);
  });

  it('keeps boolean flags as the strings true/false', () => {
    expect(getFlag('search_orders_edit')).toBeNull();
    setFlag('search_orders_edit', true);
    expect(window.sessionStorage.getItem('search_orders_edit')).toBe('true');
    setFlag('create_distributor_orders', false);
    expect(getFlag('create_distributor_orders')).toBe(false);
    removeFlag('search_orders_edit');
    expect(getFlag('search_orders_edit')).toBeNull();
  });

  it('stores the last-active time in milliseconds', () => {
    expect(getLastActive()).toBeNull();
    setLastActive(1_700_000_000_123);
    expect(window.sessionStorage.getItem('lastactive')).toBe('1700000000123');
    expect(getLastActive()).toBe(1_700_000_000_123);
  });
});
