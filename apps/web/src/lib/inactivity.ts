import {
  HARD_LOGOUT_MS,
  INACTIVITY_TIMEOUT_MS,
  INACTIVITY_WARNING_COUNTDOWN_S,
  LAST_ACTIVE_THROTTLE_MS,
} from '@pos/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getLastActive, setLastActive } from './session';

/** Mouse and key activity (spec §4); wheel and touch count as mouse activity. */
export const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart'] as const;
/** How often the timer looks at the clock. */
export const INACTIVITY_TICK_MS = 1000;

export interface InactivityOptions {
  /** Off without a session and on /login and /distributor (spec §4). */
  readonly enabled: boolean;
  /** Sign the user out. Called once per enabled period. */
  readonly onTimeout: () => void;
}

export interface InactivityState {
  /** While the 'Session Timeout' overlay shows: the seconds left before sign-out; otherwise null. */
  readonly secondsLeft: number | null;
  /** 'Extend my Session': close the overlay and count the user as active now. */
  readonly extend: () => void;
}

/**
 * The inactivity timer of spec §4:
 * - after INACTIVITY_TIMEOUT_MS (1 h) without mouse or key activity the overlay shows, counting down from
 *   INACTIVITY_WARNING_COUNTDOWN_S (50); at 0 the user is signed out unless they extended the session;
 *   activity while the overlay shows does not extend it — only the button does;
 * - when the tab becomes visible, and on every tick, the user is signed out if now − lastactive ≥
 *   HARD_LOGOUT_MS (3,660,000 ms) — this catches a tab whose timers the browser slowed or stopped;
 * - lastactive is written to session storage at most every LAST_ACTIVE_THROTTLE_MS (10 s), and not while
 *   the overlay shows.
 */
export function useInactivity({ enabled, onTimeout }: InactivityOptions): InactivityState {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const onTimeoutRef = useRef(onTimeout);
  const warningSince = useRef<number | null>(null);
  const lastActivity = useRef(0);
  const lastWritten = useRef(0);

  useEffect(() => {
    onTimeoutRef.current = onTimeout;
  }, [onTimeout]);

  useEffect(() => {
    if (!enabled) return undefined;
    let ended = false;

    const hardLogoutDue = (now: number) => {
      const last = getLastActive();
      return last !== null && now - last >= HARD_LOGOUT_MS;
    };
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      warningSince.current = null;
      setSecondsLeft(null);
      onTimeoutRef.current();
    };
    const tick = () => {
      const now = Date.now();
      if (hardLogoutDue(now)) return end();
      if (warningSince.current === null) {
        if (now - lastActivity.current >= INACTIVITY_TIMEOUT_MS) {
          warningSince.current = now;
          setSecondsLeft(INACTIVITY_WARNING_COUNTDOWN_S);
        }
        return undefined;
      }
      const left = INACTIVITY_WARNING_COUNTDOWN_S - Math.floor((now - warningSince.current) / 1000);
      if (left <= 0) return end();
      setSecondsLeft(left);
      return undefined;
    };
    const onActivity = () => {
      if (warningSince.current !== null) return;
      const now = Date.now();
      lastActivity.current = now;
      if (now - lastWritten.current >= LAST_ACTIVE_THROTTLE_MS) {
        setLastActive(now);
        lastWritten.current = now;
      }
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible' && hardLogoutDue(Date.now())) end();
    };

    const start = Date.now();
    lastActivity.current = start;
    warningSince.current = null;
    // A session without a recorded time starts counting now; one left alone too long (an old tab
    // reloaded) keeps its time, so the first tick ends it.
    const stored = getLastActive();
    if (stored === null) setLastActive(start);
    lastWritten.current = stored ?? start;

    const timer = setInterval(tick, INACTIVITY_TICK_MS);
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { passive: true, capture: true });
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      ended = true;
      clearInterval(timer);
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
      document.removeEventListener('visibilitychange', onVisibility);
      warningSince.current = null;
      setSecondsLeft(null);
    };
  }, [enabled]);

  const extend = useCallback(() => {
    const now = Date.now();
    warningSince.current = null;
    lastActivity.current = now;
    lastWritten.current = now;
    setLastActive(now);
    setSecondsLeft(null);
  }, []);

  return { secondsLeft: enabled ? secondsLeft : null, extend };
}
