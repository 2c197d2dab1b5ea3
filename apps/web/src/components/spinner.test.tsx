import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Spinner } from './spinner';

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
