import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UpdateBanner } from './update-banner';

describe('UpdateBanner', () => {
  it('shows nothing without an update', () => {
    render(
      <MantineProvider>
        <UpdateBanner secondsLeft={null} />
      </MantineProvider>,
    );
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("shows 'New update is available.' and the seconds before the reload", () => {
    const { rerender } = render(
      <MantineProvider>
        <UpdateBanner secondsLeft={10} />
      </MantineProvider>,
    );
    const banner = screen.getByRole('status');
    expect(banner.textContent).toBe('New update is available.page will be reloaded in 10 sec');
    rerender(
      <MantineProvider>
        <UpdateBanner secondsLeft={0} />
      </MantineProvider>,
    );
    expect(screen.getByText('page will be reloaded in 0 sec')).toBeTruthy();
  });
});
