/** GET …/accounts/:id, …/sessions and …/otp: one person account as its detail drawer shows it. */
import { personPaths, type PersonDetail, type PersonOtpState, type PersonSessionItem } from '@umbo/contracts/people';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const personKey = (realmId: string, id: string) => ['person', realmId, id] as const;

export function usePerson(realmId: string, id: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: personKey(realmId, id ?? ''),
      queryFn: ({ signal }) => api.get<PersonDetail>(personPaths.one(realmId, id!), { signal }),
      enabled: Boolean(id),
      meta: { inlineError: true },
    }),
  );
}

export function usePersonSessions(realmId: string, id: string | undefined) {
  return useQuery({
    queryKey: [...personKey(realmId, id ?? ''), 'sessions'] as const,
    queryFn: ({ signal }) => api.get<{ items: PersonSessionItem[]; total: number }>(personPaths.action(realmId, id!, 'sessions'), { signal }),
    enabled: Boolean(id),
    meta: { inlineError: true },
  });
}

export function usePersonOtp(realmId: string, id: string | undefined) {
  return useQuery({
    queryKey: [...personKey(realmId, id ?? ''), 'otp'] as const,
    queryFn: ({ signal }) => api.get<PersonOtpState>(personPaths.action(realmId, id!, 'otp'), { signal }),
    enabled: Boolean(id),
    meta: { inlineError: true },
  });
}
