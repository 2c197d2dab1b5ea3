import { noteBusinessDay } from './business-day';
import { clearToken, getToken } from './session';

/**
 * The one API client (ARCHITECTURE "API shape"): paths exactly as the spec lists them with the session
 * token in the path, success `{info}`, failure `{error:{code,message,fields}}`.
 */

export type PathParams = Readonly<Record<string, string | number>>;
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryParams = Readonly<Record<string, QueryValue>>;

export interface ApiErrorInit {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly fields?: Readonly<Record<string, string>>;
}

/** A failed call: HTTP status (0 when the server was not reached), the server's code, message and field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Readonly<Record<string, string>>;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields ?? {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * 409 version_conflict: someone else saved the record first (the change was based on a stale `version`). The one
 * check every screen uses (decision 105): it says so, and shows the record as it is now.
 */
export function isVersionConflict(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.code === 'version_conflict';
}

/**
 * Any 409: a version conflict, or a refusal by the record's current state (code 'conflict': "already retired",
 * "already has an active monthly plan"…). Either way the record on the screen is out of date.
 */
export function isConflict(error: unknown): boolean {
  return isApiError(error) && error.status === 409;
}

export const NETWORK_ERROR_MESSAGE = 'Could not reach the server. Check your internet connection and try again.';
const NO_SESSION_MESSAGE = 'You are not signed in. Sign in and try again.';

/**
 * Fill `{name}` placeholders: `{token}` from the session store unless given, the rest from `params`;
 * values are URL-encoded. A missing `{token}` is treated like an ended session (ApiError 403 'no_session').
 */
export function apiUrl(path: string, params: PathParams = {}): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    let value = params[name];
    if (value === undefined && name === 'token') {
      value = getToken() ?? undefined;
      if (value === undefined) throw new ApiError({ status: 403, code: 'no_session', message: NO_SESSION_MESSAGE });
    }
    if (value === undefined) throw new Error(`apiUrl: no value for {${name}} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

function withQuery(url: string, query: QueryParams | undefined): string {
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/** Absolute URLs (other origins, e.g. the payment gateway host) never get the XSRF header. */
function isRelative(url: string): boolean {
  return !/^([a-z][a-z0-9+.-]*:)?\/\//i.test(url);
}

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [rawKey, ...rest] = part.split('=');
    if (rawKey?.trim() === name) {
      const value = rest.join('=').trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
}

/**
 * Spec §8: any HTTP 403 clears the stored token and sends the user to /login — unless the user is already on a
 * sign-in page: a distributor who just signed out is on /distributor, and a live queue's last poll must not move them
 * to the staff sign-in (issue 30).
 */
function endSession(): void {
  clearToken();
  const hash = window.location.hash;
  if (hash.startsWith('#/login') || hash.startsWith('#/distributor')) return;
  window.location.hash = '#/login';
}

export interface RequestOptions {
  /** Values for `{name}` placeholders other than (or overriding) `{token}`. */
  readonly params?: PathParams;
  /** Query string; null/undefined entries are left out, arrays become comma lists. */
  readonly query?: QueryParams;
  /** Sent as `Idempotency-Key`, so a retried create is not applied twice. */
  readonly idempotencyKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /**
   * How to read a successful body: the `{info}` envelope (default), plain text, a Blob (exports) or the Response
   * itself, its body unread (streamed downloads: lib/stream-download.ts).
   */
  readonly responseType?: 'json' | 'text' | 'blob' | 'response';
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toFields(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const fields: Record<string, string> = {};
  for (const [key, message] of Object.entries(value)) {
    if (typeof message === 'string') fields[key] = message;
    else if (Array.isArray(message)) fields[key] = message.map(String).join(' ');
  }
  return fields;
}

function fallbackMessage(status: number): string {
  if (status === 403) return 'Your session has ended or you are not allowed to do this.';
  if (status === 404) return 'That was not found.';
  if (status >= 500) return 'The server ran into a problem.';
  return `The request failed (HTTP ${status}).`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function request<T>(method: Method, path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
  let url: string;
  try {
    url = withQuery(apiUrl(path, opts.params), opts.query);
  } catch (error) {
    if (isApiError(error) && error.status === 403) endSession();
    throw error;
  }

  const headers = new Headers(opts.headers);
  headers.set('Accept', 'application/json');
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob) {
    payload = body; // multipart uploads: the browser sets the content type and boundary
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }
  if (method !== 'GET' && isRelative(url)) {
    const xsrf = readCookie('XSRF-TOKEN');
    if (xsrf) headers.set('X-XSRF-TOKEN', xsrf);
  }
  if (opts.idempotencyKey) headers.set('Idempotency-Key', opts.idempotencyKey);

  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: payload, credentials: 'same-origin', signal: opts.signal });
  } catch (error) {
    if (opts.signal?.aborted) throw error; // a cancelled request is not a failure to report
    throw new ApiError({ status: 0, code: 'network', message: NETWORK_ERROR_MESSAGE });
  }
  noteBusinessDay(response.headers);

  if (!response.ok) {
    if (response.status === 403) endSession();
    const data = await readJson(response).catch(() => undefined);
    const error = isObject(data) && isObject(data.error) ? data.error : {};
    throw new ApiError({
      status: response.status,
      code: typeof error.code === 'string' ? error.code : `http_${response.status}`,
      message: typeof error.message === 'string' && error.message ? error.message : fallbackMessage(response.status),
      fields: toFields(error.fields),
    });
  }

  if (opts.responseType === 'response') return response as T;
  if (opts.responseType === 'text') return (await response.text()) as T;
  if (opts.responseType === 'blob') return (await response.blob()) as T;
  const data = await readJson(response);
  return (isObject(data) && 'info' in data ? data.info : data) as T;
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body, opts),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, body, opts),
  delete: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('DELETE', path, body, opts),
};
