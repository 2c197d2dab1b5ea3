import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { describeError } from './error-message';

describe('describeError', () => {
  it('a 409 version_conflict says the record changed elsewhere and to reload', () => {
    expect(
      describeError(
        new ApiError({ status: 409, code: 'version_conflict', message: 'Store 500002 was changed by someone else' }),
      ),
    ).toEqual({
      title: 'Changed elsewhere',
      message: 'Store 500002 was changed by someone else. Reload the page to see the latest data, then try again.',
    });
  });

  it("any other 409 is not possible in the record's state: the server's message and to check the record", () => {
    expect(
      describeError(
        new ApiError({
          status: 409,
          code: 'conflict',
          message: 'Store 500002 already has an active monthly plan (30). Change that plan instead of adding another.',
        }),
      ),
    ).toEqual({
      title: 'Not possible',
      message:
        'Store 500002 already has an active monthly plan (30). Change that plan instead of adding another. Check the record and try again.',
    });
    expect(
      describeError(new ApiError({ status: 409, code: 'conflict', message: 'Terminal 3000120 is already retired' })),
    ).toEqual({
      title: 'Not possible',
      message: 'Terminal 3000120 is already retired. Check the record and try again.',
    });
  });
});
