/**
 * The CSR's key as issuance reads it (input.ts, profile.ts publicKeyOfSpki): EC P-256/P-384
 * keys go in by their coordinates, every other key by its DER — either way the key answered is
 * exactly the CSR's, and a point that is not on its curve is refused like a bad signature
 * (1103, CA-03), never a 500.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../platform/errors.js';
import { parseCsr } from './input.js';
import { keyInfoOf, pemOf, publicKeyOfSpki } from './profile.js';
import { x509 } from './x509.js';

const ALGS = {
  'P-256': { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
  'P-384': { name: 'ECDSA', namedCurve: 'P-384', hash: 'SHA-384' },
  RSA: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
} as const;

async function csrOf(alg: keyof typeof ALGS): Promise<{ pem: string; der: Uint8Array }> {
  const keys = (await crypto.webcrypto.subtle.generateKey(ALGS[alg], true, ['sign', 'verify'])) as crypto.webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=input-test', keys, signingAlgorithm: ALGS[alg] });
  return { pem: csr.toString('pem'), der: new Uint8Array(csr.rawData) };
}

const spkiOf = (k: crypto.KeyObject) => k.export({ format: 'der', type: 'spki' });

describe('the CSR key', () => {
  it.each(['P-256', 'P-384', 'RSA'] as const)('%s: the key answered is the CSR key, its rules read from it', async (alg) => {
    const { pem } = await csrOf(alg);
    const csr = await parseCsr(pem);
    expect(spkiOf(csr.publicKey!).equals(Buffer.from(csr.spkiDer))).toBe(true);
    expect(spkiOf(publicKeyOfSpki(csr.spkiDer)).equals(Buffer.from(csr.spkiDer))).toBe(true);
    expect(keyInfoOf(csr.publicKey!)).toEqual(alg === 'RSA' ? { algorithm: 'RSA', strength: '2048' } : { algorithm: 'EC', strength: alg });
  });

  it('a P-256 point moved off its curve: 1103, as the DER reader refuses it too', async () => {
    const { der } = await csrOf('P-256');
    const bad = Buffer.from(der);
    // the point's last octet (y): the SPKI's BIT STRING ends the CertificationRequestInfo's key
    const at = bad.indexOf(Buffer.from('03420004', 'hex')) + 4 + 63;
    bad[at] = bad[at]! ^ 0x01;
    const spki = bad.subarray(bad.indexOf(Buffer.from('3059301306072a8648ce3d0201', 'hex'))).subarray(0, 91);
    expect(() => crypto.createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' })).toThrow();
    expect(() => publicKeyOfSpki(spki)).toThrow();
    const err = await parseCsr(pemOf('CERTIFICATE REQUEST', bad)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).def.code).toBe(1103);
  });
});
