/**
 * Safe access to `window.sessionStorage`: storage can be disabled or full (private modes, quotas);
 * the app then keeps working from memory instead of throwing.
 */
export function readItem(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // storage unavailable: memory only
  }
}

export function removeItem(key: string): void {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // storage unavailable: nothing stored
  }
}
