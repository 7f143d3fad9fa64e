/** POST /api/users/oauth/device {user_code, approve}: the user's decision, once (RFC 8628 §3.3). */
import { devicePaths, type DeviceDecisionBody, type DeviceDecisionResult } from '@umbo/contracts/device';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function useDecideDevice() {
  return useMutation({
    mutationFn: (body: DeviceDecisionBody) => api.post<DeviceDecisionResult>(devicePaths.device, body),
    meta: { inlineError: true },
  });
}
