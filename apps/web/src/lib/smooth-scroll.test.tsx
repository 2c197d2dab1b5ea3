import { MantineProvider } from '@mantine/core';
import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useScrollToTopOnNavigate } from './smooth-scroll';

function Page() {
  const top = useScrollToTopOnNavigate<HTMLDivElement>(56);
  return <div ref={top} />;
}

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(document.documentElement, 'scrollTop');
  Reflect.deleteProperty(window, 'scrollY');
});

describe('useScrollToTopOnNavigate (§9 smooth scroll 500 ms)', () => {
  it('a new screen starts at its top, scrolled there over 500 ms; a change of the query alone does not scroll', async () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
    // The page was scrolled down 900 px: each step of the animation is recorded.
    let position = 900;
    const steps: number[] = [];
    Object.defineProperty(document.documentElement, 'scrollTop', {
      configurable: true,
      get: () => position,
      set: (v: number) => {
        position = v;
        steps.push(v);
      },
    });
    Object.defineProperty(window, 'scrollY', { configurable: true, get: () => position });
    const routed = createMemoryRouter([{ path: '*', element: <Page /> }], { initialEntries: ['/a'] });
    render(
      <MantineProvider>
        <RouterProvider router={routed} />
      </MantineProvider>,
    );

    await act(() => routed.navigate('/a?status=N'));
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(steps).toEqual([]);

    await act(() => routed.navigate('/b'));
    await act(() => vi.advanceTimersByTimeAsync(250));
    // Half-way through: somewhere between where it was and the top.
    const middle = steps.at(-1)!;
    expect(middle).toBeLessThan(900);
    expect(middle).toBeGreaterThan(0);
    await act(() => vi.advanceTimersByTimeAsync(300));
    // Done after 500 ms: at the top (jsdom lays nothing out, so the header offset does not show here).
    expect(Math.abs(steps.at(-1)!)).toBeLessThan(2);
    const count = steps.length;
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(steps.length).toBe(count);
  });
});
