/**
 * response_type=code only (AS-11; RFC 9700 §2.1.2: the implicit grant and other response types
 * that put tokens in the URL are not offered), answered in the query (response_mode=query,
 * the only mode in our discovery document).
 */
import { authorizeError } from '../authorize/errors.js';
import type { AuthorizeParams } from './params.js';

export function checkResponseType(params: AuthorizeParams): 'code' {
  const type = params.get('response_type');
  if (!type) throw authorizeError('invalid_request', 'response_type is required');
  // RFC 6749 §3.1.1: a space-separated list whose order does not matter; only `code` alone is ours
  if (type !== 'code') throw authorizeError('unsupported_response_type', 'only response_type=code is supported');
  const mode = params.get('response_mode');
  if (mode !== undefined && mode !== 'query') throw authorizeError('invalid_request', 'only response_mode=query is supported');
  return 'code';
}
