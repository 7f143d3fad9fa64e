/**
 * The wire shapes of the upstream OpenID sign-in routes (issue 14). Kept beside the routes:
 * the console reads the button, the exchange answer (loginResult) and the links (personFederatedLink),
 * the last two from contracts.
 */
import { personFederatedLink, zRealmId } from '@umbo/contracts';
import { z } from 'zod';

export const upstreamRealmParams = z.object({ realmId: zRealmId });

/** Where the console goes after the sign-in: an OAuth challenge of our provider and the console's own `redirect`. */
export const upstreamStartQuery = z.object({
  challenge: z.string().max(4096).optional(),
  redirect: z.string().max(2048).optional(),
});

/** The callback's query as the upstream sends it (RFC 6749 §4.1.2, §4.1.2.1, RFC 9207 iss); read whole by openid-client. */
export const upstreamCallbackQuery = z.record(z.string(), z.string().max(8192));

export const upstreamButton = z.object({
  button: z.object({ name: z.string(), icon: z.string() }).nullable(),
});

/** `otp`: the one-time password, when the account has it on (1503 empty: send the same ticket again with it; 1502 wrong) */
export const upstreamExchangeBody = z.strictObject({ ticket: z.string().min(1).max(200), otp: z.string().max(16).optional() });

export const federatedLinkParams = z.object({ realmId: zRealmId, id: z.string().min(1).max(64) });
export const federatedLinkDeleteParams = federatedLinkParams.extend({ linkId: z.string().min(1).max(64) });

/** The console reads this answer: the one link shape is in contracts (people.ts). */
export const federatedLinks = z.array(personFederatedLink);
