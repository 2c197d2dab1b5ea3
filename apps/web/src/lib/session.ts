import { useSyncExternalStore } from 'react';
import { readItem, removeItem, writeItem } from './storage';

/**
 * The signed-in session (spec §3 "Session info", §4 "Session").
 *
 * Kept in memory and in sessionStorage; when the in-memory copy is missing (a reload), it is restored
 * from sessionStorage. Subscribable, so the header re-renders when it changes.
 */
export interface SessionInfo {
  readonly token: string;
  readonly name: string;
  readonly email: string;
  readonly agentID: string | null;
  readonly role: string;
  readonly account_manager: string | null;
  readonly additional_privileges: readonly string[];
}

/** The sessionStorage keys this module owns. Spec §3 names the flags; `sessionInfo` holds SessionInfo. */
export const STORAGE_KEYS = {
  sessionInfo: 'sessionInfo',
  isLoggedIn: 'isLoggedIn',
  role: 'role',
  lastActive: 'lastactive',
  createDistributorOrders: 'create_distributor_orders',
  searchOrdersEdit: 'search_orders_edit',
  customerFeaturesLimited: 'customer_features_limited',
  /** Set from `GET /api/auth/validate/{token}` → `info.maketoken`: a distributor ("make token") session. */
  distributorToken: 'distributor_token',
  /** The URL the route guard recorded before sending the user to /login (sign-in rule 1 reads it). */
  returnUrl: 'returnUrl',
  /** The order status the order list last showed in this tab (§3: "the current order status is also kept there"). */
  currentOrderStatus: 'currentOrderStatus',
} as const;

/** Boolean flags stored as the strings 'true' / 'false' (spec §4 sign-out sets them to 'false'). */
export type SessionFlag =
  'create_distributor_orders' | 'search_orders_edit' | 'customer_features_limited' | 'distributor_token';

/*
 * The stored session is read with a small hand-written check, not zod: this module is in the entry chunk, which
 * loads zod nowhere else (issue 13: the first route's JS; docs/decisions/110). It is the app's own storage
 * format, not an API contract. Lenient like the rest of the restore: a missing or wrong-kind field becomes its
 * empty value; only a missing token (or no object at all) means no session.
 */
const textOr = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
const optionalText = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null;

function storedSession(value: unknown): SessionInfo | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.token !== 'string' || v.token === '') return null;
  const privileges = v.additional_privileges;
  return {
    token: v.token,
    name: textOr(v.name, ''),
    email: textOr(v.email, ''),
    agentID: optionalText(v.agentID),
    role: textOr(v.role, ''),
    account_manager: optionalText(v.account_manager),
    additional_privileges:
      Array.isArray(privileges) && privileges.every((p) => typeof p === 'string') ? (privileges as string[]) : [],
  };
}

let current: SessionInfo | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function restore(): SessionInfo | null {
  const raw = readItem(STORAGE_KEYS.sessionInfo);
  if (!raw) return null;
  try {
    return storedSession(JSON.parse(raw));
  } catch {
    return null;
  }
}

/** The session, from memory or else restored from sessionStorage; null when signed out. */
export function getSession(): SessionInfo | null {
  current ??= restore();
  return current;
}

export function getToken(): string | null {
  return getSession()?.token ?? null;
}

/** Store a new session (after sign-in): memory, sessionStorage, isLoggedIn 'true' and role. */
export function setSession(info: SessionInfo): void {
  current = info;
  writeItem(STORAGE_KEYS.sessionInfo, JSON.stringify(info));
  writeItem(STORAGE_KEYS.isLoggedIn, 'true');
  writeItem(STORAGE_KEYS.role, info.role);
  notify();
}

/**
 * Forget the session token (spec §8: any 403, failed validation, sign-out): drops the session info from
 * memory and storage, sets isLoggedIn 'false' and removes the distributor-token flag. Permission flags
 * are left to the caller (sign-out sets them to 'false').
 */
export function clearToken(): void {
  current = null;
  removeItem(STORAGE_KEYS.sessionInfo);
  writeItem(STORAGE_KEYS.isLoggedIn, 'false');
  removeItem(STORAGE_KEYS.distributorToken);
  removeItem(STORAGE_KEYS.currentOrderStatus);
  notify();
}

export function isLoggedIn(): boolean {
  return readItem(STORAGE_KEYS.isLoggedIn) === 'true';
}

export function getRole(): string | null {
  return readItem(STORAGE_KEYS.role);
}

/** Last recorded user activity, a millisecond timestamp (spec §4 inactivity). */
export function getLastActive(): number | null {
  const raw = readItem(STORAGE_KEYS.lastActive);
  if (raw === null) return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

export function setLastActive(epochMs: number): void {
  writeItem(STORAGE_KEYS.lastActive, String(epochMs));
}

/** A stored boolean flag: true / false, or null when it was never set (or removed). */
export function getFlag(flag: SessionFlag): boolean | null {
  const raw = readItem(flag);
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return null;
}

export function setFlag(flag: SessionFlag, value: boolean): void {
  writeItem(flag, value ? 'true' : 'false');
  notify();
}

export function removeFlag(flag: SessionFlag): void {
  removeItem(flag);
  notify();
}

export function isDistributorToken(): boolean {
  return getFlag(STORAGE_KEYS.distributorToken) === true;
}

/** The URL the guard saved when it sent the user to /login (a path with its query, e.g. '/neworder?zoholeadid=7'). */
export function getReturnUrl(): string | null {
  return readItem(STORAGE_KEYS.returnUrl);
}

export function setReturnUrl(url: string): void {
  writeItem(STORAGE_KEYS.returnUrl, url);
}

/** The order status the order list last showed in this tab ('' = any status); null when none was kept. */
export function getCurrentOrderStatus(): string | null {
  return readItem(STORAGE_KEYS.currentOrderStatus);
}

export function setCurrentOrderStatus(status: string): void {
  writeItem(STORAGE_KEYS.currentOrderStatus, status);
}

export function clearReturnUrl(): void {
  removeItem(STORAGE_KEYS.returnUrl);
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export interface SessionSnapshot {
  readonly session: SessionInfo | null;
  readonly token: string | null;
  readonly isDistributorToken: boolean;
}

let snapshot: SessionSnapshot = { session: null, token: null, isDistributorToken: false };

function getSnapshot(): SessionSnapshot {
  const session = getSession();
  const distributor = isDistributorToken();
  if (snapshot.session !== session || snapshot.isDistributorToken !== distributor) {
    snapshot = { session, token: session?.token ?? null, isDistributorToken: distributor };
  }
  return snapshot;
}

/** The session for components; re-renders on sign-in, sign-out and flag changes. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribeSession, getSnapshot, getSnapshot);
}

/** Tests only: forget the in-memory copy, as a page reload would. */
export function resetSessionMemoryForTests(): void {
  current = null;
  notify();
}
