import { useScrollIntoView } from '@mantine/hooks';
import { SMOOTH_SCROLL_MS } from '@pos/domain';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Where the product scrolls, it scrolls smoothly in 500 ms (§9 SMOOTH_SCROLL_MS; at once when the system asks for
 * reduced motion — Mantine's useScrollIntoView). A new screen (another path; not a filter or an open row, which
 * change only the query) starts at its top: the page that was scrolled down to its last row does not open the next
 * screen half-way down. Returns the ref of an element at the top of the page (below the fixed header, `headerHeight`).
 */
export function useScrollToTopOnNavigate<T extends HTMLElement>(headerHeight = 0) {
  const { pathname } = useLocation();
  const { targetRef, scrollIntoView } = useScrollIntoView<T>({
    duration: SMOOTH_SCROLL_MS,
    cancelable: true,
    // The fixed header covers the page's first pixels: the top of the page is just below it.
    offset: headerHeight,
  });
  const first = useRef(true);
  useEffect(() => {
    // The first screen opens where the browser put it (a reload keeps its place).
    if (first.current) {
      first.current = false;
      return;
    }
    if (window.scrollY > 0) scrollIntoView({ alignment: 'start' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the path alone decides
  }, [pathname]);
  return targetRef;
}
