/**
 * /user/loginSSO as the front door of an OAuth sign-in (DESIGN.md §4):
 *   - `challenge`: the authorization endpoint sent the browser here; the challenge says which
 *     client asks (its tips, back-to-app and register links);
 *   - `client_id` + `callback_uri` (+ state, realm_id): SPEC §2's SSO links.
 * Once the console has a session — at once when it already has one and the client does not
 * demand a new sign-in, else after the form — the server is asked where to go next: the
 * client's redirect URI with a code (followed with location.assign), or the consent screen.
 */
import { ErrorCodes } from '@umbo/contracts/errors';
import type { InteractionInfo, InteractionNext } from '@umbo/contracts/oauth-interaction';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-error';
import { clearToken, getToken } from '../../../lib/token';
import { getInteraction, interactionCallback, interactionLogin, leaveTo } from '../api/oauth-interaction';

export type OAuthDoor = { kind: 'challenge'; challenge: string } | { kind: 'callback'; clientId: string; callbackUri: string; state?: string; realmId: string };

export function oauthDoorOf(params: URLSearchParams, realmId: string | undefined): OAuthDoor | undefined {
  const challenge = params.get('challenge');
  if (challenge) return { kind: 'challenge', challenge };
  const clientId = params.get('client_id');
  const callbackUri = params.get('callback_uri');
  const state = params.get('state');
  if (clientId && callbackUri && realmId) return { kind: 'callback', clientId, callbackUri, realmId, ...(state ? { state } : {}) };
  return undefined;
}

export interface OAuthSignIn {
  door: OAuthDoor | undefined;
  info: InteractionInfo | undefined;
  /** working on the next step: the page shows progress instead of the form */
  continuing: boolean;
  /** a failure to show (a message ready for people) */
  error: string | undefined;
  /** the challenge is dead: no form, only the message */
  fatal: boolean;
  /** after a successful sign-in on this page */
  continueAfterSignIn(): void;
}

export function useOAuthSignIn(door: OAuthDoor | undefined): OAuthSignIn {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [info, setInfo] = useState<InteractionInfo | undefined>();
  const [continuing, setContinuing] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [fatal, setFatal] = useState(false);
  const triedSilently = useRef(false);
  const challenge = door?.kind === 'challenge' ? door.challenge : undefined;

  const follow = useCallback(
    (next: InteractionNext) => {
      if (next.next === 'consent') {
        navigate(`/user/consent?challenge=${encodeURIComponent(next.challenge)}`, { replace: true });
        return;
      }
      if (!leaveTo(next.redirectTo)) {
        setContinuing(false);
        setFatal(true);
        setError(t('errors.oauth_callback_refused'));
      }
    },
    [navigate, t],
  );

  /** `silent`: tried with a session the user did not just make; a refusal then simply shows the form. */
  const proceed = useCallback(
    async (silent: boolean) => {
      if (!door) return;
      setContinuing(true);
      setError(undefined);
      try {
        follow(
          door.kind === 'challenge'
            ? await interactionLogin(door.challenge)
            : await interactionCallback({
                client_id: door.clientId,
                callback_uri: door.callbackUri,
                realm_id: door.realmId,
                ...(door.state ? { state: door.state } : {}),
              }),
        );
      } catch (err) {
        setContinuing(false);
        const code = err instanceof ApiError ? err.code : undefined;
        if (err instanceof ApiError && err.status === 401) {
          clearToken();
          if (silent) return;
        }
        const dead =
          code === ErrorCodes.OAUTH_CHALLENGE_INVALID.code ||
          code === ErrorCodes.OAUTH_CALLBACK_REFUSED.code ||
          code === ErrorCodes.OAUTH_CLIENT_UNAVAILABLE.code;
        if (silent && !dead) return;
        setFatal(dead);
        setError(err instanceof Error ? err.message : String(err));
      }
    },
    [door, follow],
  );

  // What the challenge asks (public).
  useEffect(() => {
    if (!challenge) return;
    getInteraction(challenge).then(setInfo, (err: unknown) => {
      setFatal(true);
      setError(err instanceof Error ? err.message : String(err));
    });
  }, [challenge]);

  // Already signed in to the console: go on without the form, unless the client wants a new sign-in.
  useEffect(() => {
    if (!door || triedSilently.current || !getToken()) return;
    if (door.kind === 'challenge' && (!info || info.forceLogin)) return;
    triedSilently.current = true;
    void proceed(true);
  }, [door, info, proceed]);

  const continueAfterSignIn = () => {
    // the silent attempt is moot once the user signed in here
    triedSilently.current = true;
    void proceed(false);
  };
  return { door, info, continuing, error, fatal, continueAfterSignIn };
}
