/**
 * A realm's OAuth signing keys as the console sees them (issue 12): GET
 * /api/users/realms/:realmId/oauth/keys (domain.query) and POST …/oauth/keys/rotate
 * (domain.update). Never private material; times are ms since the epoch.
 */
import { z } from 'zod';

export const SIGNING_KEY_STATUSES = ['pending', 'active', 'retired'] as const;

export const signingKeyInfo = z.object({
  kid: z.string(),
  alg: z.enum(['ES256', 'RS256']),
  createdAt: z.number(),
  /** signs from this moment (published before: AS-29) */
  useAfter: z.number(),
  /** stops signing at this moment (when its successor starts) */
  retiredAt: z.number().nullable(),
  /** leaves the JWKS at this moment, once every token it signed has expired */
  removeAfter: z.number().nullable(),
  /** pending: published, not yet signing; active: signing; retired: published for verification only */
  status: z.enum(SIGNING_KEY_STATUSES),
});
export type SigningKeyInfo = z.infer<typeof signingKeyInfo>;

export const signingKeyList = z.object({
  /** the realm's discovery document, for the console's developer page */
  discoveryUrl: z.string(),
  keys: z.array(signingKeyInfo),
});
export type SigningKeyList = z.infer<typeof signingKeyList>;
