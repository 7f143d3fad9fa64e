/**
 * The OCSP responder judged by `openssl ocsp` (issue 13 "Tests"), over openssl-made CAs behind
 * the `OcspSource` interface: the HTTP routes alone on a loopback port, no database (the suite
 * through the real API is ocsp.api.test.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as asn1js from 'asn1js';
import Fastify, { type FastifyInstance } from 'fastify';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../platform/clock.js';
import { registerOcspRoutes } from './ocsp.routes.js';
import { makeLeaf, makeRoot, ocspQuery, openssl, type KeySpec, type Made } from './ocsp.testkit.js';
import { createOcspResponder, type OcspCertStatus, type OcspSource } from './responder.js';

const REALM = 'r1';
const MEDIA = 'application/ocsp-response';
/** pkiPaths.publicOcsp; the suite through the API (ocsp.api.test.ts) uses the contract's */
const ocspPath = (realmId: string, caId: string) => `/pki/realms/${realmId}/cas/${caId}/ocsp`;

interface Fixture {
  dir: string;
  app: FastifyInstance;
  base: string;
  clock: FakeClock;
  cas: Map<string, Made>;
  statuses: Map<string, OcspCertStatus>;
  failing: { on: boolean };
}

/** OCSPResponse → its responseStatus and, when successful, the BasicOCSPResponse. */
function decode(der: Uint8Array) {
  const resp = pkijs.OCSPResponse.fromBER(der);
  const status = resp.responseStatus.valueBlock.valueDec;
  const basic = resp.responseBytes ? pkijs.BasicOCSPResponse.fromBER(resp.responseBytes.response.valueBlock.valueHexView) : undefined;
  return { status, basic };
}

function requestDer(f: Fixture, ca: string, leaf: string, extra: string[] = []): Buffer {
  const out = path.join(f.dir, `req-${crypto.randomBytes(4).toString('hex')}.der`);
  openssl(['ocsp', ...extra, '-issuer', path.join(f.dir, `${ca}.pem`), '-cert', path.join(f.dir, `${leaf}.pem`), '-reqout', out]);
  return fs.readFileSync(out);
}

describe('OCSP responder (RFC 6960) judged by openssl', () => {
  const f = {} as Fixture;
  const url = (caId: string, realmId = REALM) => `${f.base}${ocspPath(realmId, caId)}`;

  beforeAll(async () => {
    f.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-ocsp-'));
    f.cas = new Map();
    f.statuses = new Map();
    f.failing = { on: false };
    f.clock = new FakeClock(Date.now());
    for (const [name, key] of [
      ['ecCa', 'ec256'],
      ['p384Ca', 'ec384'],
      ['rsaCa', 'rsa2048'],
      ['otherCa', 'ec256'],
    ] as [string, KeySpec][]) {
      f.cas.set(name, makeRoot(f.dir, name, key));
    }
    for (const [leaf, ca] of [
      ['ecLeaf', 'ecCa'],
      ['ecLeaf2', 'ecCa'],
      ['p384Leaf', 'p384Ca'],
      ['rsaLeaf', 'rsaCa'],
      ['otherLeaf', 'otherCa'],
    ]) {
      const made = makeLeaf(f.dir, f.cas.get(ca!)!, leaf!);
      f.statuses.set(`${ca}/${made.serial}`, { status: 'good' });
    }
    const source: OcspSource = {
      async ca(realmId, caId) {
        if (f.failing.on) throw new Error('database unavailable');
        const made = realmId === REALM ? f.cas.get(caId) : undefined;
        if (!made) return undefined;
        return { certDer: new crypto.X509Certificate(made.certPem).raw, privateKey: crypto.createPrivateKey(made.keyPem) };
      },
      async certStatus(_realmId, caId, serial) {
        return f.statuses.get(`${caId}/${serial}`) ?? { status: 'unknown' };
      },
    };
    f.app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
    registerOcspRoutes(f.app, { ocsp: createOcspResponder({ source, clock: f.clock }) });
    await f.app.listen({ port: 0, host: '127.0.0.1' });
    f.base = `http://127.0.0.1:${(f.app.server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await f.app?.close();
    if (f.dir) fs.rmSync(f.dir, { recursive: true, force: true });
  });

  const leafSerial = (name: string) => new crypto.X509Certificate(fs.readFileSync(path.join(f.dir, `${name}.pem`))).serialNumber;
  const decimal = (name: string) => BigInt(`0x${leafSerial(name)}`).toString(10);
  const query = (ca: string, leaf: string, extra: string[] = []) =>
    ocspQuery({
      issuerPath: path.join(f.dir, `${ca}.pem`),
      certPath: path.join(f.dir, `${leaf}.pem`),
      url: url(ca),
      caFile: path.join(f.dir, `${ca}.pem`),
      extra,
    });

  it.each([
    ['ecCa', 'ecLeaf'],
    ['p384Ca', 'p384Leaf'],
    ['rsaCa', 'rsaLeaf'],
  ])('%s: openssl ocsp says good, verifies the CA-signed response and its nonce', async (ca, leaf) => {
    const r = await query(ca, leaf);
    expect(r.out).toContain('Response verify OK');
    expect(r.out).toMatch(new RegExp(`${leaf}\\.pem: good`));
    expect(r.out).toContain('This Update:');
    expect(r.out).toContain('Next Update:');
    // openssl sends a nonce by default and warns when the answer lacks it
    expect(r.out).not.toMatch(/nonce/i);
    expect(r.code).toBe(0);
  });

  it('revoked with its time and reason; unspecified reason is left out', async () => {
    const revokedAt = Date.UTC(2026, 2, 3, 4, 5, 6);
    f.statuses.set(`ecCa/${decimal('ecLeaf2')}`, { status: 'revoked', revokedAt, reason: 'keyCompromise' });
    let r = await query('ecCa', 'ecLeaf2');
    expect(r.out).toContain('Response verify OK');
    expect(r.out).toMatch(/ecLeaf2\.pem: revoked/);
    expect(r.out).toContain('Reason: keyCompromise');
    expect(r.out).toContain('Revocation Time: Mar  3 04:05:06 2026 GMT');

    f.statuses.set(`ecCa/${decimal('ecLeaf2')}`, { status: 'revoked', revokedAt, reason: 'unspecified' });
    r = await query('ecCa', 'ecLeaf2');
    expect(r.out).toMatch(/ecLeaf2\.pem: revoked/);
    expect(r.out).not.toContain('Reason:');
  });

  it('unknown: a serial the CA did not issue, and a CertID naming another issuer', async () => {
    // otherLeaf's serial asked of ecCa with otherCa's hashes: not this CA's name/key hashes
    const foreign = await ocspQuery({
      issuerPath: path.join(f.dir, 'otherCa.pem'),
      certPath: path.join(f.dir, 'otherLeaf.pem'),
      url: url('ecCa'),
      caFile: path.join(f.dir, 'ecCa.pem'),
    });
    expect(foreign.out).toMatch(/otherLeaf\.pem: unknown/);
    // (openssl rightly refuses to verify it: ecCa is no authority for otherCa's certificates)
    // the same serial under ecCa's own name and key hashes: ecCa never issued it
    const unknown = await ocspQuery({
      issuerPath: path.join(f.dir, 'ecCa.pem'),
      certPath: path.join(f.dir, 'otherLeaf.pem'),
      url: url('ecCa'),
      caFile: path.join(f.dir, 'ecCa.pem'),
    });
    expect(unknown.out).toMatch(/otherLeaf\.pem: unknown/);
  });

  it('SHA-256 CertIDs are answered too, with the CertID echoed', async () => {
    const req = requestDer(f, 'ecCa', 'ecLeaf', ['-sha256']);
    const res = await fetch(url('ecCa'), { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: req });
    const { status, basic } = decode(new Uint8Array(await res.arrayBuffer()));
    expect(status).toBe(0);
    const single = basic!.tbsResponseData.responses[0]!;
    expect(single.certID.hashAlgorithm.algorithmId).toBe('2.16.840.1.101.3.4.2.1');
    expect(single.certStatus.idBlock.tagNumber).toBe(0); // good
    expect(Buffer.from(single.certID.serialNumber.valueBlock.valueHexView).toString('hex').toUpperCase()).toBe(leafSerial('ecLeaf'));
  });

  it('thisUpdate/producedAt follow the clock; nextUpdate is later; responder named by key hash', async () => {
    const at = Date.UTC(2026, 5, 1, 12, 0, 0);
    f.clock.set(at);
    const res = await fetch(url('ecCa'), { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: requestDer(f, 'ecCa', 'ecLeaf') });
    const { basic } = decode(new Uint8Array(await res.arrayBuffer()));
    const single = basic!.tbsResponseData.responses[0]!;
    expect(single.thisUpdate.getTime()).toBe(at);
    expect(basic!.tbsResponseData.producedAt.getTime()).toBe(at);
    expect(single.nextUpdate!.getTime()).toBeGreaterThan(at);
    const keyBits = pkijs.Certificate.fromBER(new crypto.X509Certificate(f.cas.get('ecCa')!.certPem).raw).subjectPublicKeyInfo.subjectPublicKey.valueBlock
      .valueHexView;
    const byKey = basic!.tbsResponseData.responderID as asn1js.OctetString;
    expect(Buffer.from(byKey.valueBlock.valueHexView)).toEqual(crypto.createHash('sha1').update(keyBits).digest());
    expect(basic!.certs ?? []).toHaveLength(0);
    f.clock.set(Date.now());
  });

  it('GET with the base64 request in the path (URL-encoded or not) answers like POST, cacheable without nonce', async () => {
    const der = requestDer(f, 'ecCa', 'ecLeaf', ['-no_nonce']);
    const b64 = der.toString('base64');
    for (const p of [encodeURIComponent(b64), b64]) {
      const res = await fetch(`${url('ecCa')}/${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(MEDIA);
      expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
      const body = Buffer.from(await res.arrayBuffer());
      const out = path.join(f.dir, 'get-resp.der');
      fs.writeFileSync(out, body);
      const shown = openssl(
        ['ocsp', '-respin', out, '-issuer', path.join(f.dir, 'ecCa.pem'), '-cert', path.join(f.dir, 'ecLeaf.pem'), '-CAfile', path.join(f.dir, 'ecCa.pem')],
        {
          allowFail: true,
        },
      );
      expect(shown.out).toContain('Response verify OK');
      expect(shown.out).toMatch(/ecLeaf\.pem: good/);
    }
    // with a nonce the answer is for this asker only
    const withNonce = await fetch(`${url('ecCa')}/${encodeURIComponent(requestDer(f, 'ecCa', 'ecLeaf').toString('base64'))}`);
    expect(withNonce.headers.get('cache-control')).toBe('no-store');
  });

  it('several CertIDs in one request each get their answer', async () => {
    const out = path.join(f.dir, 'multi.der');
    openssl([
      'ocsp',
      '-issuer',
      path.join(f.dir, 'ecCa.pem'),
      '-cert',
      path.join(f.dir, 'ecLeaf.pem'),
      '-cert',
      path.join(f.dir, 'ecLeaf2.pem'),
      '-reqout',
      out,
    ]);
    f.statuses.set(`ecCa/${decimal('ecLeaf2')}`, { status: 'revoked', revokedAt: Date.now() - 1000, reason: 'superseded' });
    const res = await fetch(url('ecCa'), { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: fs.readFileSync(out) });
    const { basic } = decode(new Uint8Array(await res.arrayBuffer()));
    expect(basic!.tbsResponseData.responses.map((r) => r.certStatus.idBlock.tagNumber)).toEqual([0, 1]);
  });

  it('malformed requests: garbage, empty, truncated, trailing bytes, bad base64, oversized nonce → malformedRequest, 200, never a 500', async () => {
    const good = requestDer(f, 'ecCa', 'ecLeaf');
    const bodies = [
      Buffer.from('not a request'),
      Buffer.alloc(0),
      good.subarray(0, good.length - 3),
      Buffer.concat([good, Buffer.from([0])]),
      crypto.randomBytes(300),
    ];
    for (const body of bodies) {
      const res = await fetch(url('ecCa'), { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(MEDIA);
      expect(decode(new Uint8Array(await res.arrayBuffer())).status).toBe(1);
    }
    // a 33-octet nonce (RFC 8954 §2.1: 1–32)
    const longNonce = requestDer(f, 'ecCa', 'ecLeaf', ['-nonce']);
    const parsed = pkijs.OCSPRequest.fromBER(longNonce);
    parsed.tbsRequest.requestExtensions![0]!.extnValue = new asn1js.OctetString({
      valueHex: new asn1js.OctetString({ valueHex: crypto.randomBytes(33) }).toBER(),
    });
    const tbs = parsed.tbsRequest.toSchema(true);
    const forged = Buffer.from(new asn1js.Sequence({ value: [tbs] }).toBER());
    const res = await fetch(url('ecCa'), { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: forged });
    expect(decode(new Uint8Array(await res.arrayBuffer())).status).toBe(1);
    for (const p of ['/not-base64!', '/AAAA', '/a%2Fb', '', '/']) {
      const r = await fetch(`${url('ecCa')}${p}`);
      expect(r.status).toBe(200);
      expect(decode(new Uint8Array(await r.arrayBuffer())).status).toBe(1);
    }
    // a body over the limit is refused before it is read
    const big = await fetch(url('ecCa'), { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: crypto.randomBytes(200 * 1024) });
    expect(big.status).toBe(413);
  });

  it('a CA we do not know (or another realm) → unauthorized; a store failure → tryLater; both 200', async () => {
    const req = requestDer(f, 'ecCa', 'ecLeaf');
    for (const u of [url('nope'), url('ecCa', 'other-realm')]) {
      const res = await fetch(u, { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: req });
      expect(res.status).toBe(200);
      expect(decode(new Uint8Array(await res.arrayBuffer())).status).toBe(6);
    }
    f.failing.on = true;
    try {
      const res = await fetch(url('ecCa'), { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: req });
      expect(res.status).toBe(200);
      expect(decode(new Uint8Array(await res.arrayBuffer())).status).toBe(3);
    } finally {
      f.failing.on = false;
    }
  });

  it('a POST labelled with another media type is still read by its bytes', async () => {
    const res = await fetch(url('ecCa'), { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: requestDer(f, 'ecCa', 'ecLeaf') });
    expect(decode(new Uint8Array(await res.arrayBuffer())).status).toBe(0);
  });
});
