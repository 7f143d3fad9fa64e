/**
 * Convert format (tools) with openssl 3 as the judge: our DER, PKCS#7 and PKCS#12 open in
 * openssl (PKCS#12 without -legacy), openssl's PKCS#12 and PKCS#7 convert back, and bad input
 * is a clear code. No database: the conversions are pure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { convert, type ConvertInput } from './convert.js';
import { pkcs7Of } from './pkcs7.js';
import { derOf, makeCa, makeLeaf, workdir, type KeyKind, type Workdir } from './tools.testkit.js';

const PASSWORD = 'correct horse ✓';

/** The catalogue code a conversion fails with. */
async function codeOf(body: ConvertInput): Promise<{ code: number; errData?: Record<string, unknown> }> {
  try {
    await convert(body);
  } catch (err) {
    if (err instanceof ApiError) return { code: err.def.code, errData: err.errData };
    throw err;
  }
  throw new Error('converted, expected a failure');
}

const normalizeKey = (w: Workdir, pem: string, name: string) => {
  w.write(name, pem);
  return w.openssl(['pkey', '-in', name]);
};

describe('tools: convert', () => {
  let w: Workdir;
  let ca: { certPem: string; keyPem: string };
  const leaves = {} as Record<KeyKind, { certPem: string; keyPem: string; csrPem: string }>;

  beforeAll(() => {
    w = workdir();
    ca = makeCa(w, 'ca', 'ec');
    for (const kind of ['rsa', 'ec', 'ed25519'] as const) leaves[kind] = makeLeaf(w, `leaf-${kind}`, kind, 'ca');
  });
  afterAll(() => w?.dispose());

  it('PEM certificate → DER: openssl x509 -inform DER reads it as the same certificate; DER → PEM gives the PEM back', async () => {
    const { certPem } = leaves.rsa;
    const der = await convert({ from: 'pem', to: 'der', input: certPem });
    expect(der).toMatchObject({ mediaType: 'application/pkix-cert', fileName: 'certificate.der' });
    w.write('out.der', Buffer.from(der.base64!, 'base64'));
    expect(w.openssl(['x509', '-inform', 'DER', '-in', 'out.der'])).toBe(certPem);
    const back = await convert({ from: 'der', to: 'pem', input: der.base64! });
    expect(back.text).toBe(certPem);
  });

  it('PEM ↔ DER for a CSR, a PKCS#8 key and a traditional EC key; openssl reads each DER', async () => {
    const csr = await convert({ from: 'pem', to: 'der', input: leaves.ec.csrPem });
    expect(csr.mediaType).toBe('application/pkcs10');
    w.write('csr.der', Buffer.from(csr.base64!, 'base64'));
    expect(w.openssl(['req', '-inform', 'DER', '-in', 'csr.der', '-noout', '-subject'])).toContain('CN = leaf-ec.example');
    expect((await convert({ from: 'der', to: 'pem', input: csr.base64! })).text).toBe(leaves.ec.csrPem);

    for (const kind of ['rsa', 'ec', 'ed25519'] as const) {
      const key = await convert({ from: 'pem', to: 'der', input: leaves[kind].keyPem });
      w.write(`${kind}.key.der`, Buffer.from(key.base64!, 'base64'));
      expect(w.openssl(['pkey', '-inform', 'DER', '-in', `${kind}.key.der`]), kind).toBe(normalizeKey(w, leaves[kind].keyPem, `${kind}.norm`));
    }
    const traditional = w.openssl(['pkey', '-in', 'leaf-ec.key', '-traditional']);
    expect(traditional).toContain('BEGIN EC PRIVATE KEY');
    const pem = await convert({ from: 'pem', to: 'pem', input: traditional });
    expect(pem.text).toBe(normalizeKey(w, leaves.ec.keyPem, 'ec.norm2'));
  });

  for (const kind of ['rsa', 'ec', 'ed25519'] as const) {
    it(`certificate + ${kind} key + chain → PKCS#12: openssl 3 opens it WITHOUT -legacy (PBES2 AES-256-CBC, SHA-256 MAC) with the same certificates and key`, async () => {
      const leaf = leaves[kind];
      const p12 = await convert({ from: 'pem', to: 'pkcs12', input: leaf.certPem + ca.certPem, keyPem: leaf.keyPem, password: PASSWORD });
      expect(p12).toMatchObject({ fileName: 'certificate.p12', mediaType: 'application/x-pkcs12' });
      w.write(`${kind}.p12`, Buffer.from(p12.base64!, 'base64'));
      const info = w.opensslAll(['pkcs12', '-in', `${kind}.p12`, '-passin', `pass:${PASSWORD}`, '-info', '-noout']);
      expect(info).toContain('MAC: sha256');
      expect(info).toMatch(/Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC/);
      expect(info).toMatch(/PKCS7 Encrypted data: PBES2, PBKDF2, AES-256-CBC/);

      w.openssl(['pkcs12', '-in', `${kind}.p12`, '-passin', `pass:${PASSWORD}`, '-nodes', '-clcerts', '-nokeys', '-out', `${kind}.leaf.pem`]);
      w.openssl(['pkcs12', '-in', `${kind}.p12`, '-passin', `pass:${PASSWORD}`, '-nodes', '-cacerts', '-nokeys', '-out', `${kind}.ca.pem`]);
      w.openssl(['pkcs12', '-in', `${kind}.p12`, '-passin', `pass:${PASSWORD}`, '-nodes', '-nocerts', '-out', `${kind}.key.pem`]);
      expect(w.openssl(['x509', '-in', `${kind}.leaf.pem`])).toBe(leaf.certPem);
      expect(w.openssl(['x509', '-in', `${kind}.ca.pem`])).toBe(ca.certPem);
      expect(w.openssl(['pkey', '-in', `${kind}.key.pem`])).toBe(normalizeKey(w, leaf.keyPem, `${kind}.k`));

      // and the wrong password is refused by openssl too: the MAC really is keyed by it
      expect(() => w.openssl(['pkcs12', '-in', `${kind}.p12`, '-passin', 'pass:wrong-one', '-nodes'])).toThrow(/mac verify/i);

      // round trip through our own reader
      const back = await convert({ from: 'pkcs12', to: 'pem', input: p12.base64!, password: PASSWORD });
      expect(back.text).toBe(leaf.certPem + ca.certPem + normalizeKey(w, leaf.keyPem, `${kind}.k2`));
    });
  }

  it('a PKCS#12 made by openssl pkcs12 -export (default and PBE-SHA1-3DES/SHA-1 MAC) converts back to PEM with the password', async () => {
    const leaf = leaves.rsa;
    w.openssl([
      'pkcs12',
      '-export',
      '-in',
      'leaf-rsa.crt',
      '-inkey',
      'leaf-rsa.key',
      '-certfile',
      'ca.crt',
      '-passout',
      `pass:${PASSWORD}`,
      '-out',
      'ossl.p12',
    ]);
    w.openssl([
      'pkcs12',
      '-export',
      '-in',
      'leaf-rsa.crt',
      '-inkey',
      'leaf-rsa.key',
      '-keypbe',
      'PBE-SHA1-3DES',
      '-certpbe',
      'PBE-SHA1-3DES',
      '-macalg',
      'sha1',
      '-passout',
      `pass:${PASSWORD}`,
      '-out',
      'ossl-3des.p12',
    ]);
    const key = normalizeKey(w, leaf.keyPem, 'rsa.k3');
    const modern = await convert({ from: 'pkcs12', to: 'pem', input: w.read('ossl.p12').toString('base64'), password: PASSWORD });
    expect(modern.text).toContain(leaf.certPem);
    expect(modern.text).toContain(ca.certPem);
    expect(modern.text).toContain(key);
    const old = await convert({ from: 'pkcs12', to: 'pem', input: w.read('ossl-3des.p12').toString('base64'), password: PASSWORD });
    expect(old.text).toBe(leaf.certPem + key);

    // wrong password → CONVERT_FAILED, never a 500 or a partial answer
    expect(await codeOf({ from: 'pkcs12', to: 'pem', input: w.read('ossl.p12').toString('base64'), password: 'not-the-password' })).toEqual({
      code: 1113,
      errData: { reason: 'password' },
    });
    expect((await codeOf({ from: 'pkcs12', to: 'pem', input: w.read('ossl.p12').toString('base64') })).errData).toEqual({ reason: 'password_required' });
  });

  it('chain → PKCS#7 (certs-only SignedData): openssl pkcs7 -print_certs reads the DER and the PEM; openssl-made PKCS#7 → PEM chain', async () => {
    const chain = leaves.ec.certPem + ca.certPem;
    const p7 = await convert({ from: 'pem', to: 'pkcs7', input: chain });
    expect(p7).toMatchObject({ fileName: 'chain.p7b', mediaType: 'application/x-pkcs7-certificates' });
    w.write('chain.p7b', Buffer.from(p7.base64!, 'base64'));
    w.write('chain.p7.pem', p7.text!);
    const fromDer = w.openssl(['pkcs7', '-inform', 'DER', '-in', 'chain.p7b', '-print_certs']);
    const fromPem = w.openssl(['pkcs7', '-in', 'chain.p7.pem', '-print_certs']);
    for (const printed of [fromDer, fromPem]) {
      expect(printed).toContain('subject=O = Umbo Test, CN = leaf-ec.example');
      expect(printed).toContain(leaves.ec.certPem.trim());
      expect(printed).toContain(ca.certPem.trim());
    }
    // pkcs7Of (pki-core's chain download) is the same bytes
    expect(Buffer.from(pkcs7Of([derOf(leaves.ec.certPem), derOf(ca.certPem)])).toString('base64')).toBe(p7.base64);

    w.openssl(['crl2pkcs7', '-nocrl', '-certfile', 'leaf-ed25519.crt', '-certfile', 'ca.crt', '-out', 'ossl.p7b', '-outform', 'DER']);
    w.openssl(['crl2pkcs7', '-nocrl', '-certfile', 'leaf-ed25519.crt', '-certfile', 'ca.crt', '-out', 'ossl.p7.pem']);
    const expected = leaves.ed25519.certPem + ca.certPem;
    expect((await convert({ from: 'pkcs7', to: 'pem', input: w.read('ossl.p7b').toString('base64') })).text).toBe(expected);
    expect((await convert({ from: 'pkcs7', to: 'pem', input: w.read('ossl.p7.pem').toString() })).text).toBe(expected);
    // PKCS#7 PEM → DER stays a PKCS#7 that openssl reads
    const der = await convert({ from: 'pkcs7', to: 'der', input: w.read('ossl.p7.pem').toString() });
    w.write('again.p7b', Buffer.from(der.base64!, 'base64'));
    expect(w.openssl(['pkcs7', '-inform', 'DER', '-in', 'again.p7b', '-print_certs'])).toContain(leaves.ed25519.certPem.trim());
  });

  it('random corruptions of a certificate, CSR, key, PKCS#12 and PKCS#7: always a catalogue code (4xx), never a crash', async () => {
    const p12 = (await convert({ from: 'pem', to: 'pkcs12', input: leaves.ec.certPem, keyPem: leaves.ec.keyPem, password: PASSWORD })).base64!;
    const p7 = (await convert({ from: 'pem', to: 'pkcs7', input: leaves.ec.certPem + ca.certPem })).base64!;
    const samples: [ConvertInput['from'], Buffer][] = [
      ['der', derOf(leaves.rsa.certPem)],
      ['der', derOf(leaves.ed25519.csrPem)],
      ['der', derOf(leaves.ec.keyPem)],
      ['pkcs12', Buffer.from(p12, 'base64')],
      ['pkcs7', Buffer.from(p7, 'base64')],
    ];
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let refused = 0;
    for (const [from, original] of samples) {
      for (let i = 0; i < 120; i++) {
        const bytes = Buffer.from(original);
        const cut = i % 3 === 0 ? bytes.subarray(0, rnd(bytes.length)) : bytes;
        for (let k = 0; k <= rnd(4); k++) cut[rnd(cut.length || 1)] = rnd(256);
        for (const to of ['pem', 'der', 'pkcs7'] as const) {
          try {
            await convert({ from, to, input: cut.toString('base64'), password: PASSWORD });
          } catch (err) {
            expect(err, `${from} → ${to}`).toBeInstanceOf(ApiError);
            expect((err as ApiError).def.status, `${from} → ${to}`).toBeLessThan(500);
            refused++;
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(500);
  });

  it('bad input is a clear code: empty 1101, truncated / garbage / wrong label 1102, key for no certificate 1111, impossible target 1113', async () => {
    const { certPem, keyPem } = leaves.rsa;
    expect((await codeOf({ from: 'pem', to: 'der', input: '  \n' })).code).toBe(1101);
    expect((await codeOf({ from: 'der', to: 'pem', input: '' })).code).toBe(1101);
    const lines = certPem.trim().split('\n');
    const truncatedBody = [...lines.slice(0, 6), lines.at(-1)].join('\n');
    const noEnd = lines.slice(0, -1).join('\n');
    expect(await codeOf({ from: 'pem', to: 'der', input: truncatedBody })).toMatchObject({ code: 1102, errData: { reason: 'truncated_or_not_der' } });
    expect(await codeOf({ from: 'pem', to: 'der', input: noEnd })).toMatchObject({ code: 1102, errData: { reason: 'no_end_line' } });
    expect((await codeOf({ from: 'pem', to: 'der', input: 'hello, not a certificate' })).code).toBe(1102);
    expect((await codeOf({ from: 'pem', to: 'der', input: certPem.replace(/CERTIFICATE/g, 'CERTIFICATE REQUEST') })).code).toBe(1102);
    expect((await codeOf({ from: 'pem', to: 'der', input: certPem.replace(/CERTIFICATE/g, 'FOO') })).errData).toMatchObject({ reason: 'wrong_label' });
    const garbage = Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256)).toString('base64');
    for (const from of ['der', 'pkcs12', 'pkcs7'] as const) {
      expect((await codeOf({ from, to: 'pem', input: garbage, password: PASSWORD })).code, from).toBe(1102);
      expect((await codeOf({ from, to: 'pem', input: '%%% not base64 %%%', password: PASSWORD })).code, from).toBe(1102);
    }
    expect((await codeOf({ from: 'pem', to: 'pkcs12', input: certPem, keyPem: leaves.ec.keyPem, password: PASSWORD })).code).toBe(1111);
    expect((await codeOf({ from: 'pem', to: 'pkcs12', input: certPem, password: PASSWORD })).errData).toEqual({ reason: 'key_required' });
    expect((await codeOf({ from: 'pem', to: 'pkcs12', input: certPem, keyPem })).errData).toEqual({ reason: 'password_required' });
    expect((await codeOf({ from: 'pem', to: 'der', input: certPem + ca.certPem })).errData).toEqual({ reason: 'one_object_expected', count: 2 });
    expect((await codeOf({ from: 'pem', to: 'pkcs7', input: keyPem })).errData).toEqual({ reason: 'no_certificate' });
  });
});
