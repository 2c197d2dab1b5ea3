import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { APP_ERROR_STATUS, AppError, RateLimitedError, type AppErrorCode } from './errors';
import { redactUrl } from './redact';

interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string>; [k: string]: unknown };
}

export function errorBody(
  code: string,
  message: string,
  fields?: Record<string, string>,
  details?: Record<string, unknown>,
): ErrorBody {
  return { error: { code, message, ...(fields && Object.keys(fields).length ? { fields } : {}), ...details } };
}

function send(reply: FastifyReply, status: number, body: ErrorBody) {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Map Fastify's own client errors (bad JSON, too large, wrong content type) onto our codes. */
const FASTIFY_CODES: Record<string, { code: AppErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'invalid_json',
    message: 'The request body is empty but its content type is JSON.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'This content type is not accepted here.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'bad_request', message: 'The request has a wrong Content-Length.' },
};

function fieldKey(context: string | undefined, instancePath: string): string {
  const p = instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (p) return p;
  return context ?? 'request';
}

/**
 * Fastify's router refuses some addresses before any route or hook runs (a path parameter over its length limit, a
 * path that is not valid percent-encoding): the `frameworkErrors` option of the app sends those in our envelope too —
 * without echoing the path, which carries the session token.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return send(reply, 414, errorBody('uri_too_long', 'A part of the address is too long. Check the address.'));
  return send(reply, 400, errorBody('bad_request', 'The address is not valid. Check the address.'));
}

/** The SQLSTATE of a PostgreSQL error (pg's DatabaseError, PGlite's) in an error or its causes (drizzle wraps them). */
function sqlStateOf(err: unknown): { code: string; message: string } | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return { code, message: String((e as { message?: unknown }).message ?? '') };
  }
  return undefined;
}

/** The message of a request refused by PostgreSQL's data checks (the log line the contract fuzzing looks for). */
export const DATABASE_REFUSED_VALUE = 'database refused a value of the request';

/**
 * A PostgreSQL data exception (SQLSTATE class 22: a number out of range for its column, text too long, a bad date…)
 * comes from a value of the request its contract let through: the request is refused with 400 `validation_failed`,
 * and a warning is logged (a contract to tighten; the contract fuzzing fails on it — decision 133). Undefined for any
 * other error.
 */
export function databaseDataError(err: unknown, request?: FastifyRequest): AppError | undefined {
  const state = sqlStateOf(err);
  if (!state || !state.code.startsWith('22')) return undefined;
  request?.log.warn({ sqlState: state.code, dbMessage: state.message, reqId: request.id }, DATABASE_REFUSED_VALUE);
  return new AppError(
    'validation_failed',
    'A value of the request is out of range or not valid for its field. Check the values and try again.',
  );
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) request.log.error({ err, reqId: request.id }, err.message);
      if (err instanceof RateLimitedError) reply.header('retry-after', String(err.retryAfterSeconds));
      return send(reply, err.status, errorBody(err.code, err.message, err.fields, err.details));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      const context = (err as { validationContext?: string }).validationContext;
      for (const issue of err.validation) {
        const key = fieldKey(context, issue.instancePath);
        fields[key] ??= issue.message ?? 'is invalid';
      }
      const summary = Object.entries(fields)
        .slice(0, 3)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ');
      return send(reply, 400, errorBody('validation_failed', `Please correct the request (${summary}).`, fields));
    }
    const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (mapped) return send(reply, APP_ERROR_STATUS[mapped.code], errorBody(mapped.code, mapped.message));
    if (err.statusCode === 429) {
      return send(
        reply,
        429,
        errorBody('rate_limited', err.message || 'Too many requests. Wait a moment and try again.'),
      );
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return send(reply, err.statusCode, errorBody('bad_request', err.message));
    }
    const refused = databaseDataError(err, request);
    if (refused) return send(reply, refused.status, errorBody(refused.code, refused.message));
    request.log.error({ err, reqId: request.id }, 'unhandled error');
    return send(
      reply,
      500,
      errorBody(
        'internal',
        `Something went wrong on our side. Try again; if it keeps happening, report reference ${request.id}.`,
      ),
    );
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url === '/api' || url.startsWith('/api/')) {
      return send(
        reply,
        404,
        errorBody('route_not_found', `No API route matches ${request.method} ${redactUrl(url)}. Check the address.`),
      );
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}
