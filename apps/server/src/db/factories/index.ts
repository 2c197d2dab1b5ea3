/**
 * Factories: `createX(db, overrides)` inserts one valid row with sensible defaults, creating its parents
 * when they are not given, and returns the inserted row. `xValues(rng, …)` builds the insert values without
 * writing, for batch inserts (the demo seed). Shared by server tests, browser tests and the demo seed.
 * `db` may be an open transaction.
 */
export * from './sequence';
export * from './random';
export * from './address';
export * from './agents';
export * from './access';
export * from './merchants';
export * from './terminals';
export * from './catalogue-data';
export * from './catalogue';
export * from './bundles';
export * from './billing';
export * from './orders';
export * from './taxes';
