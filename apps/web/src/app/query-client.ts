import { notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/api';
import { describeError } from '../lib/error-message';
import '../lib/query-meta';

/** The global error toast: the server's message plus what to do next. Same text shows once at a time. */
export function showErrorToast(error: unknown): void {
  const { title, message } = describeError(error);
  notifications.show({
    id: `error:${title}:${message}`,
    color: 'red',
    title,
    message,
    autoClose: 8000,
    withBorder: true,
  });
}

/** Retry only what may succeed on its own: lost connection and server errors, twice. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  return !isApiError(error) ? false : error.status === 0 || error.status >= 500;
}

export function createQueryClient(onError: (error: unknown) => void = showErrorToast): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silentError) onError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _result, mutation) => {
        if (!mutation.meta?.silentError) onError(error);
      },
    }),
    defaultOptions: {
      // Back to the tab: what is older than 30 s is asked again (issue 30); live queues poll (lib/live-queue.ts).
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
