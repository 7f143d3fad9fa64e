/** GET /api/users/outbox: mail and SMS the service sent (master administrators, outbox.query). */
import type { OutboxItem } from '@umbo/contracts/auth-flows';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { flowPaths } from '@umbo/contracts/paths';

export interface OutboxFilter {
  channel?: 'mail' | 'sms';
  recipient?: string;
  limit: number;
  offset: number;
}

export function getOutboxQueryOptions(filter: OutboxFilter) {
  const params = new URLSearchParams({ limit: String(filter.limit), offset: String(filter.offset) });
  if (filter.channel) params.set('channel', filter.channel);
  if (filter.recipient) params.set('recipient', filter.recipient);
  return queryOptions({
    queryKey: ['outbox', filter] as const,
    queryFn: ({ signal }) => api.get<{ items: OutboxItem[]; total: number }>(`${flowPaths.outbox}?${params.toString()}`, { signal }),
    // The previous page stays on screen while the next one loads; the table says a failure itself.
    placeholderData: keepPreviousData,
    meta: { inlineError: true },
  });
}

export function useOutbox(filter: OutboxFilter) {
  return useQuery(getOutboxQueryOptions(filter));
}
