import { SERVICE_WORKER_SCRIPT, UPDATE_RELOAD_COUNTDOWN_S } from '@pos/domain';
import { useSyncExternalStore } from 'react';

/**
 * App update (spec §4, §8, §9): the service worker `/ngsw-worker.js` is registered; when a new version of
 * it is installed while an older one is active, it is activated (message 'SKIP_WAITING'), then the banner
 * 'New update is available.' counts 'page will be reloaded in N sec' from 10 to 0 and the page reloads.
 * Without service-worker support the check logs 'Not Enabled'.
 */

/** The message the worker answers by activating itself (public/ngsw-worker.js). */
export const SKIP_WAITING = 'SKIP_WAITING';
/** How often an open tab asks whether a new version was deployed (also at start and on returning to the tab). */
export const UPDATE_CHECK_EVERY_MS = 30 * 60 * 1000;

type Listen = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/** The parts of a ServiceWorker the update check uses. */
export interface WorkerLike extends Listen {
  readonly state: string;
  postMessage(message: unknown): void;
}

/** The parts of a ServiceWorkerRegistration the update check uses (tests pass a fake). */
export interface RegistrationLike extends Listen {
  readonly installing: WorkerLike | null;
  readonly waiting: WorkerLike | null;
  readonly active: WorkerLike | null;
  update(): Promise<unknown>;
}

/**
 * Follows `registration` and calls `onActivated` once a new version — a worker installed while an older
 * one was active — has been told to take over and is active. The very first install is not an update.
 * Returns a function that stops following.
 */
export function watchForUpdates(registration: RegistrationLike, onActivated: () => void): () => void {
  const stops: (() => void)[] = [];
  let reported = false;

  const on = (target: Listen, type: string, handler: () => void) => {
    target.addEventListener(type, handler);
    stops.push(() => target.removeEventListener(type, handler));
  };

  const activate = (worker: WorkerLike) => {
    const check = () => {
      if (worker.state === 'activated' && !reported) {
        reported = true;
        onActivated();
      }
    };
    on(worker, 'statechange', check);
    worker.postMessage(SKIP_WAITING);
    check();
  };

  const follow = (worker: WorkerLike) => {
    let seen = false;
    const check = () => {
      if (seen || worker.state !== 'installed') return;
      seen = true;
      if (registration.active && registration.active !== worker) activate(worker);
    };
    on(worker, 'statechange', check);
    check();
  };

  if (registration.waiting && registration.active) activate(registration.waiting);
  if (registration.installing) follow(registration.installing);
  on(registration, 'updatefound', () => {
    if (registration.installing) follow(registration.installing);
  });
  return () => stops.forEach((stop) => stop());
}

export interface AppUpdaterOptions {
  readonly reload?: () => void;
  readonly log?: (message: string) => void;
  readonly checkEveryMs?: number;
}

export interface AppUpdater {
  /** Register the worker and watch for new versions; without `container` (no support) log 'Not Enabled'. */
  start(container: Pick<ServiceWorkerContainer, 'register'> | undefined): Promise<void>;
  /** A new version is active: show the banner and count down to the reload. */
  beginCountdown(): void;
  /** Seconds before the reload while the banner shows; null without an update. */
  getSecondsLeft(): number | null;
  subscribe(listener: () => void): () => void;
}

export function createAppUpdater({
  reload = () => window.location.reload(),
  log = (message) => console.log(message),
  checkEveryMs = UPDATE_CHECK_EVERY_MS,
}: AppUpdaterOptions = {}): AppUpdater {
  let secondsLeft: number | null = null;
  const listeners = new Set<() => void>();
  const set = (value: number | null) => {
    secondsLeft = value;
    for (const listener of listeners) listener();
  };

  const beginCountdown = () => {
    if (secondsLeft !== null) return;
    set(UPDATE_RELOAD_COUNTDOWN_S);
    const timer = setInterval(() => {
      const next = Math.max(0, (secondsLeft ?? 0) - 1);
      set(next);
      if (next === 0) {
        clearInterval(timer);
        reload();
      }
    }, 1000);
  };

  const start = async (container: Pick<ServiceWorkerContainer, 'register'> | undefined) => {
    if (!container) {
      log('Not Enabled');
      return;
    }
    let registration: ServiceWorkerRegistration;
    try {
      registration = await container.register(SERVICE_WORKER_SCRIPT);
    } catch (error) {
      console.error('The service worker could not be registered', error);
      return;
    }
    watchForUpdates(registration, beginCountdown);
    const check = () => void registration.update().catch(() => undefined);
    // Opening the app asks at once; an open tab asks again now and then and when it comes back to view.
    check();
    setInterval(check, checkEveryMs);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') check();
    });
  };

  return {
    start,
    beginCountdown,
    getSecondsLeft: () => secondsLeft,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The app's one updater (main.tsx starts it). */
export const appUpdater = createAppUpdater();

/** Seconds before the update reload while the banner shows; null when no update is pending. */
export function useUpdateCountdown(updater: AppUpdater = appUpdater): number | null {
  return useSyncExternalStore(updater.subscribe, updater.getSecondsLeft, updater.getSecondsLeft);
}
