/** A CA as the API answers it (SPEC §3's CA fields): never its private key. */
import type { CaView } from '@umbo/contracts';
import type { LoadedCa } from './ca.store.js';
import { statusOfRow } from './status.js';

export function caViewOf(ca: LoadedCa, now: number, accountName: string | null): CaView {
  const c = ca.certRow;
  return {
    id: ca.row.id,
    kind: ca.row.kind as CaView['kind'],
    realmId: ca.row.realm_id,
    accountId: ca.row.account_id,
    accountName,
    subject: c.subject,
    issuer: c.issuer,
    sn: c.sn,
    notBeforeTs: c.not_before,
    expireAtTs: c.not_after,
    fingerprint: c.fingerprint,
    keyAlgorithm: ca.row.key_algorithm,
    status: statusOfRow(c, now),
    description: ca.row.description,
    defaultIssueValidPeriod: ca.row.default_issue_days,
    maxIssueValidPeriod: ca.row.max_issue_days,
    certPem: c.cert_pem,
  };
}
