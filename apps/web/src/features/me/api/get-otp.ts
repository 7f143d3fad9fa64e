/** GET /api/users/account/otp: {enabled, pending, recoveryCodesLeft}. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { accountPaths } from '@umbo/contracts/paths';

export interface OtpStatus {
  enabled: boolean;
  pending: boolean;
  recoveryCodesLeft: number;
}
export const otpQueryKey = ['me', 'otp'] as const;

export function getOtpQueryOptions() {
  return queryOptions({ queryKey: otpQueryKey, queryFn: ({ signal }) => api.get<OtpStatus>(accountPaths.otp, { signal }) });
}

export function useOtpStatus() {
  return useQuery(getOtpQueryOptions());
}
