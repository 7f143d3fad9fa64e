/**
 * PKCS#12 (RFC 7292) written and read with node:crypto. Written the way OpenSSL 3 writes by
 * default, so that `openssl pkcs12` opens it without -legacy and so do current Windows, macOS
 * and Java: the certificates in an EncryptedData and the key in a pkcs8ShroudedKeyBag, both
 * PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC), and an HMAC-SHA-256 MAC over the whole.
 * Read: those, and PKCS#12's own 3DES scheme (older exports); RC2/RC4 (openssl -legacy's
 * defaults) are named as unsupported rather than guessed at.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { fail } from '../../platform/errors.js';
import {
  DerError,
  TAG,
  algorithm,
  children,
  ctx,
  ctxPrim,
  explicit,
  expectTag,
  intOf,
  integer,
  nullValue,
  octets,
  oid,
  oidOf,
  parse,
  seq,
  sequence,
  setOf,
  tlv,
  type Node,
} from './der.js';

const pbkdf2 = promisify(crypto.pbkdf2);

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  safeContentsBag: '1.2.840.113549.1.12.10.1.6',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  localKeyId: '1.2.840.113549.1.9.21',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
  pbeSha1TripleDes: '1.2.840.113549.1.12.1.3',
  des3: '1.2.840.113549.3.7',
} as const;

/** Digest OIDs and HMAC PRF OIDs → node's hash names. */
const HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
const PRFS: Record<string, string> = {
  '1.2.840.113549.2.7': 'sha1',
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512',
};
const CIPHERS: Record<string, { name: string; keyLength: number }> = {
  '2.16.840.1.101.3.4.1.2': { name: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { name: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { name: 'aes-256-cbc', keyLength: 32 },
  [OID.des3]: { name: 'des-ede3-cbc', keyLength: 24 },
};
/** RC2 and RC4 PBEs: OpenSSL 3 keeps them in its legacy provider only. */
const LEGACY_PBES = new Set(['1.2.840.113549.1.12.1.1', '1.2.840.113549.1.12.1.2', '1.2.840.113549.1.12.1.5', '1.2.840.113549.1.12.1.6']);

/** OpenSSL 3's defaults; what we write. */
export const PKCS12_ITERATIONS = 2048;
/** A file asking for more is refused: each iteration is CPU the caller does not pay for. */
const MAX_PBKDF2_ITERATIONS = 2_000_000;
const MAX_PKCS12_KDF_ITERATIONS = 200_000;

const passwordFailed = () => fail('CONVERT_FAILED', { reason: 'password' });
const unsupported = (algorithmOid: string) => fail('CONVERT_FAILED', { reason: 'unsupported_algorithm', algorithm: algorithmOid });
const tooManyIterations = () => fail('CONVERT_FAILED', { reason: 'iterations' });

/** The password as PKCS#12's KDF takes it: BMPString, big-endian, with a terminating NUL. */
function bmpPassword(password: string): Buffer {
  const out = Buffer.alloc(password.length * 2 + 2);
  for (let i = 0; i < password.length; i++) out.writeUInt16BE(password.charCodeAt(i), i * 2);
  return out;
}

const repeatTo = (src: Buffer, length: number) => {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = src[i % src.length]!;
  return out;
};

/** RFC 7292 Appendix B.2: the key (id 1), IV (id 2) or MAC key (id 3) derivation. */
export function pkcs12Kdf(hash: string, password: string, salt: Uint8Array, id: 1 | 2 | 3, iterations: number, length: number): Buffer {
  if (iterations > MAX_PKCS12_KDF_ITERATIONS) throw tooManyIterations();
  const u = crypto.createHash(hash).digest().length;
  const v = u > 32 ? 128 : 64;
  const pw = bmpPassword(password);
  const saltBuf = Buffer.from(salt);
  const D = Buffer.alloc(v, id);
  const I = Buffer.concat([repeatTo(saltBuf, v * Math.ceil(saltBuf.length / v)), repeatTo(pw, v * Math.ceil(pw.length / v))]);
  const out: Buffer[] = [];
  for (let got = 0; got < length; got += u) {
    let A = crypto.createHash(hash).update(D).update(I).digest();
    for (let j = 1; j < iterations; j++) A = crypto.createHash(hash).update(A).digest();
    out.push(A);
    const B = repeatTo(A, v);
    // I_j = (I_j + B + 1) mod 2^(8v), for each v-octet block of I
    for (let off = 0; off < I.length; off += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        const sum = I[off + k]! + B[k]! + carry;
        I[off + k] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return Buffer.concat(out).subarray(0, length);
}

// --- writing ----------------------------------------------------------------------------

/** PBES2 with PBKDF2-HMAC-SHA256 and AES-256-CBC: the AlgorithmIdentifier and the ciphertext. */
async function pbes2Encrypt(plain: Uint8Array, password: string): Promise<{ algorithmId: Uint8Array; encrypted: Buffer }> {
  const salt = crypto.randomBytes(16);
  const iv = crypto.randomBytes(16);
  const key = await pbkdf2(Buffer.from(password, 'utf8'), salt, PKCS12_ITERATIONS, 32, 'sha256');
  const cipher = crypto.createCipheriv('aes-256-cbc', key, iv);
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final()]);
  const kdf = algorithm(OID.pbkdf2, sequence(octets(salt), integer(PKCS12_ITERATIONS), algorithm('1.2.840.113549.2.9', nullValue())));
  return { algorithmId: algorithm(OID.pbes2, sequence(kdf, algorithm('2.16.840.1.101.3.4.1.42', octets(iv)))), encrypted };
}

const attribute = (type: string, value: Uint8Array) => sequence(oid(type), setOf(value));

/**
 * A PKCS#12 holding `keyPkcs8` (PrivateKeyInfo DER) and `certs` (leaf first, then its chain).
 * The key and the leaf share a localKeyId (the leaf's SHA-1), which is how readers pair them.
 */
export async function buildPkcs12(input: { keyPkcs8: Uint8Array; certs: Uint8Array[]; password: string }): Promise<Uint8Array> {
  const { keyPkcs8, certs, password } = input;
  const localKeyId = crypto.createHash('sha1').update(certs[0]!).digest();
  const idAttrs = setOf(attribute(OID.localKeyId, octets(localKeyId)));

  const certBags = certs.map((der, i) =>
    sequence(oid(OID.certBag), explicit(0, sequence(oid(OID.x509Certificate), explicit(0, octets(der)))), ...(i === 0 ? [idAttrs] : [])),
  );
  const certsEnc = await pbes2Encrypt(sequence(...certBags), password);
  const certsInfo = sequence(
    oid(OID.encryptedData),
    explicit(0, sequence(integer(0), sequence(oid(OID.data), certsEnc.algorithmId, tlv(ctxPrim(0), certsEnc.encrypted)))),
  );

  const keyEnc = await pbes2Encrypt(keyPkcs8, password);
  const keyBag = sequence(oid(OID.shroudedKeyBag), explicit(0, sequence(keyEnc.algorithmId, octets(keyEnc.encrypted))), idAttrs);
  const keyInfo = sequence(oid(OID.data), explicit(0, octets(sequence(keyBag))));

  const authSafe = sequence(certsInfo, keyInfo);
  const macSalt = crypto.randomBytes(16);
  const macKey = pkcs12Kdf('sha256', password, macSalt, 3, PKCS12_ITERATIONS, 32);
  const mac = crypto.createHmac('sha256', macKey).update(authSafe).digest();
  const macData = sequence(sequence(algorithm('2.16.840.1.101.3.4.2.1', nullValue()), octets(mac)), octets(macSalt), integer(PKCS12_ITERATIONS));
  return sequence(integer(3), sequence(oid(OID.data), explicit(0, octets(authSafe))), macData);
}

// --- reading ----------------------------------------------------------------------------

export interface Pkcs12Contents {
  /** PrivateKeyInfo DER, each with the localKeyId it carried */
  keys: { pkcs8: Uint8Array; localKeyId: string | null }[];
  certs: { der: Uint8Array; localKeyId: string | null }[];
}

/** The octets of an OCTET STRING, also when a BER writer split it into a constructed one. */
function octetsOf(node: Node | undefined): Uint8Array {
  if (!node) throw new DerError('missing octets');
  if (node.tag === TAG.OCTET_STRING || node.tag === ctxPrim(0)) return node.value;
  if (node.tag === (TAG.OCTET_STRING | 0x20) || node.tag === ctx(0)) return Buffer.concat(children(node).map(octetsOf));
  throw new DerError('expected octets');
}

async function decrypt(algorithmId: Node, encrypted: Uint8Array, password: string): Promise<Buffer> {
  const [algOid, params] = seq(algorithmId);
  const algName = oidOf(algOid);
  let cipherName: string;
  let key: Buffer;
  let iv: Uint8Array;
  if (algName === OID.pbes2) {
    const [kdf, scheme] = seq(params);
    const [kdfOid, kdfParams] = seq(kdf);
    if (oidOf(kdfOid) !== OID.pbkdf2) throw unsupported(oidOf(kdfOid));
    const [saltNode, iterNode, ...rest] = seq(kdfParams);
    expectTag(saltNode, TAG.OCTET_STRING);
    const iterations = intOf(iterNode);
    if (iterations < 1) throw new DerError('iterations');
    if (iterations > MAX_PBKDF2_ITERATIONS) throw tooManyIterations();
    const prfNode = rest.find((n) => n.tag === TAG.SEQUENCE);
    const prfOid = prfNode ? oidOf(seq(prfNode)[0]) : '1.2.840.113549.2.7';
    const hash = PRFS[prfOid];
    if (!hash) throw unsupported(prfOid);
    const [encOid, ivNode] = seq(scheme);
    const cipher = CIPHERS[oidOf(encOid)];
    if (!cipher) throw unsupported(oidOf(encOid));
    expectTag(ivNode, TAG.OCTET_STRING);
    cipherName = cipher.name;
    iv = ivNode.value;
    key = await pbkdf2(Buffer.from(password, 'utf8'), saltNode.value, iterations, cipher.keyLength, hash);
  } else if (algName === OID.pbeSha1TripleDes) {
    const [saltNode, iterNode] = seq(params);
    expectTag(saltNode, TAG.OCTET_STRING);
    const iterations = intOf(iterNode);
    if (iterations < 1) throw new DerError('iterations');
    cipherName = 'des-ede3-cbc';
    key = pkcs12Kdf('sha1', password, saltNode.value, 1, iterations, 24);
    iv = pkcs12Kdf('sha1', password, saltNode.value, 2, iterations, 8);
  } else if (LEGACY_PBES.has(algName)) {
    throw fail('CONVERT_FAILED', { reason: 'legacy_algorithm', algorithm: algName });
  } else {
    throw unsupported(algName);
  }
  try {
    const decipher = crypto.createDecipheriv(cipherName, key, iv);
    return Buffer.concat([decipher.update(encrypted), decipher.final()]);
  } catch {
    // bad padding: the key was wrong (or the IV length: a broken file says the same)
    throw passwordFailed();
  }
}

function localKeyIdOf(attrs: Node | undefined): string | null {
  if (!attrs || attrs.tag !== TAG.SET) return null;
  for (const a of children(attrs)) {
    const [type, values] = seq(a);
    if (oidOf(type) !== OID.localKeyId || values?.tag !== TAG.SET) continue;
    const first = children(values)[0];
    if (first?.tag === TAG.OCTET_STRING) return Buffer.from(first.value).toString('hex');
  }
  return null;
}

async function readBags(safeContents: Uint8Array, password: string, out: Pkcs12Contents, depth: number): Promise<void> {
  if (depth > 3) throw new DerError('too deep');
  for (const bag of seq(parse(safeContents))) {
    const [idNode, valueWrap, attrs] = seq(bag);
    expectTag(valueWrap, ctx(0));
    const value = children(valueWrap)[0];
    if (!value) throw new DerError('empty bag');
    const localKeyId = localKeyIdOf(attrs);
    switch (oidOf(idNode)) {
      case OID.keyBag:
        out.keys.push({ pkcs8: new Uint8Array(value.raw), localKeyId });
        break;
      case OID.shroudedKeyBag: {
        const [alg, enc] = seq(value);
        expectTag(alg, TAG.SEQUENCE);
        out.keys.push({ pkcs8: await decrypt(alg, octetsOf(enc), password), localKeyId });
        break;
      }
      case OID.certBag: {
        const [certType, certWrap] = seq(value);
        expectTag(certWrap, ctx(0));
        // SDSI certificates and other kinds: not X.509, nothing to convert
        if (oidOf(certType) === OID.x509Certificate) out.certs.push({ der: new Uint8Array(octetsOf(children(certWrap)[0])), localKeyId });
        break;
      }
      case OID.safeContentsBag:
        await readBags(value.raw, password, out, depth + 1);
        break;
      default:
      // CRL and secret bags: not part of a certificate conversion
    }
  }
}

/** Verifies the MAC (when there is one) with `password`, then decrypts every bag. */
export async function readPkcs12(der: Uint8Array, password: string): Promise<Pkcs12Contents> {
  const [version, authSafeInfo, macData] = seq(parse(der));
  if (intOf(version) !== 3) throw new DerError('not PKCS#12 version 3');
  const [contentType, contentWrap] = seq(authSafeInfo);
  // public-key integrity mode (SignedData) is in the RFC and in no tool we know
  if (oidOf(contentType) !== OID.data) throw unsupported(oidOf(contentType));
  expectTag(contentWrap, ctx(0));
  const authSafe = octetsOf(children(contentWrap)[0]);

  if (macData) {
    const [digestInfo, saltNode, iterNode] = seq(macData);
    const [digestAlg, digest] = seq(digestInfo);
    const digestOid = oidOf(seq(digestAlg)[0]);
    const hash = HASHES[digestOid];
    if (!hash) throw unsupported(digestOid);
    expectTag(saltNode, TAG.OCTET_STRING);
    expectTag(digest, TAG.OCTET_STRING);
    const iterations = iterNode ? intOf(iterNode) : 1;
    if (iterations < 1) throw new DerError('iterations');
    const macKey = pkcs12Kdf(hash, password, saltNode.value, 3, iterations, crypto.createHash(hash).digest().length);
    const mac = crypto.createHmac(hash, macKey).update(authSafe).digest();
    if (mac.length !== digest.value.length || !crypto.timingSafeEqual(mac, digest.value)) throw passwordFailed();
  }

  const out: Pkcs12Contents = { keys: [], certs: [] };
  for (const info of seq(parse(authSafe))) {
    const [type, wrap] = seq(info);
    expectTag(wrap, ctx(0));
    const content = children(wrap)[0];
    const typeOid = oidOf(type);
    if (typeOid === OID.data) {
      await readBags(octetsOf(content), password, out, 0);
    } else if (typeOid === OID.encryptedData) {
      const [, encInfo] = seq(content);
      const [, alg, enc] = seq(encInfo);
      expectTag(alg, TAG.SEQUENCE);
      if (!enc) continue;
      await readBags(await decrypt(alg, octetsOf(enc), password), password, out, 0);
    } else {
      throw unsupported(typeOid);
    }
  }
  return out;
}
