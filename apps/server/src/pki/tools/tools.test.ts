/**
 * The certificate tools over HTTP on both databases (issue 13): `tools.query` decides (1003
 * without it), conversions and views answer through the envelope, and bad input — truncated
 * PEM, binary garbage, a 10 MB body, a wrong PKCS#12 password — is a clear code, never a 500,
 * and stores nothing (the tools are stateless).
 */
import { pkiPaths } from '@umbo/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { holder, snapshot } from '../../perm/roles.testkit.js';
import { describeBothDbs } from '../../test/harness.js';
import { as, createPerson, createRealm, tokenFor } from '../../test/kit.js';
import { makeCa, makeLeaf, workdir, type Workdir } from './tools.testkit.js';

const PASSWORD = 'p12-Passw0rd';

describeBothDbs('tools: convert and view over HTTP', (h) => {
  let w: Workdir;
  let leaf: { certPem: string; keyPem: string; csrPem: string };
  let caPem: string;

  beforeAll(() => {
    w = workdir();
    caPem = makeCa(w, 'ca', 'ec').certPem;
    leaf = makeLeaf(w, 'dev', 'rsa', 'ca');
  });
  afterAll(() => w?.dispose());

  it('an account without tools.query is refused 1003 on every tool; a realm-viewer (tools.query) is served', async () => {
    const realmId = await createRealm(h());
    const nobody = await createPerson(h(), { realmId });
    const token = await tokenFor(h(), nobody);
    const calls: [string, object][] = [
      [pkiPaths.convert, { from: 'pem', to: 'der', input: leaf.certPem }],
      [pkiPaths.viewCert, { pem: leaf.certPem }],
      [pkiPaths.viewCsr, { pem: leaf.csrPem }],
    ];
    for (const [url, body] of calls) {
      const refused = await as(h(), token).post(url, body);
      expect(refused.status, url).toBe(403);
      expect(refused.body, url).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'tools', perm: 'query' } });
      expect(refused.body.data, url).toBeUndefined();
      expect((await as(h()).post(url, body)).body.code, url).toBe(1001);
    }
    const viewer = await holder(h(), realmId, 'realm-viewer');
    for (const [url, body] of calls) {
      const served = await as(h(), viewer.token).post(url, body);
      expect(served.status, `${url}: ${JSON.stringify(served.body)}`).toBe(200);
      expect(served.headers['cache-control']).toBe('no-store');
    }
  });

  it('convert certificate + key → PKCS#12 → PEM through the API; openssl opens the PKCS#12 without -legacy', async () => {
    const token = await h().login();
    const p12 = await as(h(), token).post(pkiPaths.convert, {
      from: 'pem',
      to: 'pkcs12',
      input: leaf.certPem + caPem,
      keyPem: leaf.keyPem,
      password: PASSWORD,
    });
    expect(p12.status, JSON.stringify(p12.body)).toBe(200);
    expect(p12.body.data).toMatchObject({ fileName: 'certificate.p12', mediaType: 'application/x-pkcs12' });
    w.write('api.p12', Buffer.from(p12.body.data.base64, 'base64'));
    expect(w.openssl(['pkcs12', '-in', 'api.p12', '-passin', `pass:${PASSWORD}`, '-nodes', '-clcerts', '-nokeys'])).toContain(leaf.certPem.trim());

    const pem = await as(h(), token).post(pkiPaths.convert, { from: 'pkcs12', to: 'pem', input: p12.body.data.base64, password: PASSWORD });
    expect(pem.status).toBe(200);
    expect(pem.body.data.text).toContain(leaf.certPem);
    expect(pem.body.data.text).toContain('-----BEGIN PRIVATE KEY-----');

    const view = await as(h(), token).post(pkiPaths.viewCert, { pem: leaf.certPem });
    const fields = Object.fromEntries(
      view.body.data.groups.flatMap((g: { fields: { label: string; value: string }[] }) => g.fields.map((f) => [f.label, f.value])),
    );
    expect(fields).toMatchObject({
      Subject: 'O=Umbo Test, CN=dev.example',
      Size: '2048 bits',
      'Subject alternative name (2.5.29.17)': 'DNS: dev.example, IP: 10.0.0.7, email: dev@dev.example',
    });
    const csr = await as(h(), token).post(pkiPaths.viewCsr, { pem: leaf.csrPem });
    expect(csr.body.data.kind).toBe('csr');
  });

  it('bad input is a clear code, never a 500, and nothing is stored: truncated PEM, garbage, 10 MB, wrong password', async () => {
    const token = await h().login();
    const before = await snapshot(h());
    const lines = leaf.certPem.trim().split('\n');
    const truncated = [...lines.slice(0, 5), lines.at(-1)].join('\n');
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) % 251));
    const p12 = (await as(h(), token).post(pkiPaths.convert, { from: 'pem', to: 'pkcs12', input: leaf.certPem, keyPem: leaf.keyPem, password: PASSWORD })).body
      .data.base64;

    const cases: [string, string, object | string, number, number][] = [
      ['truncated PEM (view)', pkiPaths.viewCert, { pem: truncated }, 400, 1102],
      ['truncated PEM (convert)', pkiPaths.convert, { from: 'pem', to: 'der', input: truncated }, 400, 1102],
      ['no END line', pkiPaths.viewCsr, { pem: leaf.csrPem.trim().split('\n').slice(0, -1).join('\n') }, 400, 1102],
      ['empty certificate', pkiPaths.viewCert, { pem: '' }, 400, 1101],
      ['empty CSR', pkiPaths.viewCsr, { pem: '   ' }, 400, 1100],
      ['garbage as text', pkiPaths.viewCert, { pem: garbage.toString('latin1') }, 400, 1102],
      ['garbage as DER', pkiPaths.convert, { from: 'der', to: 'pem', input: garbage.toString('base64') }, 400, 1102],
      ['garbage as PKCS#12', pkiPaths.convert, { from: 'pkcs12', to: 'pem', input: garbage.toString('base64'), password: PASSWORD }, 400, 1102],
      ['garbage as PKCS#7', pkiPaths.convert, { from: 'pkcs7', to: 'pem', input: garbage.toString('base64') }, 400, 1102],
      ['wrong PKCS#12 password', pkiPaths.convert, { from: 'pkcs12', to: 'pem', input: p12, password: 'Wrong-password' }, 400, 1113],
      ['unknown field', pkiPaths.convert, { from: 'pem', to: 'der', input: leaf.certPem, extra: 1 }, 400, 1009],
    ];
    for (const [name, url, body, status, code] of cases) {
      const res = await as(h(), token).post(url, body);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.body.code, name).toBe(code);
    }

    // the body itself: raw binary, and 10 MB — refused before any parsing
    const raw = await h().app.inject({
      method: 'POST',
      url: pkiPaths.convert,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: garbage,
    });
    expect(raw.statusCode).toBe(400);
    const big = JSON.stringify({ from: 'pem', to: 'der', input: 'A'.repeat(10 * 1024 * 1024) });
    for (const url of [pkiPaths.convert, pkiPaths.viewCert, pkiPaths.viewCsr]) {
      const res = await as(h(), token).post(url, big, { headers: { 'content-type': 'application/json' } });
      expect(res.status, url).toBe(413);
      expect(res.body.code, url).toBe(1013);
    }
    expect(await snapshot(h())).toEqual(before);
  });
});
