import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  createAppUpdater,
  SKIP_WAITING,
  useUpdateCountdown,
  watchForUpdates,
  type RegistrationLike,
  type WorkerLike,
} from './app-update';

class FakeWorker extends EventTarget implements WorkerLike {
  state = 'installing';
  readonly messages: unknown[] = [];
  /** What the real worker does on 'SKIP_WAITING' (public/ngsw-worker.js): activate. */
  activateOnSkipWaiting = true;
  postMessage(message: unknown) {
    this.messages.push(message);
    if (message === SKIP_WAITING && this.activateOnSkipWaiting) {
      queueMicrotask(() => this.moveTo('activated'));
    }
  }
  moveTo(state: string) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget implements RegistrationLike {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  active: FakeWorker | null = null;
  update = vi.fn(() => Promise.resolve());
  /** The browser found a new script and starts installing it. */
  found(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('watchForUpdates', () => {
  it('the first install is not an update', async () => {
    const registration = new FakeRegistration();
    const onActivated = vi.fn();
    watchForUpdates(registration, onActivated);
    const first = new FakeWorker();
    registration.found(first);
    first.moveTo('installed');
    first.moveTo('activated');
    await flush();
    expect(first.messages).toEqual([]);
    expect(onActivated).not.toHaveBeenCalled();
  });

  it('a new version installed while an old one is active is activated (SKIP_WAITING), then reported', async () => {
    const registration = new FakeRegistration();
    registration.active = new FakeWorker();
    registration.active.state = 'activated';
    const onActivated = vi.fn();
    watchForUpdates(registration, onActivated);

    const next = new FakeWorker();
    next.activateOnSkipWaiting = false;
    registration.found(next);
    next.moveTo('installed');
    expect(next.messages).toEqual([SKIP_WAITING]);
    expect(onActivated).not.toHaveBeenCalled();
    next.moveTo('activating');
    next.moveTo('activated');
    expect(onActivated).toHaveBeenCalledTimes(1);
  });

  it('a version already waiting when the page starts is activated too', async () => {
    const registration = new FakeRegistration();
    registration.active = new FakeWorker();
    registration.waiting = new FakeWorker();
    registration.waiting.state = 'installed';
    const onActivated = vi.fn();
    watchForUpdates(registration, onActivated);
    await flush();
    expect(onActivated).toHaveBeenCalledTimes(1);
  });

  it('stops following when asked', async () => {
    const registration = new FakeRegistration();
    registration.active = new FakeWorker();
    const onActivated = vi.fn();
    const stop = watchForUpdates(registration, onActivated);
    stop();
    const next = new FakeWorker();
    registration.found(next);
    next.moveTo('installed');
    await flush();
    expect(next.messages).toEqual([]);
    expect(onActivated).not.toHaveBeenCalled();
  });
});

describe('createAppUpdater', () => {
  it("logs 'Not Enabled' without service-worker support", async () => {
    const log = vi.fn();
    await createAppUpdater({ log }).start(undefined);
    expect(log).toHaveBeenCalledWith('Not Enabled');
  });

  it('registers /ngsw-worker.js and, on a new version, counts down from 10 to 0 and reloads', async () => {
    vi.useFakeTimers();
    const registration = new FakeRegistration();
    registration.active = new FakeWorker();
    const register = vi.fn(() => Promise.resolve(registration as unknown as ServiceWorkerRegistration));
    const reload = vi.fn();
    const updater = createAppUpdater({ reload, log: vi.fn() });
    await updater.start({ register } as unknown as ServiceWorkerContainer);
    expect(register).toHaveBeenCalledWith('/ngsw-worker.js');

    const { result } = renderHook(() => useUpdateCountdown(updater));
    expect(result.current).toBeNull();

    const next = new FakeWorker();
    registration.found(next);
    await act(async () => {
      next.moveTo('installed');
      await Promise.resolve();
    });
    expect(result.current).toBe(10);

    const seen: (number | null)[] = [];
    for (let i = 0; i < 10; i += 1) {
      act(() => {
        vi.advanceTimersByTime(1000);
      });
      seen.push(result.current);
    }
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('checks for a new version at start, periodically and when the tab becomes visible', async () => {
    vi.useFakeTimers();
    const registration = new FakeRegistration();
    const register = vi.fn(() => Promise.resolve(registration as unknown as ServiceWorkerRegistration));
    await createAppUpdater({ reload: vi.fn(), checkEveryMs: 60_000 }).start({
      register,
    } as unknown as ServiceWorkerContainer);
    expect(registration.update).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(registration.update).toHaveBeenCalledTimes(2);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(registration.update).toHaveBeenCalledTimes(3);
  });

  it('a failed registration is logged, not thrown', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const register = vi.fn(() => Promise.reject(new Error('blocked')));
    await createAppUpdater({ reload: vi.fn() }).start({ register } as unknown as ServiceWorkerContainer);
    expect(error).toHaveBeenCalledWith('The service worker could not be registered', expect.any(Error));
  });
});
