/**
 * View certificate / view CSR (tools) on openssl-made RSA, EC and Ed25519 inputs: the fields a
 * person checks (subject, SAN, key size, serial, extensions, fingerprints) agree with what
 * openssl prints, a CSR's signature is checked, and bad input is a clear code.
 */
import { DECODED_KEYS, phrases } from '@umbo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { decodeCertificate, decodeCsr, type DecodedView } from './decode.js';
import { derOf, makeCa, makeLeaf, workdir, type KeyKind, type Workdir } from './tools.testkit.js';

/** label → value of every field, groups flattened; `group` keeps one group only. */
function fieldsOf(view: DecodedView, group?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of view.groups) if (!group || g.title === group) for (const f of g.fields) out[f.label] = f.value;
  return out;
}

function codeOf(fn: () => unknown): { code: number; errData?: Record<string, unknown> } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return { code: err.def.code, errData: err.errData };
    throw err;
  }
  throw new Error('decoded, expected a failure');
}

const KEY: Record<KeyKind, Record<string, string>> = {
  rsa: { Algorithm: 'RSA', Size: '2048 bits', Exponent: '65537' },
  ec: { Algorithm: 'EC', Size: '256 bits', Curve: 'P-256' },
  ed25519: { Algorithm: 'Ed25519', Size: '256 bits' },
};

describe('tools: view certificate and CSR', () => {
  let w: Workdir;
  const leaves = {} as Record<KeyKind, { certPem: string; keyPem: string; csrPem: string }>;
  let caPem: string;

  beforeAll(() => {
    w = workdir();
    caPem = makeCa(w, 'ca', 'rsa').certPem;
    for (const kind of ['rsa', 'ec', 'ed25519'] as const) leaves[kind] = makeLeaf(w, `leaf-${kind}`, kind, 'ca');
  });
  afterAll(() => w?.dispose());

  for (const kind of ['rsa', 'ec', 'ed25519'] as const) {
    it(`certificate with a ${kind} key: subject, issuer, serial, validity, key, every extension by name, fingerprints as openssl prints them`, () => {
      const now = Date.now();
      const view = decodeCertificate(leaves[kind].certPem, now);
      expect(view.kind).toBe('certificate');
      expect(view.groups.map((g) => g.title)).toEqual(['Certificate', 'Public key', 'Extensions', 'Fingerprints']);
      expect(fieldsOf(view, 'Certificate')).toMatchObject({
        Version: '3 (0x2)',
        'Serial number (decimal)': BigInt('0x0123456789ABCDEF01').toString(),
        'Serial number (hex)': '01:23:45:67:89:AB:CD:EF:01',
        'Signature algorithm': 'sha256WithRSAEncryption (1.2.840.113549.1.1.11)',
        Issuer: 'CN=ca',
        Subject: `O=Umbo Test, CN=leaf-${kind}.example`,
        Status: 'valid',
        'Self-signed': 'no',
      });
      expect(fieldsOf(view, 'Public key')).toMatchObject(KEY[kind]);
      const notAfter = w
        .openssl(['x509', '-in', `leaf-${kind}.crt`, '-noout', '-enddate'])
        .trim()
        .replace('notAfter=', '');
      expect(Date.parse(fieldsOf(view)['Not after']!)).toBe(Date.parse(notAfter));

      const ext = fieldsOf(view, 'Extensions');
      expect(ext).toMatchObject({
        'Basic constraints (2.5.29.19), critical': 'CA: FALSE',
        'Key usage (2.5.29.15), critical': kind === 'rsa' ? 'Digital signature, Key encipherment' : 'Digital signature',
        'Extended key usage (2.5.29.37)': 'TLS client authentication (clientAuth), TLS server authentication (serverAuth)',
        'Subject alternative name (2.5.29.17)': `DNS: leaf-${kind}.example, IP: 10.0.0.7, email: dev@leaf-${kind}.example`,
        'CRL distribution points (2.5.29.31)': 'URI: http://umbo.test/pki/ca.crl',
        'Authority information access (1.3.6.1.5.5.7.1.1)': 'OCSP: http://umbo.test/pki/ocsp; CA issuers: http://umbo.test/pki/ca.crt',
        'Certificate policies (2.5.29.32)': 'CA/B Forum domain validated (2.23.140.1.2.1)',
        // unknown: OID and the value's bytes
        '1.2.3.4.5.6.7': '04:03:01:02:03',
      });
      const text = w.openssl(['x509', '-in', `leaf-${kind}.crt`, '-noout', '-text']);
      const ski = /Subject Key Identifier:\s*\n\s*([0-9A-F:]+)/.exec(text)![1];
      const aki = /Authority Key Identifier:\s*\n\s*(?:keyid:)?([0-9A-F:]+)/.exec(text)![1];
      expect(ext['Subject key identifier (2.5.29.14)']).toBe(ski);
      expect(ext['Authority key identifier (2.5.29.35)']).toBe(`key id: ${aki}`);

      const sha256 = w
        .openssl(['x509', '-in', `leaf-${kind}.crt`, '-noout', '-fingerprint', '-sha256'])
        .trim()
        .split('=')[1];
      const sha1 = w
        .openssl(['x509', '-in', `leaf-${kind}.crt`, '-noout', '-fingerprint', '-sha1'])
        .trim()
        .split('=')[1];
      expect(fieldsOf(view, 'Fingerprints')).toEqual({ 'SHA-1': sha1, 'SHA-256': sha256 });

      expect(fieldsOf(decodeCertificate(leaves[kind].certPem, now + 11 * 24 * 3600 * 1000)).Status).toBe('expired');
    });
  }

  it('a self-signed CA: version, CA:TRUE, self-signed and its signature verifies', () => {
    const f = fieldsOf(decodeCertificate(caPem, Date.now()));
    expect(f).toMatchObject({ Subject: 'CN=ca', Issuer: 'CN=ca', 'Self-signed': 'yes (signature verifies)', Algorithm: 'RSA', Size: '2048 bits' });
    expect(f['Basic constraints (2.5.29.19), critical']).toBe('CA: TRUE');
  });

  for (const kind of ['rsa', 'ec', 'ed25519'] as const) {
    it(`CSR with a ${kind} key: subject, key, requested extensions and a verifying signature`, () => {
      const view = decodeCsr(leaves[kind].csrPem);
      expect(view.kind).toBe('csr');
      const f = fieldsOf(view);
      expect(f).toMatchObject({
        Version: '1 (0x0)',
        Subject: `O=Umbo Test, CN=leaf-${kind}.example`,
        Signature: 'verifies',
        ...KEY[kind],
      });
      expect(fieldsOf(view, 'Requested extensions')).toEqual({ 'Subject alternative name (2.5.29.17)': `DNS: leaf-${kind}.example, IP: 10.0.0.7` });
    });
  }

  it('a CSR whose signature was tampered with is shown as not verifying (openssl agrees)', () => {
    const der = derOf(leaves.ec.csrPem);
    der.writeUInt8(der.readUInt8(der.length - 5) ^ 0x01, der.length - 5);
    const pem = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    w.write('bad.csr', pem);
    // openssl 3.0 says so on stderr and still exits 0
    expect(w.opensslAll(['req', '-in', 'bad.csr', '-verify', '-noout'])).toContain('verify failure');
    expect(w.opensslAll(['req', '-in', 'leaf-ec.csr', '-verify', '-noout'])).toContain('verify OK');
    expect(fieldsOf(decodeCsr(pem)).Signature).toBe('does NOT verify');
  });

  it('labels the console translates carry a key whose English phrase is the label; extensions keep their OID name, no key', () => {
    const views = [decodeCertificate(leaves.rsa.certPem, Date.now()), decodeCertificate(leaves.ec.certPem, Date.now()), decodeCsr(leaves.rsa.csrPem)];
    const phrase = phrases.en.cert as Record<string, string>;
    const keyed = new Set<string>();
    for (const v of views) {
      for (const g of v.groups) {
        expect(g.key, g.title).toBeDefined();
        expect(phrase[`decoded_${g.key}`]).toBe(g.title);
        keyed.add(g.key!);
        for (const field of g.fields) {
          if (/^group_(extensions|requested_extensions|attributes)$/.test(g.key!) || /^SHA-(1|256)$/.test(field.label)) {
            expect(field.key, field.label).toBeUndefined();
            continue;
          }
          expect(field.key, field.label).toBeDefined();
          expect(phrase[`decoded_${field.key}`]).toBe(field.label);
          keyed.add(field.key!);
        }
      }
    }
    // every key the contract names is one the server uses (attributes: only CSRs that carry some)
    expect(DECODED_KEYS.filter((k) => !keyed.has(k))).toEqual(['group_attributes']);
  });

  it('bad input: empty → 1101 / 1100, a CSR given as certificate and back → 1102, truncated and garbage → 1102', () => {
    expect(codeOf(() => decodeCertificate('', 0)).code).toBe(1101);
    expect(codeOf(() => decodeCsr(' \n')).code).toBe(1100);
    expect(codeOf(() => decodeCertificate(leaves.rsa.csrPem, 0))).toMatchObject({ code: 1102, errData: { what: 'certificate', reason: 'wrong_label' } });
    expect(codeOf(() => decodeCsr(leaves.rsa.certPem))).toMatchObject({ code: 1102, errData: { what: 'csr', reason: 'wrong_label' } });
    // right label, wrong content
    const relabelled = leaves.rsa.csrPem.replace(/CERTIFICATE REQUEST/g, 'CERTIFICATE');
    expect(codeOf(() => decodeCertificate(relabelled, 0))).toMatchObject({ code: 1102, errData: { reason: 'not_a_certificate' } });
    const lines = leaves.ec.certPem.trim().split('\n');
    expect(codeOf(() => decodeCertificate([...lines.slice(0, 4), lines.at(-1)].join('\n'), 0)).code).toBe(1102);
    expect(codeOf(() => decodeCertificate('\u0000\u00ff\u0013garbage\u0007', 0)).code).toBe(1102);
    const two = leaves.rsa.certPem + caPem;
    expect(codeOf(() => decodeCertificate(two, 0))).toMatchObject({ code: 1102, errData: { reason: 'one_block_expected' } });
  });
});
