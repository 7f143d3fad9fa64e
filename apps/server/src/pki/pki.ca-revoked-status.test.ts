/**
 * Certificates under a revoked CA (issue 13) on SQLite and PostgreSQL: a leaf that is not
 * revoked itself but whose account CA (or realm intermediate) is, is refused by relying parties
 * with its chain — the list and the detail say so (status caRevoked) rather than "valid", and
 * the status filter finds each certificate under exactly the status it shows. OCSP answers each
 * certificate's own status at its issuer (RFC 6960): the leaf is good at the revoked CA, the CA
 * revoked at the intermediate.
 */
import { CERT_STATUSES, pkiPaths, type CaView, type CertView } from '@umbo/contracts';
import { beforeAll, expect, it } from 'vitest';
import { holder } from '../perm/roles.testkit.js';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, createRealm, tokenFor } from '../test/kit.js';
import { issueFromCsr, makeCsr, pkiUser, tmpDir } from './pki.testkit.js';

const DAY = 86_400_000;

describeBothDbs('pki certificates under a revoked CA', (h) => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir();
  });

  /** The status each certificate shows in the list, by CN, and the CNs each status filter finds. */
  async function statuses(h: Harness, token: string) {
    const api = as(h, token);
    const all = (await api.get(`${pkiPaths.certs}?limit=100`)).body.data.items as CertView[];
    const shown = Object.fromEntries(all.map((c) => [c.cn, c.status]));
    const filtered: Record<string, string[]> = {};
    for (const s of CERT_STATUSES) {
      const res = await api.get(`${pkiPaths.certs}?status=${s}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      filtered[s] = (res.body.data.items as CertView[]).map((c) => c.cn).sort();
    }
    return { shown, filtered };
  }

  it('a revoked account CA: its leaves show caRevoked in list and detail, its own-revoked leaf stays revoked, a new leaf is valid; each filter finds exactly those', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const ca = (await api.get(pkiPaths.ca)).body.data as CaView;
    const live = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'live').csrPem, 'live');
    const later = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'later').csrPem, 'later', { notBeforeTs: h().clock.now() + 2 * DAY });
    const own = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'own').csrPem, 'own');
    expect((await api.post(pkiPaths.certRevoke(own.id), { reason: 'superseded' })).status).toBe(200);
    expect((await statuses(h(), u.token)).shown).toEqual({ live: 'valid', later: 'pending', own: 'revoked' });

    h().clock.advance(60_000);
    const revoked = await as(h(), admin.token).post(pkiPaths.realmAccountCaRevoke(realmId, ca.id), { reason: 'keyCompromise' });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    // the next issuance replaces the CA (new key): its leaf is valid
    const fresh = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'fresh').csrPem, 'fresh');

    const { shown, filtered } = await statuses(h(), u.token);
    expect(shown).toEqual({ live: 'caRevoked', later: 'caRevoked', own: 'revoked', fresh: 'valid' });
    expect(filtered).toEqual({ valid: ['fresh'], expired: [], revoked: ['own'], caRevoked: ['later', 'live'], pending: [] });
    const detail = await api.get(pkiPaths.cert(live.id));
    expect(detail.body.data).toMatchObject({ status: 'caRevoked', revokeStatus: { revoked: false, reason: null, revokedAtTs: null } });
    expect((await api.get(pkiPaths.cert(fresh.id))).body.data).toMatchObject({ status: 'valid' });

    // OCSP, RFC 6960: each certificate's own status, asked of its issuer
    const chain = (await as(h(), admin.token).get(pkiPaths.realmChain(realmId))).body.data as { intermediate: CaView };
    const pkiCerts = h().ctx.services.pkiCerts;
    expect(await pkiCerts.statusOf(realmId, ca.id, live.sn)).toEqual({ status: 'good' });
    expect(await pkiCerts.statusOf(realmId, chain.intermediate.id, ca.sn)).toMatchObject({ status: 'revoked', reason: 'keyCompromise' });

    // past its end the leaf under the revoked CA still shows why it was refused first
    h().clock.advance(400 * DAY);
    expect((await statuses(h(), await tokenFor(h(), u))).filtered).toMatchObject({ caRevoked: ['later', 'live'], expired: ['fresh'], valid: [] });
  });

  it('a revoked realm intermediate: the leaves of every account CA under it show caRevoked', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const leaf = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'deep').csrPem, 'deep');
    const chain = (await as(h(), admin.token).get(pkiPaths.realmChain(realmId))).body.data as { intermediate: CaView };
    // no route revokes an intermediate today: the operator's revocation is this row update
    await h()
      .dbh.db.updateTable('pki_certs')
      .set({ revoked_at: h().clock.now(), revoke_reason: 'cACompromise' })
      .where('subject_ca_id', '=', chain.intermediate.id)
      .execute();
    expect((await as(h(), u.token).get(pkiPaths.cert(leaf.id))).body.data).toMatchObject({ status: 'caRevoked' });
    expect((await statuses(h(), u.token)).filtered).toMatchObject({ caRevoked: ['deep'], valid: [] });
  });
});
