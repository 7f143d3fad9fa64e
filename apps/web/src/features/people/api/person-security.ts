/** A temporary password (POST …/:id/password), ending sessions (DELETE …/:id/sessions[/:sid]) and resetting OTP (DELETE …/:id/otp). */
import { personPaths } from '@umbo/contracts/people';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { personKey } from './person-detail';
import { personListKey } from './person-list';

export function usePersonSecurity(realmId: string, id: string) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: personKey(realmId, id) });
    void queryClient.invalidateQueries({ queryKey: personListKey(realmId) });
  };
  return {
    setPassword: useMutation({
      mutationFn: (password: string) => api.post<unknown>(personPaths.action(realmId, id, 'password'), { password }),
      onSuccess: refresh,
    }),
    revokeSession: useMutation({
      mutationFn: (sessionId: string | undefined) =>
        api.delete<{ revoked: number }>(sessionId ? personPaths.session(realmId, id, sessionId) : personPaths.action(realmId, id, 'sessions')),
      onSuccess: refresh,
    }),
    resetOtp: useMutation({
      mutationFn: () => api.delete<unknown>(personPaths.action(realmId, id, 'otp')),
      onSuccess: refresh,
    }),
  };
}
