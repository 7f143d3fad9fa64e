/**
 * Request objects are not supported: our discovery document says request_parameter_supported
 * and request_uri_parameter_supported are false (AS-26), and OIDC Core §6 names the errors.
 * We never fetch a request_uri.
 */
import { authorizeError } from '../authorize/errors.js';
import type { AuthorizeParams } from './params.js';

export function checkNoRequestObject(params: AuthorizeParams): void {
  if (params.get('request') !== undefined) throw authorizeError('request_not_supported', 'request objects are not supported');
  if (params.get('request_uri') !== undefined) throw authorizeError('request_uri_not_supported', 'request_uri is not supported');
}
