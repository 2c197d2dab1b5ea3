import { useRef } from 'react';
import { isApiError } from './api';

/** A random UUID v4; `crypto.randomUUID` needs a secure context, `getRandomValues` does not. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function' && globalThis.isSecureContext !== false) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Idempotency keys for money actions (decision 066): one key per user action (e.g. 'void:17'), kept while
 * the outcome is unknown — a lost connection or a server error — so pressing the button again repeats the
 * same request and the server answers it once. A success, or a definite refusal (4xx: nothing was done),
 * forgets the key; the next attempt is a new action.
 */
export function useIdempotencyKeys() {
  const keys = useRef(new Map<string, string>());
  return {
    /** The key of `action`, created on first use. Call it in event handlers, not during render. */
    keyFor(action: string): string {
      let key = keys.current.get(action);
      if (!key) {
        key = newIdempotencyKey();
        keys.current.set(action, key);
      }
      return key;
    },
    /** After the call: keep the key only when the outcome is unknown. True when it was kept. */
    settle(action: string, error?: unknown): boolean {
      const unknownOutcome =
        error !== undefined &&
        (!isApiError(error) || error.status === 0 || error.status >= 500 || error.code === 'idempotency_key_in_flight');
      if (!unknownOutcome) keys.current.delete(action);
      return unknownOutcome;
    },
  };
}
