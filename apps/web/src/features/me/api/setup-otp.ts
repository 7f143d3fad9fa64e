/** POST /api/users/account/otp/setup {password} → a pending key {secret, uri, expiresAt}. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';
import { otpQueryKey } from './get-otp';

export interface OtpSetup {
  secret: string;
  uri: string;
  expiresAt: number;
}

export function useSetupOtp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => api.post<OtpSetup>(accountPaths.otpSetup, { password }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: otpQueryKey }),
  });
}
