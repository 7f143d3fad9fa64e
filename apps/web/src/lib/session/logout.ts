/**
 * POST /api/users/auth/logout: the server revokes the token; then the console forgets it
 * (SPEC §4). The local part happens even when the call fails: the user asked to leave. The
 * caller then loads the sign-in page afresh, which also drops every cached answer.
 */
import { paths } from '@umbo/contracts/paths';
import { api } from '../api-client';
import { clearToken } from '../token';

export async function logout(): Promise<void> {
  try {
    await api.post(paths.logout, undefined, { authCall: true });
  } finally {
    clearToken();
  }
}
