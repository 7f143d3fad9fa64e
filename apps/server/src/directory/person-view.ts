/**
 * How a person account is shown to administrators (SPEC §3 "Person account", "Account
 * centre"): a row becomes the list item or the detail, never carrying the password hash; and
 * the opaque keyset cursors of the list (issue 11).
 */
import type { PersonDetail, PersonItem } from '@umbo/contracts';
import type { Account } from '../accounts/accounts.repo.js';
import type { PersonListRow, PersonSort } from '../accounts/accounts.list.repo.js';
import { fail } from '../platform/errors.js';

export function toPersonItem(r: PersonListRow): PersonItem {
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    phone: r.phone,
    disabled: Number(r.disabled) === 1,
    activated: Number(r.activated) === 1,
    forcePassword: Number(r.force_password) === 1,
    registArea: r.regist_area,
    createdAt: Number(r.created_at),
    lastLoginAt: r.last_login_at === null ? null : Number(r.last_login_at),
  };
}

export function toPersonDetail(a: Account, otpEnabled: boolean): PersonDetail {
  return {
    ...toPersonItem(a),
    realmId: a.realm_id,
    lastLoginArea: a.last_login_area,
    updatedAt: Number(a.updated_at),
    otpEnabled,
    hasPassword: a.password_hash !== null,
  };
}

/** A page boundary: the sort it belongs to, the row's sort value and id, and which way to read. */
export interface Cursor {
  sort: PersonSort;
  value: string | number;
  id: string;
  backwards: boolean;
}

export function sortValue(sort: PersonSort, r: PersonListRow): string | number {
  return sort === 'username' ? r.username_norm : Number(r.created_at);
}

export const encodeCursor = (c: Cursor): string => Buffer.from(JSON.stringify([c.sort, c.value, c.id, c.backwards ? 1 : 0])).toString('base64url');

/** A cursor made by encodeCursor for this sort; anything else is 1009 naming `cursor`. */
export function decodeCursor(text: string, sort: PersonSort): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (Array.isArray(parsed) && parsed.length === 4) {
    const [s, value, id, back] = parsed as unknown[];
    const valueOk = s === 'username' ? typeof value === 'string' && value.length <= 120 : Number.isSafeInteger(value);
    if (s === sort && valueOk && typeof id === 'string' && /^[a-z0-9]{1,64}$/.test(id) && (back === 0 || back === 1)) {
      return { sort, value: value as string | number, id, backwards: back === 1 };
    }
  }
  throw fail('INVALID_PARAMETER', { field: 'cursor', reason: 'not a cursor of this list and sort' });
}
