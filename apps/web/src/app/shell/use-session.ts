/**
 * The signed-in account for the shell. SPEC §4: an answer without roles shows
 * 'getInfo: roles must be a non-null array !' and signs out.
 */
import { SIGN_IN_PATH } from '@umbo/contracts/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-error';
import { showError } from '../../lib/feedback';
import { RolesMissingError, useCurrentUser } from '../../lib/session/get-current-user';
import { clearToken } from '../../lib/token';

export function useSession() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useCurrentUser();
  const { error } = query;

  useEffect(() => {
    if (error instanceof RolesMissingError) {
      showError((say) => say('http.roles_missing'));
      clearToken();
      navigate(SIGN_IN_PATH, { replace: true });
      // Nothing of this account may show to whoever signs in next in this tab.
      queryClient.clear();
    } else if (error && !(error instanceof ApiError && error.notified)) {
      showError(error.message);
    }
  }, [error, navigate, queryClient, t]);

  return {
    user: query.data,
    /** A 401 is handled by the API client (sign-out and reload): keep showing the spinner. */
    failed: query.isError && !(error instanceof RolesMissingError) && !(error instanceof ApiError && error.kind === 'unauthorized'),
    retry: () => void query.refetch(),
  };
}
