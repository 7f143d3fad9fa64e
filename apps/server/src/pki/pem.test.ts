/**
 * One PEM reader (tools/pem.ts) behind every door (issue 13): issuance (CSR), set cert
 * (certificate and chain) and the tools (view, convert) refuse the same malformed PEM with the
 * same code and reason — a paste the tools accept is never refused by issuance, nor the reverse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../platform/errors.js';
import { parseCertPem, parseChainPem, parseCsr } from './input.js';
import { convert } from './tools/convert.js';
import { decodeCertificate, decodeCsr } from './tools/decode.js';
import { makeCa, makeLeaf, workdir, type Workdir } from './tools/tools.testkit.js';

async function failure(fn: () => unknown): Promise<{ code: number; errData?: Record<string, unknown> }> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof ApiError) return { code: err.def.code, errData: err.errData };
    throw err;
  }
  throw new Error('accepted, expected a failure');
}

/** Malformed variants of a valid single-block PEM, each with the reason it is refused for. */
function variants(pem: string): [string, string, string][] {
  const [begin, ...rest] = pem.trim().split('\n');
  const end = rest.pop()!;
  const body = rest.join('');
  const label = /-----BEGIN (.+)-----/.exec(begin!)![1]!;
  const unpadded = body.replace(/=+$/, '');
  return [
    ['no END line', [begin, ...rest].join('\n'), 'no_end_line'],
    ['base64 on the BEGIN line', `${begin}${rest.join('\n')}\n${end}\n`, 'no_line_break'],
    ['RFC 1421 headers', [begin, 'Comment: hello', '', ...rest, end].join('\n'), 'pem_headers'],
    ['a character outside base64', [begin, `${rest[0]!.slice(0, -1)}*`, ...rest.slice(1), end].join('\n'), 'bad_base64'],
    ...(unpadded !== body ? [['base64 without its padding', `${begin}\n${unpadded}\n${end}\n`, 'bad_base64'] as [string, string, string]] : []),
    ['the body cut short', [begin, ...rest.slice(0, 2), end].join('\n'), 'truncated_or_not_der'],
    ['a legacy label', pem.replaceAll(label, label === 'CERTIFICATE' ? 'X509 CERTIFICATE' : 'CERTIFICATE'), 'wrong_label'],
  ];
}

describe('pki: one PEM reader for issuance, set cert and the tools', () => {
  let w: Workdir;
  let leaf: { certPem: string; csrPem: string };
  beforeAll(() => {
    w = workdir();
    makeCa(w, 'ca', 'ec');
    leaf = makeLeaf(w, 'leaf', 'rsa', 'ca');
  });
  afterAll(() => w?.dispose());

  it('the valid inputs are read by every door', async () => {
    expect((await parseCsr(leaf.csrPem)).spkiDer.length).toBeGreaterThan(200);
    expect(parseCertPem(leaf.certPem).subject).toContain('CN=leaf.example');
    expect(parseChainPem(`${leaf.certPem}\n${w.read('ca.crt').toString()}`)).toHaveLength(2);
    expect(decodeCsr(leaf.csrPem).kind).toBe('csr');
    expect((await convert({ from: 'pem', to: 'der', input: leaf.certPem })).fileName).toBe('certificate.der');
  });

  it('text around the blocks is ignored by every door (RFC 7468 §2): openssl -print_certs and pkcs12 output are pasted as they are', async () => {
    const printed = (pem: string) => `Bag Attributes\n    localKeyID: 01 00 00 00\nsubject=CN = leaf.example\nissuer=CN = ca\n${pem}\ntrailing words`;
    expect((await parseCsr(printed(leaf.csrPem))).spkiDer.length).toBeGreaterThan(200);
    expect(parseCertPem(printed(leaf.certPem)).subject).toContain('CN=leaf.example');
    expect(parseChainPem(`${printed(leaf.certPem)}\n${printed(w.read('ca.crt').toString())}`)).toHaveLength(2);
    expect(decodeCsr(printed(leaf.csrPem)).kind).toBe('csr');
    expect(decodeCertificate(printed(leaf.certPem), 0).kind).toBe('certificate');
    expect((await convert({ from: 'pem', to: 'der', input: printed(leaf.certPem) })).fileName).toBe('certificate.der');
  });

  it('a malformed CSR: 1102 with the same reason from issuance and from view CSR', async () => {
    for (const [what, pem, reason] of variants(leaf.csrPem)) {
      const expected = { code: 1102, errData: { what: 'csr', reason } };
      expect(await failure(() => parseCsr(pem)), what).toMatchObject(expected);
      expect(await failure(() => decodeCsr(pem)), what).toMatchObject(expected);
    }
  });

  it('a malformed certificate: 1102 with the same reason from set cert, its chain, view certificate and convert', async () => {
    for (const [what, pem, reason] of variants(leaf.certPem)) {
      expect(await failure(() => parseCertPem(pem)), what).toMatchObject({ code: 1102, errData: { what: 'certificate', reason } });
      expect(await failure(() => decodeCertificate(pem, 0)), what).toMatchObject({ code: 1102, errData: { what: 'certificate', reason } });
      expect(await failure(() => parseChainPem(pem)), what).toMatchObject({ code: 1102, errData: { what: 'chain', reason } });
      // convert reads any label: a legacy one is refused as unknown there too
      expect(await failure(() => convert({ from: 'pem', to: 'der', input: pem })), what).toMatchObject({ code: 1102, errData: { what: 'input', reason } });
    }
  });

  it('nothing pasted: CSR_EMPTY (1100) and CERT_EMPTY (1101) at every door; an empty chain is no chain', async () => {
    expect((await failure(() => parseCsr('  \n'))).code).toBe(1100);
    expect((await failure(() => decodeCsr(''))).code).toBe(1100);
    expect((await failure(() => parseCertPem(undefined))).code).toBe(1101);
    expect((await failure(() => decodeCertificate(' ', 0))).code).toBe(1101);
    expect(parseChainPem('\n')).toEqual([]);
  });
});
