import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api';
import { describeError } from '../lib/error-message';
import { createQueryClient } from './query-client';

describe('global error handling', () => {
  it('reports a failed query and a failed mutation, unless they are marked silent', async () => {
    const onError = vi.fn();
    const client = createQueryClient(onError);
    const failure = new ApiError({ status: 404, code: 'not_found', message: 'No such customer' });

    await client
      .fetchQuery({ queryKey: ['a'], queryFn: () => Promise.reject(failure), retry: false })
      .catch(() => undefined);
    await client
      .fetchQuery({
        queryKey: ['b'],
        queryFn: () => Promise.reject(failure),
        retry: false,
        meta: { silentError: true },
      })
      .catch(() => undefined);
    await client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(failure) })
      .execute(undefined)
      .catch(() => undefined);

    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledWith(failure);
  });

  it("tells the user what to do, using the server's message", () => {
    expect(describeError(new ApiError({ status: 500, code: 'internal', message: 'Saving the order failed' }))).toEqual({
      title: 'Server problem',
      message: 'Saving the order failed. Try again in a moment; if it keeps happening, contact support.',
    });
    expect(
      describeError(
        new ApiError({ status: 422, code: 'validation', message: 'Invalid store', fields: { zip: 'Enter 5 digits' } }),
      ).message,
    ).toBe('Invalid store. Correct the marked fields and try again.');
    expect(describeError(new Error('boom')).message).toMatch(/reload the page and try again/i);
  });
});
