/**
 * The public PKI paths (issue 13) on SQLite and PostgreSQL, as a device, a broker or a cache
 * sees them: a path under /pki we do not serve is a plain 404 (never the console's HTML page,
 * which a client would take for a CRL or a certificate), and an OCSP GET without a request
 * (nothing after …/ocsp, a trailing '/', an empty body) is an OCSP malformedRequest.
 */
import { pkiPaths, type CaView } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { pkiUser } from './pki.testkit.js';

/** OCSPResponse { responseStatus malformedRequest(1) }, RFC 6960 §4.2.1 */
const MALFORMED = '30030a0101';

describeBothDbs('pki public paths', (h) => {
  it('unknown paths under /pki answer 404 text/plain, not the console page; known ones still answer', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const ca = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    const unknown = [
      '/pki',
      '/pki/',
      '/pki/nothing',
      '/pki/realms',
      `/pki/realms/${realmId}`,
      `/pki/realms/${realmId}/cas`,
      `/pki/realms/${realmId}/cas/${ca.id}`,
      `/pki/realms/${realmId}/cas/${ca.id}.pem`,
      `/pki/realms/${realmId}/cas/${ca.id}.crl/extra`,
      `/pki/realms/${realmId}/cas/${ca.id}/ocsp-not`,
      '/pki/realms/no-such-realm/cas/x.crl?download=1',
    ];
    for (const url of unknown) {
      const res = await as(h()).get(url);
      expect(res.status, url).toBe(404);
      expect(String(res.headers['content-type']), url).toMatch(/^text\/plain/);
      expect(res.text, url).not.toMatch(/<html/i);
    }
    // the console's own routes still get the page, and the real files are still served
    expect(String((await as(h()).get('/account/domain/cert')).headers['content-type'])).toMatch(/^text\/html/);
    const crl = await as(h()).get(pkiPaths.publicCrl(realmId, ca.id));
    expect(crl.status).toBe(200);
    expect(crl.headers['content-type']).toBe('application/pkix-crl');
    expect((await as(h()).get(pkiPaths.publicCaCert(realmId, ca.id))).status).toBe(200);
  });

  it('an OCSP GET with nothing after …/ocsp, a trailing "/" or a request that is not base64, and an empty POST: malformedRequest, HTTP 200', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const ca = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    const ocsp = pkiPaths.publicOcsp(realmId, ca.id);
    for (const url of [ocsp, `${ocsp}/`, `${ocsp}//`, `${ocsp}/%20`, `${ocsp}/not*base64`]) {
      const res = await as(h()).get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('application/ocsp-response');
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.raw.toString('hex'), url).toBe(MALFORMED);
    }
    const empty = await as(h()).post(ocsp, '', { headers: { 'content-type': 'application/ocsp-request' } });
    expect(empty.status).toBe(200);
    expect(empty.raw.toString('hex')).toBe(MALFORMED);
  });
});
