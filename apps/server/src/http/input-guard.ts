import type { FastifyInstance } from 'fastify';
import { fieldError } from './errors';

const NUL = '\u0000';
const MAX_DEPTH = 64;

/** The path (a.b.0.c) of the first string or key holding a NUL character, or null. */
function nulAt(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (k.includes(NUL)) return at;
    const found = nulAt(v, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * PostgreSQL refuses the NUL character in text (and a NUL reaching a query is a 500): every request whose path
 * parameters, query or JSON body hold one — in a value or a key — is refused here with 400 `validation_failed`
 * naming the field, before any route's own validation (decision 133). Nothing else in the app needs NUL.
 */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const at = nulAt(value, '');
      if (at !== null) throw fieldError(at || part, 'The NUL character (\\u0000) is not allowed in text.');
    }
  });
}
