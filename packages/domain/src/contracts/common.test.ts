import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  queryIdList,
  queryValueList,
  EMAIL_MESSAGE,
  PERCENT_MESSAGE,
  addressSchema,
  decimalAmountSchema,
  emailSchema,
  errorEnvelopeSchema,
  fieldsFromZodError,
  healthResponse,
  healthResponseSchema,
  moneySchema,
  pagedList,
  paginationQuerySchema,
  percentSchema,
  successEnvelope,
  zipSchemaFor,
} from './common';

describe('envelopes', () => {
  it('error envelope with optional fields', () => {
    expect(errorEnvelopeSchema.parse({ error: { code: 'not_found', message: 'No such order.' } })).toEqual({
      error: { code: 'not_found', message: 'No such order.' },
    });
    expect(
      errorEnvelopeSchema.safeParse({ error: { code: 'invalid', message: 'Check the form.', fields: { zip: 'Bad' } } })
        .success,
    ).toBe(true);
    expect(errorEnvelopeSchema.safeParse({ error: { code: '', message: 'x' } }).success).toBe(false);
    expect(errorEnvelopeSchema.safeParse({ error: { code: 'x', message: 'y', fields: { zip: 1 } } }).success).toBe(
      false,
    );
    expect(errorEnvelopeSchema.safeParse({ code: 'x', message: 'y' }).success).toBe(false);
  });

  it('success envelope wraps the payload in info', () => {
    const schema = successEnvelope(z.object({ jobId: z.string() }));
    expect(schema.parse({ info: { jobId: 'j1' } })).toEqual({ info: { jobId: 'j1' } });
    expect(schema.safeParse({ jobId: 'j1' }).success).toBe(false);
  });

  it('maps zod issues to envelope fields', () => {
    const schema = z.object({ a: z.string(), b: z.object({ c: z.number() }) });
    const result = schema.safeParse({ a: 1, b: { c: 'x' } });
    expect(result.success).toBe(false);
    if (!result.success) {
      const fields = fieldsFromZodError(result.error);
      expect(Object.keys(fields).sort()).toEqual(['a', 'b.c']);
      expect(typeof fields.a).toBe('string');
    }
    const whole = z.string().safeParse(5);
    if (!whole.success) expect(Object.keys(fieldsFromZodError(whole.error))).toEqual(['_']);
  });
});

describe('lists', () => {
  it('pagination defaults to limit 50, offset 0', () => {
    expect(paginationQuerySchema.parse({})).toEqual({ limit: 50, offset: 0 });
  });

  it('coerces query strings and keeps sort', () => {
    expect(paginationQuerySchema.parse({ limit: '500', offset: '20', sort: '-created_at' })).toEqual({
      limit: 500,
      offset: 20,
      sort: '-created_at',
    });
    expect(paginationQuerySchema.parse({ limit: '1' }).limit).toBe(1);
  });

  it.each([{ limit: '0' }, { limit: '501' }, { limit: '2.5' }, { limit: 'ten' }, { offset: '-1' }, { sort: '' }])(
    'refuses %j',
    (query) => {
      expect(paginationQuerySchema.safeParse(query).success).toBe(false);
    },
  );

  it('paged list is { items, total }', () => {
    const schema = successEnvelope(pagedList(z.object({ id: z.number() })));
    expect(schema.parse({ info: { items: [{ id: 1 }], total: 7 } })).toEqual({
      info: { items: [{ id: 1 }], total: 7 },
    });
    expect(schema.safeParse({ info: { items: [], total: -1 } }).success).toBe(false);
    expect(schema.safeParse({ info: { items: [{ id: 'x' }], total: 1 } }).success).toBe(false);
  });
});

describe('health', () => {
  it('is ok with a version and a database kind', () => {
    expect(healthResponse).toBe(healthResponseSchema);
    expect(healthResponseSchema.parse({ status: 'ok', version: '0.1.0', database: 'pglite' })).toEqual({
      status: 'ok',
      version: '0.1.0',
      database: 'pglite',
    });
    expect(healthResponseSchema.safeParse({ status: 'ok', version: '0.1.0', database: 'mysql' }).success).toBe(false);
    expect(healthResponseSchema.safeParse({ status: 'down', version: '0.1.0', database: 'postgres' }).success).toBe(
      false,
    );
  });
});

describe('field schemas call the rules', () => {
  it('zipSchemaFor normalises valid codes and reports the rule message', () => {
    expect(zipSchemaFor('CA').parse('k1a0b1')).toBe('K1A 0B1');
    expect(zipSchemaFor('US').parse('02134')).toBe('02134');
    const bad = zipSchemaFor('US').safeParse('1234');
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.issues[0]?.message).toBe('US ZIP code must be 5 digits (00000).');
    expect(zipSchemaFor('CA').safeParse('12345').success).toBe(false);
  });

  it('emailSchema trims and applies the length rules', () => {
    expect(emailSchema.parse('  a@b.co ')).toBe('a@b.co');
    const bad = emailSchema.safeParse(`${'a'.repeat(65)}@example.com`);
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.issues[0]?.message).toBe(EMAIL_MESSAGE);
  });

  it('percentSchema accepts 0 and 100, refuses -1 and 100.5', () => {
    expect(percentSchema.parse(0)).toBe(0);
    expect(percentSchema.parse(100)).toBe(100);
    const bad = percentSchema.safeParse(-1);
    if (!bad.success) expect(bad.error.issues[0]?.message).toBe(PERCENT_MESSAGE);
    expect(bad.success).toBe(false);
    expect(percentSchema.safeParse(100.5).success).toBe(false);
    expect(percentSchema.safeParse('50').success).toBe(false);
  });

  it('moneySchema is integer cents with USD or CAD', () => {
    expect(moneySchema.parse({ cents: 1999, currency: 'CAD' })).toEqual({ cents: 1999, currency: 'CAD' });
    expect(moneySchema.safeParse({ cents: 19.99, currency: 'USD' }).success).toBe(false);
    expect(moneySchema.safeParse({ cents: 100, currency: 'EUR' }).success).toBe(false);
  });

  it('decimalAmountSchema converts to cents exactly', () => {
    expect(decimalAmountSchema.parse('19.99')).toBe(1999);
    expect(decimalAmountSchema.parse(0.3)).toBe(30);
    expect(decimalAmountSchema.safeParse('1.999').success).toBe(false);
    expect(decimalAmountSchema.safeParse(0.1 + 0.2).success).toBe(false);
  });
});

describe('addressSchema', () => {
  const us = { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' };
  const ca = { address1: '80 Wellington St', city: 'Ottawa', state: 'ON', zip: 'k1a0a2', country: 'CA' };

  it('accepts a US address', () => {
    expect(addressSchema.parse(us)).toEqual(us);
  });

  it('normalises a Canadian postal code', () => {
    expect(addressSchema.parse(ca).zip).toBe('K1A 0A2');
  });

  it("applies the country's ZIP rule to the zip field", () => {
    const r = addressSchema.safeParse({ ...us, zip: '123456' });
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(r.error.issues.map((i) => i.path.join('.'))).toEqual(['zip']);
      expect(fieldsFromZodError(r.error)).toEqual({ zip: 'US ZIP code must be 5 digits (00000).' });
    }
    expect(addressSchema.safeParse({ ...ca, zip: '12345' }).success).toBe(false);
    expect(addressSchema.safeParse({ ...us, zip: 'K1A 0B1' }).success).toBe(false);
  });

  it("checks the state against the country's list", () => {
    const r = addressSchema.safeParse({ ...ca, state: 'NY' });
    expect(r.success).toBe(false);
    if (!r.success) expect(fieldsFromZodError(r.error)).toEqual({ state: 'Choose a Canadian province or territory.' });
    expect(addressSchema.safeParse({ ...us, state: 'ON' }).success).toBe(false);
    expect(addressSchema.safeParse({ ...us, state: 'PR', zip: '00901' }).success).toBe(true);
  });

  it('accepts other §9 countries with a loose postal code, refuses unknown countries', () => {
    expect(addressSchema.safeParse({ ...us, country: 'MEX', state: 'CDMX', zip: '06700' }).success).toBe(true);
    expect(addressSchema.safeParse({ ...us, country: 'FR' }).success).toBe(false);
  });

  it('requires address1, city and state', () => {
    const r = addressSchema.safeParse({ ...us, address1: ' ', city: '', state: '' });
    expect(r.success).toBe(false);
    if (!r.success) expect(Object.keys(fieldsFromZodError(r.error)).sort()).toEqual(['address1', 'city', 'state']);
  });
});

/** The multi-select filters of §2 in a query string: `?status=N,P`, `?agent_id=3,5`. */
describe('query lists', () => {
  const values = z.object({
    status: queryValueList(['N', 'P', 'F'] as const, (bad, text) => `Unknown status ${bad.join(', ') || text}.`),
  });
  const ids = z.object({ agent_id: queryIdList('agent id') });

  it('a value list: one or several, blanks and repeats dropped; an empty text is no filter', () => {
    expect(values.parse({ status: 'N' }).status).toEqual(['N']);
    expect(values.parse({ status: 'N, P,,N' }).status).toEqual(['N', 'P']);
    expect(values.parse({ status: '' }).status).toBeUndefined();
    expect(values.parse({}).status).toBeUndefined();
  });

  it('a value list names the unknown values in its message', () => {
    const r = values.safeParse({ status: 'N,X,Y' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Unknown status X, Y.');
    expect(values.safeParse({ status: ',' }).error?.issues[0]?.message).toBe('Unknown status ,.');
  });

  it('an id list: whole numbers from 1 up to the largest id, repeats dropped', () => {
    expect(ids.parse({ agent_id: '3' }).agent_id).toEqual([3]);
    expect(ids.parse({ agent_id: 7 }).agent_id).toEqual([7]);
    expect(ids.parse({ agent_id: '3, 5,3' }).agent_id).toEqual([3, 5]);
    expect(ids.parse({ agent_id: ' ' }).agent_id).toBeUndefined();
    for (const bad of ['0', '-1', '3,x', '1.5', '2147483648', '03'])
      expect(ids.safeParse({ agent_id: bad }).error?.issues[0]?.message, bad).toBe(
        'The agent id is a whole number from 1, or a comma list of them.',
      );
  });
});
