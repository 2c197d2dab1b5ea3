/**
 * Typed `meta` for TanStack queries and mutations (module augmentation, applies app-wide).
 * `silentError: true` turns off the global error toast for a screen that shows the error itself.
 */
export interface AppQueryMeta extends Record<string, unknown> {
  readonly silentError?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
    mutationMeta: AppQueryMeta;
  }
}
