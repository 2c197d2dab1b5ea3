/**
 * Typed `meta` for TanStack queries and mutations (module augmentation, applies app-wide).
 * `silentError: true` turns off the global error toast for a screen that shows the error itself.
 * `quietRefetch: true` keeps the global spinner away from refreshes of data already on screen.
 */
export interface AppQueryMeta extends Record<string, unknown> {
  readonly silentError?: boolean;
  /** A refetch of this query while it already has data (an auto-refresh) does not show the global spinner. */
  readonly quietRefetch?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
    mutationMeta: AppQueryMeta;
  }
}
