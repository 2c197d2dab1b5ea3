import { useEffect, useRef, useState } from 'react';

export interface DebouncedBusyOptions {
  /** Busy must last this long before the indicator shows (short work never flashes it). */
  readonly debounceMs: number;
  /** Once shown, the indicator stays at least this long (no flicker). */
  readonly minimumMs: number;
}

/**
 * Turns a raw "busy" signal into "show the spinner": shows after `debounceMs` of continuous busy,
 * then stays for at least `minimumMs` (spec §9: debounce 50 ms, minimum 300 ms).
 */
export function useDebouncedBusy(busy: boolean, { debounceMs, minimumMs }: DebouncedBusyOptions): boolean {
  const [visible, setVisible] = useState(false);
  const shownAt = useRef(0);

  useEffect(() => {
    if (busy && !visible) {
      const timer = setTimeout(() => {
        shownAt.current = Date.now();
        setVisible(true);
      }, debounceMs);
      return () => clearTimeout(timer);
    }
    if (!busy && visible) {
      const remaining = Math.max(0, minimumMs - (Date.now() - shownAt.current));
      const timer = setTimeout(() => setVisible(false), remaining);
      return () => clearTimeout(timer);
    }
    return undefined;
  }, [busy, visible, debounceMs, minimumMs]);

  return visible;
}
