/** POST /api/users/account/binding/code: a code to the NEW address; the password proves it is you. */
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';

export type BindingChannel = 'email' | 'sms';
export interface BindingCodeBody {
  channel: BindingChannel;
  email?: string;
  mobile?: string;
  country?: string;
  password: string;
}

export function useSendBindingCode() {
  return useMutation({
    mutationFn: (body: BindingCodeBody) => api.post<{ serialNo: string; expiresAt: number; resendAt: number }>(accountPaths.bindCode, body),
    // The dialog shows a failure itself, on the field the server names (binding-dialog.tsx).
    meta: { inlineError: true },
  });
}
