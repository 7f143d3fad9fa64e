/**
 * Convert format (tools, SPEC §2): reads the input into a bundle of objects (certificates,
 * CSRs, keys), then writes the bundle in the target format. Stateless; nothing is stored and no
 * key or password reaches a log line.
 *
 * Input encodings (contracts' convertBody): `pem` — PEM text, any number of blocks; `der` —
 * base64 of one DER object (or a PKCS#7); `pkcs12` — base64, opened with `password`; `pkcs7` —
 * PEM ("PKCS7") or base64 DER. Targets: `pem` (text), `der` (one object; a PKCS#7 stays one),
 * `pkcs12` (certificate + key, `password`), `pkcs7` (certificates; DER and PEM both answered).
 */
import type { ConvertFormat } from '@umbo/contracts';
import { ApiError, fail } from '../../platform/errors.js';
import { DerError } from './der.js';
import { classifyDer, decryptPkcs8, kindOfLabel, samePublicKey, spkiOfSigned, type ObjectKind, type ParsedObject } from './objects.js';
import { PEM_LABELS, checkDer, emptyCode, pemBlocks, readPem, toPem, type PemWhat } from './pem.js';
import { buildPkcs12, readPkcs12 } from './pkcs12.js';
import { certsOfPkcs7, pkcs7Of } from './pkcs7.js';

export interface ConvertInput {
  from: ConvertFormat;
  to: ConvertFormat;
  input: string;
  keyPem?: string;
  password?: string;
}

export interface ConvertOutput {
  fileName: string;
  mediaType: string;
  text?: string;
  base64?: string;
}

type Bundle = ParsedObject[];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const failed = (reason: string, extra: Record<string, unknown> = {}) => fail('CONVERT_FAILED', { reason, ...extra });

/** Strict base64 (whitespace allowed): Buffer.from would quietly skip garbage. */
function fromBase64(text: string, what: PemWhat): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') throw fail(emptyCode(what), { what });
  if (compact.includes('-----BEGIN')) throw fail('PEM_INVALID', { what, reason: 'pem_given_for_binary' });
  if (!BASE64.test(compact) || compact.length % 4 === 1) throw fail('PEM_INVALID', { what, reason: 'bad_base64' });
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

function pkcs7Certs(der: Uint8Array): Bundle {
  try {
    const certs = certsOfPkcs7(der);
    if (certs.length === 0) throw failed('no_certificate');
    return certs.map((c) => {
      if (classifyDer(c)?.kind !== 'certificate') throw new DerError('not a certificate');
      return { kind: 'certificate' as const, der: c };
    });
  } catch (err) {
    if (err instanceof DerError) throw fail('PEM_INVALID', { what: 'pkcs7', reason: 'not_pkcs7' });
    throw err;
  }
}

const looksLikePkcs7 = (der: Uint8Array) => {
  try {
    certsOfPkcs7(der);
    return true;
  } catch {
    return false;
  }
};

/** Every PEM block as objects; a label must hold what it names. */
function readPemBundle(text: string, password: string | undefined, what: PemWhat): Bundle {
  const out: Bundle = [];
  for (const block of pemBlocks(text, what)) {
    const kind = kindOfLabel(block.label);
    if (kind === null) throw fail('PEM_INVALID', { what, reason: 'wrong_label', label: block.label });
    if (kind === 'pkcs7') {
      out.push(...pkcs7Certs(block.der));
      continue;
    }
    if (kind === 'encryptedKey') {
      out.push({ kind: 'privateKey', der: decryptPkcs8(block.der, password) });
      continue;
    }
    const parsed = classifyDer(block.der);
    if (parsed?.kind !== kind) throw fail('PEM_INVALID', { what, reason: 'content_not_label', label: block.label });
    out.push(parsed);
  }
  return out;
}

async function readBundle(body: ConvertInput): Promise<Bundle> {
  const { from, input, password } = body;
  if (from === 'pem') return readPemBundle(input, password, 'input');
  if (from === 'pkcs7') {
    if (input.includes('-----BEGIN')) return pkcs7Certs(readPem(input, 'pkcs7', PEM_LABELS.pkcs7).der);
    return pkcs7Certs(checkDer(fromBase64(input, 'pkcs7'), 'pkcs7'));
  }
  if (from === 'der') {
    const der = checkDer(fromBase64(input, 'input'), 'input');
    if (looksLikePkcs7(der)) return pkcs7Certs(der);
    const parsed = classifyDer(der);
    if (!parsed) throw fail('PEM_INVALID', { what: 'input', reason: 'unknown_structure' });
    return [parsed];
  }
  // pkcs12
  const der = checkDer(fromBase64(input, 'input'), 'input');
  if (!password) throw failed('password_required');
  let contents;
  try {
    contents = await readPkcs12(der, password);
  } catch (err) {
    if (err instanceof DerError) throw fail('PEM_INVALID', { what: 'input', reason: 'not_pkcs12' });
    throw err;
  }
  const keys = contents.keys.map((k) => {
    const parsed = classifyDer(k.pkcs8);
    // without a MAC a wrong password can decrypt to padding-valid noise: it is still the password
    if (parsed?.kind !== 'privateKey') throw failed('password');
    return parsed;
  });
  return [...contents.certs.map((c) => ({ kind: 'certificate' as const, der: c.der })), ...keys];
}

const PEM_LABEL: Record<ObjectKind, string> = { certificate: 'CERTIFICATE', csr: 'CERTIFICATE REQUEST', privateKey: 'PRIVATE KEY', publicKey: 'PUBLIC KEY' };
const DER_FILE: Record<ObjectKind, { fileName: string; mediaType: string }> = {
  certificate: { fileName: 'certificate.der', mediaType: 'application/pkix-cert' },
  csr: { fileName: 'request.der', mediaType: 'application/pkcs10' },
  privateKey: { fileName: 'key.der', mediaType: 'application/pkcs8' },
  publicKey: { fileName: 'public-key.der', mediaType: 'application/octet-stream' },
};

const base64 = (der: Uint8Array) => Buffer.from(der).toString('base64');
const ofKind = (bundle: Bundle, kind: ObjectKind) => bundle.filter((o) => o.kind === kind).map((o) => o.der);

function pemFileName(bundle: Bundle): string {
  const kinds = new Set(bundle.map((o) => o.kind));
  if (kinds.size === 1 && kinds.has('certificate')) return bundle.length > 1 ? 'chain.pem' : 'certificate.pem';
  if (kinds.size === 1 && kinds.has('csr')) return 'request.pem';
  if (kinds.size === 1 && kinds.has('privateKey')) return 'key.pem';
  return 'bundle.pem';
}

/** The key for a PKCS#12: in the input, or in keyPem (not both). */
function theKey(bundle: Bundle, keyPem: string | undefined, password: string | undefined): Uint8Array {
  const keys = ofKind(bundle, 'privateKey');
  if (keyPem !== undefined) {
    const extra = readPemBundle(keyPem, password, 'key');
    if (extra.length !== 1 || extra[0]!.kind !== 'privateKey') throw fail('PEM_INVALID', { what: 'key', reason: 'one_private_key_expected' });
    keys.push(extra[0]!.der);
  }
  if (keys.length === 0) throw failed('key_required');
  if (keys.length > 1) throw failed('one_key_expected', { count: keys.length });
  return keys[0]!;
}

async function write(body: ConvertInput, bundle: Bundle): Promise<ConvertOutput> {
  const certs = ofKind(bundle, 'certificate');
  switch (body.to) {
    case 'pem':
      return { fileName: pemFileName(bundle), mediaType: 'application/x-pem-file', text: bundle.map((o) => toPem(PEM_LABEL[o.kind], o.der)).join('') };
    case 'der': {
      // a PKCS#7 to DER stays a PKCS#7 (its PEM armour removed)
      if (body.from === 'pkcs7') return { fileName: 'chain.p7b', mediaType: 'application/x-pkcs7-certificates', base64: base64(pkcs7Of(certs)) };
      if (bundle.length !== 1) throw failed('one_object_expected', { count: bundle.length });
      return { ...DER_FILE[bundle[0]!.kind], base64: base64(bundle[0]!.der) };
    }
    case 'pkcs7': {
      if (certs.length === 0) throw failed('no_certificate');
      const der = pkcs7Of(certs);
      return { fileName: 'chain.p7b', mediaType: 'application/x-pkcs7-certificates', base64: base64(der), text: toPem('PKCS7', der) };
    }
    case 'pkcs12': {
      if (!body.password) throw failed('password_required');
      if (certs.length === 0) throw failed('no_certificate');
      const key = theKey(bundle, body.keyPem, body.password);
      const leaf = certs.findIndex((c) => samePublicKey(key, spkiOfSigned(c)));
      assertLeaf(leaf);
      const ordered = [certs[leaf]!, ...certs.filter((_, i) => i !== leaf)];
      const der = await buildPkcs12({ keyPkcs8: key, certs: ordered, password: body.password });
      return { fileName: 'certificate.p12', mediaType: 'application/x-pkcs12', base64: base64(der) };
    }
  }
}

function assertLeaf(index: number): void {
  if (index < 0) throw fail('CERT_KEY_MISMATCH', { reason: 'no_certificate_for_key' });
}

export async function convert(body: ConvertInput): Promise<ConvertOutput> {
  try {
    return await write(body, await readBundle(body));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // the input is anyone's bytes: whatever a parser below throws on it is the input's fault
    if (err instanceof DerError) throw fail('PEM_INVALID', { what: 'input', reason: 'truncated_or_not_der' });
    throw failed('unreadable');
  }
}
