import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../lib/test-support';
import { StoresList } from './stores-list';

describe('the stores list: license', () => {
  afterEach(() => vi.useRealTimers());
  it('shows "In grace period" past the expiry and "License lapsed" 37 days later', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T12:00:00'));
    render(
      <MantineProvider>
        <StoresList
          stores={[
            makeStore({ store_id: 1, store_name: 'Current', license_expires_on: '2026-12-31' }),
            makeStore({ store_id: 2, store_name: 'Grace', license_expires_on: '2026-11-01' }),
            makeStore({ store_id: 3, store_name: 'Lapsed', license_expires_on: '2026-10-01' }),
          ]}
          selectedId={null}
          onSelect={() => undefined}
        />
      </MantineProvider>,
    );
    const row = (name: string) => screen.getByRole('button', { name }).closest('tr')!;
    expect(within(row('Current')).queryByText(/grace|lapsed/i)).toBeNull();
    expect(within(row('Grace')).getByText('In grace period')).toBeTruthy();
    expect(within(row('Lapsed')).getByText('License lapsed')).toBeTruthy();
  });
});
