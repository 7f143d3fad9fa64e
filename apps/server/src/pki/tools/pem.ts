/**
 * THE PEM reader (RFC 7468) of the PKI — issuance, set cert and the tools all read through it —
 * and the writer. Strict, with errors a person can act on: nothing pasted → CERT_EMPTY /
 * CSR_EMPTY; otherwise PEM_INVALID {what, reason}: no PEM at all (not_pem), a BEGIN without
 * its END (no_end_line), base64 on the BEGIN line
 * (no_line_break), RFC 1421 headers, which RFC 7468 does not permit (pem_headers; encrypted_pem
 * for a traditionally encrypted key), base64 not in RFC 7468's strict padded form (bad_base64),
 * DER inside that is cut off or not DER (truncated_or_not_der), another label (wrong_label).
 */
import { fail } from '../../platform/errors.js';
import { DerError, parse, walk } from './der.js';

export interface PemBlock {
  label: string;
  der: Uint8Array;
}

/** What a PEM input should hold; names the error's `what` and which "empty" code applies. */
export type PemWhat = 'certificate' | 'csr' | 'key' | 'chain' | 'pkcs7' | 'input';

/** Labels each kind accepts (RFC 7468 §5–§11; "NEW CERTIFICATE REQUEST" from older tools). */
export const PEM_LABELS = {
  certificate: ['CERTIFICATE'],
  csr: ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST'],
  privateKey: ['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'ENCRYPTED PRIVATE KEY'],
  publicKey: ['PUBLIC KEY', 'RSA PUBLIC KEY'],
  pkcs7: ['PKCS7', 'CMS'],
} as const;

const BEGIN = /-----BEGIN ([A-Z0-9 ]{1,40})-----/g;
const BASE64_BODY = /^[A-Za-z0-9+/]+={0,2}$/;

export const emptyCode = (what: PemWhat) => (what === 'csr' ? 'CSR_EMPTY' : 'CERT_EMPTY');

const invalid = (what: PemWhat, reason: string) => fail('PEM_INVALID', { what, reason });

/**
 * Every PEM block in `text`, in order. Text between and around the blocks is ignored: RFC 7468
 * §2 has parsers cope with explanatory text, and what people paste carries it (openssl's
 * `subject=` lines, pkcs12's "Bag Attributes"). A block cut off before its END line is refused.
 */
export function pemBlocks(text: string, what: PemWhat): PemBlock[] {
  if (text.trim() === '') throw fail(emptyCode(what), { what });
  const blocks: PemBlock[] = [];
  BEGIN.lastIndex = 0;
  for (let m = BEGIN.exec(text); m; m = BEGIN.exec(text)) {
    const label = m[1]!;
    const endMarker = `-----END ${label}-----`;
    const bodyStart = m.index + m[0].length;
    const end = text.indexOf(endMarker, bodyStart);
    if (end < 0) throw invalid(what, 'no_end_line');
    const body = text.slice(bodyStart, end);
    if (body.includes('-----')) throw invalid(what, 'no_end_line');
    // RFC 7468 §3: the base64 starts on the line after BEGIN
    if (!/^[ \t]*\r?\n/.test(body)) throw invalid(what, 'no_line_break');
    if (/^\s*[A-Za-z-]+:/.test(body)) throw invalid(what, /Proc-Type:\s*4,ENCRYPTED/i.test(body) ? 'encrypted_pem' : 'pem_headers');
    const compact = body.replace(/\s+/g, '');
    if (!BASE64_BODY.test(compact) || compact.length % 4 !== 0) throw invalid(what, 'bad_base64');
    const der = new Uint8Array(Buffer.from(compact, 'base64'));
    blocks.push({ label, der: checkDer(der, what) });
    BEGIN.lastIndex = end + endMarker.length;
  }
  if (blocks.length === 0) throw invalid(what, 'not_pem');
  return blocks;
}

/** The DER must be one complete TLV whose nested lengths all fit: a cut-off body fails here. */
export function checkDer(der: Uint8Array, what: PemWhat): Uint8Array {
  try {
    walk(parse(der));
  } catch (err) {
    if (err instanceof DerError) throw invalid(what, 'truncated_or_not_der');
    throw err;
  }
  return der;
}

/** Exactly one block with one of `labels`. */
export function readPem(text: string, what: PemWhat, labels: readonly string[]): PemBlock {
  const blocks = pemBlocks(text, what);
  if (blocks.length !== 1) throw invalid(what, 'one_block_expected');
  const block = blocks[0]!;
  if (!labels.includes(block.label)) throw fail('PEM_INVALID', { what, reason: 'wrong_label', label: block.label });
  return block;
}

/** One or more blocks, each with one of `labels` (a chain). */
export function readPemAll(text: string, what: PemWhat, labels: readonly string[]): PemBlock[] {
  const blocks = pemBlocks(text, what);
  const wrong = blocks.find((b) => !labels.includes(b.label));
  if (wrong) throw fail('PEM_INVALID', { what, reason: 'wrong_label', label: wrong.label });
  return blocks;
}

export const readCertificatePem = (text: string) => readPem(text, 'certificate', PEM_LABELS.certificate).der;
export const readCsrPem = (text: string) => readPem(text, 'csr', PEM_LABELS.csr).der;

/** PEM text: 64-character lines, a final newline. */
export function toPem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${(b64.match(/.{1,64}/g) ?? []).join('\n')}\n-----END ${label}-----\n`;
}
