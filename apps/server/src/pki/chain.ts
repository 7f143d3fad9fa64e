/**
 * The CA chain an issuance signs under (issue 13): the account CA, the realm intermediate and
 * the platform root, all usable (CA_UNAVAILABLE when one is revoked or expired; a revoked
 * account CA is first replaced by one with a new key).
 *
 * Issuance first signs from this process's last read of the chain (no statement) and stores
 * the certificate only if the database still agrees (certs.insertCertUnder, in the storing
 * statement itself); when it does not — a renewal, revocation, replacement or edit on any
 * instance — or when that copy refuses the request, it is signed again from a fresh read,
 * which is checked the same way. The CA keys stay sealed at rest: the signer of each CA id is
 * unsealed once per process (ca.store.ts), and a CA's key never changes under its id.
 */
import type { Clock } from '../platform/clock.js';
import { ApiError, fail } from '../platform/errors.js';
import type { CaAccount, CaCaller, CaService } from './ca.service.js';
import type { LoadedCa } from './ca.store.js';
import { chainChanged } from './certs.repo.js';
import { statusOfRow } from './status.js';

/** Thrown by the storing step when the chain it was signed under is no longer current. */
export class ChainChanged extends Error {}

/** Rethrows a failed store as ChainChanged when that is why it failed (certs.chainChanged). */
export function asChainChanged(err: unknown): unknown {
  return chainChanged(err) ? new ChainChanged('the CA chain changed while signing') : err;
}

/** Fresh reads after a changed chain before giving up: each one lost a race with a CA change. */
const FRESH_TRIES = 3;

export function createChainRunner(deps: { ca: CaService; clock: Clock }) {
  const { ca: cas, clock } = deps;
  const usable = (chain: LoadedCa[]) => chain.every((c) => statusOfRow(c.certRow, clock.now()) === 'valid');

  /**
   * Runs `sign` (sign and store) under the account's chain: the process's copy first, then
   * fresh reads when the store says the chain changed. Errors of the request itself (validity,
   * …) met with the copy are asked of a fresh read again before they are answered.
   */
  return async function underChain<T>(account: CaAccount, caller: CaCaller, sign: (chain: LoadedCa[]) => Promise<T>): Promise<T> {
    const copy = await cas.accountChain(account, caller, { cached: true });
    if (usable(copy)) {
      try {
        return await sign(copy);
      } catch (err) {
        if (!(err instanceof ChainChanged) && !(err instanceof ApiError)) throw err;
      }
    }
    for (let i = 1; ; i++) {
      const chain = await cas.accountChain(account, caller);
      for (const c of chain) cas.assertUsable(c);
      try {
        return await sign(chain);
      } catch (err) {
        if (!(err instanceof ChainChanged)) throw err;
        if (i >= FRESH_TRIES) throw fail('CA_UNAVAILABLE', { caId: chain[0]!.row.id });
      }
    }
  };
}
