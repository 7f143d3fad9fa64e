/**
 * The client named by client_id exists in this realm and is enabled. Failing this, the user
 * is told on our own page and never redirected (RFC 6749 §4.1.2.1: "the authorization server
 * SHOULD inform the resource owner of the error and MUST NOT automatically redirect";
 * AS-02): with no trustworthy client there is no trustworthy redirect URI.
 */
import type { OAuthClient } from '../../clients/clients.repo.js';
import { authorizeError } from '../authorize/errors.js';
import type { AuthorizeParams } from './params.js';

export type FindClient = (realmId: string, clientId: string) => Promise<OAuthClient | undefined>;

export async function checkClient(realmId: string, params: AuthorizeParams, findClient: FindClient): Promise<OAuthClient> {
  const clientId = params.get('client_id');
  if (!clientId) throw authorizeError('invalid_request', 'client_id is required');
  if (clientId.length > 128) throw authorizeError('invalid_request', 'unknown client_id');
  const client = await findClient(realmId, clientId);
  if (!client) throw authorizeError('invalid_request', 'unknown client_id');
  if (client.disabled) throw authorizeError('unauthorized_client', 'this client is disabled');
  return client;
}
