/**
 * TanStack Query set-up. Failures already shown by the API client policy are not shown
 * twice; the rest surface as a message unless a screen shows them itself (meta.inlineError).
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';
import { showError } from './feedback';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { inlineError?: boolean };
    mutationMeta: { inlineError?: boolean };
  }
}

function report(error: unknown, meta: { inlineError?: boolean } | undefined): void {
  if (meta?.inlineError) return;
  if (error instanceof ApiError) {
    if (!error.notified) showError(error.say ?? error.message);
    return;
  }
  showError(error instanceof Error ? error.message : String(error));
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta) }),
  mutationCache: new MutationCache({ onError: (error, _vars, _ctx, mutation) => report(error, mutation.meta) }),
  defaultOptions: {
    queries: {
      // A failed API answer is an answer; only a dropped connection is worth one more try.
      retry: (count, error) => count < 1 && error instanceof ApiError && error.kind === 'network',
      refetchOnWindowFocus: false,
      staleTime: 60_000,
    },
  },
});
