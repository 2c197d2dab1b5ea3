import { z } from 'zod';
import type { CrmConfig } from '../../config';
import { AppError } from '../../http/errors';
import type { CrmPort } from './crm.port';

/*
 * The CRM over HTTP (CRM_URL set): a small JSON bridge in front of the real CRM (decision 030).
 *   POST {CRM_URL}/feature-changes  {storeId, customerId, features, requestedBy, notes?} → {reference}
 *   POST {CRM_URL}/mid-validations  {mid, excludeStoreId?}                            → {valid, reason?}
 * `Authorization: Bearer CRM_API_KEY` when a key is set. A timeout, a network error, a non-2xx answer or
 * an answer of the wrong shape → AppError('unavailable') (503; the job queue retries it).
 */

const featureChangeAnswer = z.object({ reference: z.string().trim().min(1).max(200) });
const midAnswer = z.object({ valid: z.boolean(), reason: z.string().max(1000).optional() });

export function createHttpCrm(config: CrmConfig & { url: string }, deps: { fetch?: typeof fetch } = {}): CrmPort {
  const doFetch = deps.fetch ?? fetch;
  const base = config.url.replace(/\/+$/, '');

  async function call<T>(path: string, body: unknown, answer: z.ZodType<T>): Promise<T> {
    const unavailable = (why: string) =>
      new AppError('unavailable', `The CRM is unavailable (${why}). Try again later.`);
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw unavailable(`no answer within ${config.timeoutMs} ms`);
      throw unavailable('it could not be reached');
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      if (!res.ok) throw unavailable(`HTTP ${res.status}`);
      throw unavailable('its answer was not JSON');
    }
    if (!res.ok) throw unavailable(`HTTP ${res.status}`);
    const parsed = answer.safeParse(json);
    if (!parsed.success) throw unavailable('its answer had an unexpected shape');
    return parsed.data;
  }

  return {
    async requestFeatureChange(input) {
      const { reference } = await call('/feature-changes', input, featureChangeAnswer);
      return { reference };
    },
    async validateMid(mid, opts = {}) {
      const answer = await call(
        '/mid-validations',
        { mid, ...(opts.excludeStoreId === undefined ? {} : { excludeStoreId: opts.excludeStoreId }) },
        midAnswer,
      );
      return answer.valid ? { valid: true } : { valid: false, reason: answer.reason ?? 'The CRM refused this MID.' };
    },
  };
}
