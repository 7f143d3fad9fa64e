/**
 * The console's side of an OAuth sign-in (issue 12, DESIGN.md §4): the authorization endpoint
 * sends the browser to /user/loginSSO?challenge=…; the console reads what the challenge asks
 * (public), proves the user with its own signed-in session, and shows the consent screen when
 * the client needs one. Every answer that moves the browser on carries a URL the server made.
 *
 * A challenge is an opaque, sealed, expiring value (10 minutes): it carries the validated
 * authorization request, so any server instance can resume it.
 */
import { z } from 'zod';

/** The scopes this provider knows (DESIGN.md §5 discovery `scopes_supported`). */
export const OAUTH_SCOPES = ['openid', 'profile', 'email', 'phone', 'offline_access'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/**
 * A sealed value is about 4/3 of the request it carries: usually under 1 KB, at most about 7 KB
 * (redirect_uri 2048, state 2048 and nonce 512 characters at their limits); longer is not ours.
 */
const zChallenge = z.string().min(1).max(16_384);

export const interactionQuery = z.object({ challenge: zChallenge });

/** What a challenge asks, for the sign-in and consent screens (no account data). */
export const interactionInfo = z.object({
  realmId: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  /** the client's login-page tips (SPEC §3 loginTips): plain TEXT, never markup */
  loginTips: z.string(),
  /** "back to the app" (client loginUrl), '' when not set */
  loginUrl: z.string(),
  /** "register" (client registUrl), '' when not set: the realm's own registration then */
  registUrl: z.string(),
  scopes: z.array(z.string()),
  /** the client asks for consent (client setting or prompt=consent); whether THIS user must give it is decided after sign-in */
  consentRequired: z.boolean(),
  /** prompt=login or max_age: a sign-in newer than the request is needed, an existing console session is not enough */
  forceLogin: z.boolean(),
  /** 'login': the authorization request; 'consent': a signed-in user's consent step */
  stage: z.enum(['login', 'consent']),
  expiresAt: z.number(),
});
export type InteractionInfo = z.infer<typeof interactionInfo>;

export const interactionLoginBody = z.object({ challenge: zChallenge }).strict();
export type InteractionLoginBody = z.infer<typeof interactionLoginBody>;

export const interactionConsentBody = z.object({ challenge: zChallenge, approve: z.boolean() }).strict();
export type InteractionConsentBody = z.infer<typeof interactionConsentBody>;

/** SPEC §2 callback_uri links: /user/loginSSO?client_id=…&callback_uri=…&state=…&realm_id=… */
export const interactionCallbackBody = z
  .object({
    client_id: z.string().min(1).max(128),
    callback_uri: z.string().min(1).max(2048),
    state: z.string().max(2048).optional(),
    realm_id: z.string().min(1).max(64),
  })
  .strict();
export type InteractionCallbackBody = z.infer<typeof interactionCallbackBody>;

/**
 * Where the browser goes next: `redirect` → window.location.assign(redirectTo) (the client's
 * registered redirect URI with a code, or with an error such as access_denied);
 * `consent` → /user/consent?challenge=… with the new (consent-stage) challenge.
 */
export const interactionNext = z.discriminatedUnion('next', [
  z.object({ next: z.literal('redirect'), redirectTo: z.string() }),
  z.object({ next: z.literal('consent'), challenge: z.string() }),
]);
export type InteractionNext = z.infer<typeof interactionNext>;
