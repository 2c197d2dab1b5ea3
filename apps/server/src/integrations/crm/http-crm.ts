import { z } from 'zod';
import type { CrmConfig } from '../../config';
import { AppError } from '../../http/errors';
import type { CrmLead, CrmPort } from './crm.port';

/*
 * The CRM over HTTP (CRM_URL set): a small JSON bridge in front of the real CRM (decision 030).
 *   POST {CRM_URL}/feature-changes  {storeId, customerId, features, requestedBy, notes?} → {reference}
 *   POST {CRM_URL}/mid-validations  {mid, excludeStoreId?}                            → {valid, reason?}
 *   GET  {CRM_URL}/leads/{leadId}                                                     → {lead: {…}} | 404 (decision 159)
 * `Authorization: Bearer CRM_API_KEY` when a key is set. A timeout, a network error, a non-2xx answer or
 * an answer of the wrong shape → AppError('unavailable') (503; the job queue retries it). A lead the CRM does not
 * have (404) → null.
 */

const featureChangeAnswer = z.object({ reference: z.string().trim().min(1).max(200) });
const midAnswer = z.object({ valid: z.boolean(), reason: z.string().max(1000).optional() });

/** The bridge's lead (Zoho's fields, camelCased); what it leaves out or sends as null is ''. */
const maybe = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v ?? '').trim());
const leadAnswer = z.object({
  lead: z.object({
    id: z.union([z.string().max(32), z.number().int()]),
    company: maybe(255),
    dba: maybe(255),
    firstName: maybe(255),
    lastName: maybe(255),
    email: maybe(255),
    phone: maybe(30),
    street: maybe(255),
    city: maybe(255),
    state: maybe(50),
    zip: maybe(20),
    country: maybe(60),
    ownerEmail: maybe(255),
  }),
});

/** 'US', 'USA', 'United States' → US; 'CA', 'Canada' → CA; anything else ''. */
function countryOf(text: string): CrmLead['country'] {
  const t = text.trim().toUpperCase();
  if (['US', 'USA', 'UNITED STATES', 'UNITED STATES OF AMERICA'].includes(t)) return 'US';
  if (['CA', 'CAN', 'CANADA'].includes(t)) return 'CA';
  return '';
}

export function createHttpCrm(config: CrmConfig & { url: string }, deps: { fetch?: typeof fetch } = {}): CrmPort {
  const doFetch = deps.fetch ?? fetch;
  const base = config.url.replace(/\/+$/, '');

  /** POST `body` (or GET without one); `notFound` answers a 404 instead of calling it unavailable. */
  async function call<T, N = never>(
    path: string,
    body: unknown,
    answer: z.ZodType<T, unknown>,
    notFound?: () => N,
  ): Promise<T | N> {
    const unavailable = (why: string) =>
      new AppError('unavailable', `The CRM is unavailable (${why}). Try again later.`);
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          accept: 'application/json',
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw unavailable(`no answer within ${config.timeoutMs} ms`);
      throw unavailable('it could not be reached');
    }
    if (res.status === 404 && notFound) {
      await res.body?.cancel();
      return notFound();
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
    async getLead(leadId) {
      const answer = await call(`/leads/${encodeURIComponent(leadId)}`, undefined, leadAnswer, () => null);
      if (answer === null) return null;
      const l = answer.lead;
      return {
        lead_id: String(l.id),
        legal_name: l.company,
        dba: l.dba,
        first_name: l.firstName,
        last_name: l.lastName,
        email: l.email,
        phone: l.phone,
        address1: l.street,
        city: l.city,
        state: l.state.toUpperCase(),
        zip: l.zip,
        country: countryOf(l.country),
        sales_rep_email: l.ownerEmail || null,
      };
    },
  };
}
