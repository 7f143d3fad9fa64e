/**
 * The client may use the authorization code grant at all (AS-11: "each client only gets the
 * grants it needs"; RFC 6749 §4.1.2.1 unauthorized_client).
 */
import type { OAuthClient } from '../../clients/clients.repo.js';
import { authorizeError } from '../authorize/errors.js';

export function checkCodeGrantAllowed(client: OAuthClient): void {
  if (!client.grantTypes.includes('authorization_code')) {
    throw authorizeError('unauthorized_client', 'this client may not use the authorization code grant');
  }
}
