import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { GlobalSpinner, Spinner } from './spinner';

describe('Spinner', () => {
  it('announces itself as a Loading status after the debounce, and hides after the minimum display', () => {
    vi.useFakeTimers();
    const { rerender } = render(
      <MantineProvider>
        <Spinner busy />
      </MantineProvider>,
    );
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
    act(() => {
      vi.advanceTimersByTime(50);
    });
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();

    rerender(
      <MantineProvider>
        <Spinner busy={false} />
      </MantineProvider>,
    );
    act(() => {
      vi.advanceTimersByTime(299);
    });
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
  });
});

describe('GlobalSpinner', () => {
  function setup(client: QueryClient) {
    vi.useFakeTimers();
    render(
      <MantineProvider>
        <QueryClientProvider client={client}>
          <GlobalSpinner />
        </QueryClientProvider>
      </MantineProvider>,
    );
  }
  const never = () => new Promise<never>(() => undefined);
  /** Let TanStack's batched notifications through, then the spinner's debounce. */
  const settle = () => {
    act(() => void vi.advanceTimersByTime(1));
    act(() => void vi.advanceTimersByTime(60));
  };

  it('shows while a query fetches', () => {
    const client = new QueryClient();
    setup(client);
    act(() => void client.prefetchQuery({ queryKey: ['q'], queryFn: never }));
    settle();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
  });

  it('shows for the first load of a quietRefetch query', () => {
    const client = new QueryClient();
    setup(client);
    act(() => void client.prefetchQuery({ queryKey: ['jobs'], queryFn: never, meta: { quietRefetch: true } }));
    settle();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
  });

  it('stays away while a quietRefetch query with data refreshes (auto-refresh)', () => {
    const client = new QueryClient();
    client.setQueryData(['jobs'], { items: [] });
    setup(client);
    act(
      () =>
        void client.prefetchQuery({ queryKey: ['jobs'], queryFn: never, meta: { quietRefetch: true }, staleTime: 0 }),
    );
    settle();
    expect(client.isFetching()).toBe(1);
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
  });
});
