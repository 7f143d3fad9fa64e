/** POST /api/users/account/binding {channel, email|mobile, serialNo, code}; DELETE the same path unbinds. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';
import { accountQueryKey } from './get-account';
import type { BindingChannel } from './send-binding-code';

export interface BindBody {
  channel: BindingChannel;
  email?: string;
  mobile?: string;
  country?: string;
  serialNo: string;
  code: string;
}

export function useBindAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BindBody) => api.post<unknown>(accountPaths.bind, body),
    // The dialog shows a failure itself, on the field the server names (binding-dialog.tsx).
    meta: { inlineError: true },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountQueryKey }),
  });
}

export function useUnbindAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { channel: BindingChannel; password: string }) => api.delete<unknown>(accountPaths.bind, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountQueryKey }),
  });
}
