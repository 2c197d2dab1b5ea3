import { vi } from 'vitest';
import { jsonResponse } from './factories';

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

/** A handler's answer: a Response as is, or any other value as the `info` of a 200 envelope. */
export type FakeHandler = (request: FakeRequest) => unknown;

/**
 * Stub `fetch` with handlers keyed 'METHOD /path' (the path without its query). An unknown call answers
 * 404 with an error envelope, so a test sees it. `calls` records every request.
 */
export function fakeApi(routes: Record<string, FakeHandler | Response | object>) {
  const calls: FakeRequest[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const request: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    calls.push(request);
    const route = routes[`${method} ${url.pathname}`];
    if (route === undefined)
      return jsonResponse(404, { error: { code: 'not_found', message: `No fake for ${method} ${url.pathname}` } });
    const answer = typeof route === 'function' ? await (route as FakeHandler)(request) : route;
    if (answer instanceof Response) return answer.clone();
    return jsonResponse(200, { info: answer });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** An error envelope response. */
export function errorResponse(status: number, code: string, message: string): Response {
  return jsonResponse(status, { error: { code, message } });
}
