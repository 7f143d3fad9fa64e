/**
 * prompt and max_age (OIDC Core §3.1.2.1):
 *   - prompt is a space-separated list of none, login, consent, select_account; `none` with
 *     any other value is an error; select_account is accepted and needs nothing here (one
 *     account per browser session);
 *   - max_age is a non-negative integer of seconds; 0 means "authenticate now", like prompt=login.
 */
import { authorizeError } from '../authorize/errors.js';
import type { AuthorizeParams } from './params.js';

const PROMPTS: ReadonlySet<string> = new Set(['none', 'login', 'consent', 'select_account']);

export function checkPrompt(params: AuthorizeParams): { prompt: string[]; maxAge: number | undefined } {
  const prompt = [...new Set((params.get('prompt') ?? '').split(' ').filter(Boolean))];
  for (const p of prompt) if (!PROMPTS.has(p)) throw authorizeError('invalid_request', `unsupported prompt value ${p.slice(0, 40)}`);
  if (prompt.includes('none') && prompt.length > 1) throw authorizeError('invalid_request', 'prompt=none cannot be combined with other values');
  const rawMaxAge = params.get('max_age');
  let maxAge: number | undefined;
  if (rawMaxAge !== undefined) {
    if (!/^\d{1,10}$/.test(rawMaxAge)) throw authorizeError('invalid_request', 'max_age must be a non-negative integer');
    maxAge = Number(rawMaxAge);
  }
  return { prompt, maxAge };
}
