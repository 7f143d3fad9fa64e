/** GET /api/users/oauth/device?user_code=: the device request behind a user code (RFC 8628 §3.3). */
import { devicePaths, type DeviceRequestInfo } from '@umbo/contracts/device';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const deviceRequestQueryKey = (userCode: string) => ['device-request', userCode] as const;

export function getDeviceRequestQueryOptions(userCode: string) {
  return queryOptions({
    queryKey: deviceRequestQueryKey(userCode),
    queryFn: ({ signal }) => api.get<DeviceRequestInfo>(`${devicePaths.device}?${new URLSearchParams({ user_code: userCode }).toString()}`, { signal }),
    // Every look-up of a wrong code counts against the user (brute-force throttle): never
    // again on its own, never from a cache.
    retry: false,
    staleTime: 0,
    gcTime: 0,
    meta: { inlineError: true },
  });
}

/** Looks the code up once it is set (undefined: nothing to look up yet). */
export function useDeviceRequest(userCode: string | undefined) {
  return useQuery({ ...getDeviceRequestQueryOptions(userCode ?? ''), enabled: userCode !== undefined });
}
