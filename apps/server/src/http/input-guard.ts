import type { FastifyInstance } from 'fastify';
import { fieldError } from './errors';

const NUL = '\u0000';
const MAX_DEPTH = 64;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** PostgreSQL's `integer`: every id and version column. */
export const INT4_MAX = 2_147_483_647;
/** A field naming a record (id, customer_id, storeId, invoice_ids) or its version: an `integer` column. */
const INT4_FIELD = /^(id|version)$|_id$|[a-z]Id$|_ids$|[a-z]Ids$/;

/** A string PostgreSQL takes: no NUL, and well-formed UTF-16 (a lone surrogate is refused by jsonb and mangled in text). */
const storable = (s: string) => !s.includes(NUL) && !LONE_SURROGATE.test(s);

type Problem = { at: string; message: string };
const UNSTORABLE =
  'This text holds a character that cannot be stored (NUL, or half of a surrogate pair). Remove it and try again.';

/** The first string or key PostgreSQL would refuse, or id/version number past `integer`, with its path (a.b.0.c). */
function problemAt(value: unknown, path: string, field: string, depth = 0): Problem | null {
  if (typeof value === 'string') return storable(value) ? null : { at: path, message: UNSTORABLE };
  if (typeof value === 'number')
    return INT4_FIELD.test(field) && Math.abs(value) > INT4_MAX
      ? { at: path, message: 'This id or version is out of range: no such record exists.' }
      : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  const inArray = Array.isArray(value);
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (!storable(k)) return { at, message: UNSTORABLE };
    const found = problemAt(v, at, inArray ? field : k, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Input PostgreSQL would refuse, refused first with 400 `validation_failed` naming the field (decision 133) — each was
 * a 500 the contract fuzzing found:
 * - the NUL character (refused in text) and a lone surrogate (half of an emoji, `\ud800`: refused in jsonb, such as the
 *   audit log's copy of a body), in any value or key of the path parameters, query or JSON body;
 * - a number past PostgreSQL's `integer` in a body field naming a record or its version (`id`, `…_id`, `…Id`,
 *   `…_ids`, `version`): no such record can exist. (Money is `bigint` and bounded by each contract.)
 * What gets past this and past a contract is still answered 400 by the error handler (a PostgreSQL data exception).
 */
export function refuseUnstorableInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const found = problemAt(value, '', '');
      if (found !== null) throw fieldError(found.at || part, found.message);
    }
  });
}
