/** Keyset cursors of the PKI lists (CAs, certificates, issue records): creation time and id, opaque to clients. */
import { assertThat } from '../platform/errors.js';

export const encodeCursor = (at: number, id: string) => Buffer.from(`${at}:${id}`).toString('base64url');
export function decodeCursor(cursor: string | undefined): { at: number; id: string } | undefined {
  if (!cursor) return undefined;
  const m = /^(\d{1,16}):([A-Za-z0-9]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString());
  assertThat(m, 'INVALID_PARAMETER', { field: 'cursor' });
  return { at: Number(m[1]), id: m[2]! };
}
