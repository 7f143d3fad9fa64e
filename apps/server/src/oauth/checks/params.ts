/**
 * Reading authorization request parameters (query or form body) as RFC 6749 §3.1 says:
 * "Parameters sent without a value MUST be treated as if they were omitted" and
 * "Request and response parameters MUST NOT be included more than once".
 */
import { authorizeError } from '../authorize/errors.js';

export interface AuthorizeParams {
  /** the single value of `name`, undefined when absent or empty; throws invalid_request when repeated */
  get(name: string): string | undefined;
  /** true when `name` came more than once */
  repeated(name: string): boolean;
}

export function paramsOf(raw: unknown): AuthorizeParams {
  const bag = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const values = (name: string): string[] => {
    const v = Object.prototype.hasOwnProperty.call(bag, name) ? bag[name] : undefined;
    const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
    return list.filter((x): x is string => typeof x === 'string' && x !== '');
  };
  return {
    get(name) {
      const list = values(name);
      if (list.length > 1) throw authorizeError('invalid_request', `${name} is repeated`);
      return list[0];
    },
    repeated: (name) => values(name).length > 1,
  };
}
