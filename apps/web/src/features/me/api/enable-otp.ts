/** POST /api/users/account/otp/enable {firstCode, secondCode} → the ten recovery codes, shown once. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';
import { accountQueryKey } from './get-account';
import { otpQueryKey } from './get-otp';

export function useEnableOtp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { firstCode: string; secondCode: string }) => api.post<{ recoveryCodes: string[] }>(accountPaths.otpEnable, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: otpQueryKey });
      void queryClient.invalidateQueries({ queryKey: accountQueryKey });
    },
  });
}
