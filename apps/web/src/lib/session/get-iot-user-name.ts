/**
 * POST /api/users/user.do {todo: GetIOTUserName} (SPEC §7): the name the top bar shows.
 * `userid` comes from the cookie the sign-in sets, `auth` is the access token.
 */
import { paths } from '@umbo/contracts/paths';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { readCookie } from '../cookies';
import { getToken } from '../token';

export async function getIotUserName(userid: string, signal?: AbortSignal): Promise<string> {
  const data = await api.post<{ userName?: string }>(paths.userDo, { todo: 'GetIOTUserName', userid, auth: getToken() ?? '' }, { signal });
  return data?.userName ?? '';
}

/** `fallbackUserId` is the signed-in account's id, used when the cookie is not readable. */
export function getIotUserNameQueryOptions(fallbackUserId: string | undefined) {
  const userid = readCookie('userid') || fallbackUserId || '';
  return queryOptions({
    queryKey: ['iot-user-name', userid] as const,
    queryFn: ({ signal }) => getIotUserName(userid, signal),
    enabled: userid !== '',
    staleTime: 5 * 60_000,
  });
}

export function useIotUserName(fallbackUserId: string | undefined) {
  return useQuery(getIotUserNameQueryOptions(fallbackUserId));
}
