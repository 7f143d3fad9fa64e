/**
 * Managed keys of an account (issue 13, account/cert/keys): generated here with node:crypto,
 * the private key sealed with the master key and answered at most once, at generation, when
 * asked (keyPem). Delete is refused while a valid certificate uses the key (KEY_IN_USE).
 */
import crypto, { type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { KeyCreateBody, KeyView } from '@umbo/contracts';
import type { AuditService } from '../audit/audit.service.js';
import type { Clock } from '../platform/clock.js';
import { newId, type Secrets } from '../platform/crypto.js';
import type { Db, Transact } from '../platform/db.js';
import { assertThat } from '../platform/errors.js';
import type { CaAccount, CaCaller } from './ca.service.js';
import type { CertRepo } from './certs.repo.js';
import type { KeyRow, PkiRepo } from './pki.repo.js';
import { sha256Hex } from './profile.js';

const generate = promisify(crypto.generateKeyPair) as (type: string, options: object) => Promise<{ publicKey: KeyObject; privateKey: KeyObject }>;

function newKeyPair(algorithm: KeyCreateBody['algorithm'], strength: string) {
  // off the event loop: an RSA 4096 key takes a second
  if (algorithm === 'RSA') return generate('rsa', { modulusLength: Number(strength) });
  if (algorithm === 'EC') return generate('ec', { namedCurve: strength });
  return generate('ed25519', {});
}

export function createKeysService(deps: { pki: PkiRepo; certs: CertRepo; secrets: Secrets; clock: Clock; audit: AuditService; transact: Transact }) {
  const { pki, certs, secrets, clock, audit, transact } = deps;

  function toView(r: KeyRow, validCertCount: number): KeyView {
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      algorithm: r.algorithm as KeyView['algorithm'],
      strength: r.strength,
      fingerprint: r.fingerprint,
      publicKeyPem: r.public_key_pem,
      validCertCount,
      createdAt: r.created_at,
    };
  }

  async function own(a: CaAccount, keyId: string): Promise<KeyRow> {
    const row = await pki.findKey(a.id, keyId);
    assertThat(row && row.realm_id === a.realmId, 'NOT_FOUND');
    return row;
  }

  return {
    async create(a: CaAccount, body: KeyCreateBody, caller: CaCaller): Promise<KeyView & { keyPem?: string }> {
      const { publicKey, privateKey } = await newKeyPair(body.algorithm, body.strength);
      const spki = publicKey.export({ format: 'der', type: 'spki' });
      const pkcs8Pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      const row: KeyRow = {
        id: newId(),
        realm_id: a.realmId,
        account_id: a.id,
        name: body.name,
        description: body.description,
        algorithm: body.algorithm,
        strength: body.strength,
        fingerprint: sha256Hex(spki),
        public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
        private_sealed: secrets.encrypt(pkcs8Pem),
        created_at: clock.now(),
      };
      await transact(async (trx) => {
        // the unique (account, name) decides among parallel creations: one key, the others 1108
        assertThat(await pki.insertKey(row, trx), 'KEY_NAME_EXISTS');
        await audit.record(
          {
            realmId: a.realmId,
            actor: caller.actor,
            action: 'pki.key.create',
            target: { type: 'pki_key', id: row.id, name: row.name },
            result: 'ok',
            request: caller.request,
            detail: { algorithm: row.algorithm, strength: row.strength },
          },
          trx,
        );
      });
      return { ...toView(row, 0), ...(body.returnPrivateKey ? { keyPem: pkcs8Pem } : {}) };
    },

    async list(a: CaAccount): Promise<KeyView[]> {
      const rows = (await pki.listKeys(a.id)).filter((r) => r.realm_id === a.realmId);
      const counts = await certs.validCountByKey(
        rows.map((r) => r.id),
        clock.now(),
      );
      return rows.map((r) => toView(r, counts.get(r.id) ?? 0));
    },

    async get(a: CaAccount, keyId: string): Promise<KeyView> {
      const row = await own(a, keyId);
      const counts = await certs.validCountByKey([row.id], clock.now());
      return toView(row, counts.get(row.id) ?? 0);
    },

    /** The key row (issue.ts: issuance from a managed key). */
    own,

    /**
     * Inside the transaction that stores a certificate for the key: the key row locked and still
     * there (1004 when a delete won), so no certificate ever names a deleted key.
     */
    async lockIn(a: CaAccount, keyId: string, trx: Db): Promise<void> {
      assertThat(await pki.lockKey(a.id, keyId, trx), 'NOT_FOUND');
    },

    /** The private key of a managed key, for issuance tools inside the server; never answered after creation. */
    privateKeyOf(row: KeyRow): KeyObject {
      return crypto.createPrivateKey(secrets.decrypt(row.private_sealed));
    },

    async remove(a: CaAccount, keyId: string, caller: CaCaller): Promise<void> {
      const row = await own(a, keyId);
      await transact(async (trx) => {
        // the key row first: an issuance storing a certificate for it finishes before the count (PostgreSQL)
        assertThat(await pki.lockKey(a.id, row.id, trx), 'NOT_FOUND');
        const counts = await certs.validCountByKey([row.id], clock.now(), trx);
        assertThat(!counts.get(row.id), 'KEY_IN_USE', { validCertCount: counts.get(row.id) ?? 0 });
        assertThat(await pki.deleteKey(a.id, row.id, trx), 'NOT_FOUND');
        await audit.record(
          {
            realmId: a.realmId,
            actor: caller.actor,
            action: 'pki.key.delete',
            target: { type: 'pki_key', id: row.id, name: row.name },
            result: 'ok',
            request: caller.request,
          },
          trx,
        );
      });
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
