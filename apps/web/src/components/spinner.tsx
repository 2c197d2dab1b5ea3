import { useIsFetching, useIsMutating, type Query } from '@tanstack/react-query';
import { SPINNER_DEBOUNCE_MS, SPINNER_MIN_DISPLAY_MS } from '@pos/domain';
import classes from './spinner.module.css';
import { useDebouncedBusy } from './use-debounced-busy';

const DOTS = [1, 2, 3, 4, 5, 6] as const;

/** Spec §9 timing: show after 50 ms of activity, then for at least 300 ms. */
export const SPINNER_TIMING = {
  debounceMs: SPINNER_DEBOUNCE_MS,
  minimumMs: SPINNER_MIN_DISPLAY_MS,
} as const;

export interface SpinnerProps {
  /** Raw activity; the spinner applies the debounce and minimum display itself. */
  readonly busy: boolean;
  readonly label?: string;
}

/** The red chasing-dots spinner (spec §9), announced to assistive technology as a status. */
export function Spinner({ busy, label = 'Loading' }: SpinnerProps) {
  const visible = useDebouncedBusy(busy, SPINNER_TIMING);
  if (!visible) return null;
  return (
    <div className={classes.overlay} role="status" aria-label={label} aria-live="polite" aria-busy="true">
      <div className={classes.chase} aria-hidden="true">
        {DOTS.map((n) => (
          <div key={n} className={classes.dot} />
        ))}
      </div>
      <span className={classes.visuallyHidden}>{label}</span>
    </div>
  );
}

/** A fetch the global spinner shows: all but the refresh of a `quietRefetch` query that already has data. */
function showsSpinner(query: Query): boolean {
  return !(query.meta?.quietRefetch === true && query.state.data !== undefined);
}

/**
 * The app-wide spinner: any query fetching (except quiet auto-refreshes) or mutation running, plus `busy`
 * from the caller (route loads).
 */
export function GlobalSpinner({ busy = false }: { readonly busy?: boolean }) {
  const fetching = useIsFetching({ predicate: showsSpinner });
  const mutating = useIsMutating();
  return <Spinner busy={busy || fetching > 0 || mutating > 0} />;
}
