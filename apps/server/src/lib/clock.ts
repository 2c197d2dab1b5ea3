/** The clock is injected so expiry, billing and grace periods are tested by moving time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export function fixedClock(start: Date | string): Clock & { set(d: Date | string): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(d) {
      current = new Date(d);
    },
    advance(ms) {
      current = new Date(current.getTime() + ms);
    },
  };
}
