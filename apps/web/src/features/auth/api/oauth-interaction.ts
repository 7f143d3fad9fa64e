/**
 * The console's side of an OAuth sign-in (contracts oauth-interaction.ts): what a challenge
 * asks, and the calls that move it on with the console's own session. Plain fetch through the
 * API client (light pages: no TanStack Query, no zod; types only from contracts).
 */
import type { InteractionCallbackBody, InteractionInfo, InteractionNext } from '@umbo/contracts/oauth-interaction';
import { oauthInteractionPaths } from '@umbo/contracts/paths';
import { api } from '../../../lib/api-client';

// authCall: a 401 here means "sign in again" on this very page, not "reload the console".
const auth = { authCall: true } as const;

export const getInteraction = (challenge: string) => api.get<InteractionInfo>(`${oauthInteractionPaths.info}?challenge=${encodeURIComponent(challenge)}`, auth);

export const interactionLogin = (challenge: string) => api.post<InteractionNext>(oauthInteractionPaths.login, { challenge }, auth);

export const interactionConsent = (challenge: string, approve: boolean) =>
  api.post<InteractionNext>(oauthInteractionPaths.consent, { challenge, approve }, auth);

export const interactionCallback = (body: InteractionCallbackBody) => api.post<InteractionNext>(oauthInteractionPaths.callback, body, auth);

/**
 * Where the browser goes when the server says so: an absolute http(s) URL the server made (the
 * client's registered redirect URI). Anything else is not followed (A-41: never javascript:).
 */
export function leaveTo(url: string, how: 'assign' | 'replace' = 'assign'): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  window.location[how](url);
  return true;
}

/** A client's login/regist URL shown as a link only when it is plain http(s). */
export const httpUrl = (url: string | undefined): string | undefined => (url && /^https?:\/\/[^\s]+$/i.test(url) ? url : undefined);
