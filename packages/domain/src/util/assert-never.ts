/**
 * Exhaustiveness guard for switches over code unions (CONVENTIONS §11): a new code that is not
 * handled makes the call site fail to compile, and an impossible value at runtime throws.
 */
export function assertNever(value: never, message?: string): never {
  throw new Error(message ?? `Unhandled value: ${JSON.stringify(value)}`);
}
