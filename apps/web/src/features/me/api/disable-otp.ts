/** POST /api/users/account/otp/disable: two consecutive codes, or the password and a recovery code. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';
import { accountQueryKey } from './get-account';
import { otpQueryKey } from './get-otp';

export type DisableOtpBody = { firstCode: string; secondCode: string } | { password: string; recoveryCode: string };

export function useDisableOtp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DisableOtpBody) => api.post<unknown>(accountPaths.otpDisable, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: otpQueryKey });
      void queryClient.invalidateQueries({ queryKey: accountQueryKey });
    },
  });
}
