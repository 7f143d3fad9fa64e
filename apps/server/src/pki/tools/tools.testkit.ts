/**
 * openssl as the judge of the tools' tests: a temp directory, a runner that fails with the
 * install hint when openssl is missing, and openssl-made keys, certificates and CSRs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const HINT = 'openssl is needed by the PKI tool tests: apt-get install -y openssl';

export function requireOpenssl(): void {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
  } catch {
    throw new Error(HINT);
  }
}

export interface Workdir {
  dir: string;
  /** path of a file in the directory */
  p(name: string): string;
  write(name: string, data: string | Uint8Array): string;
  read(name: string): Buffer;
  /** runs openssl in the directory; answers stdout (throws with stderr on failure) */
  openssl(args: string[], input?: string | Uint8Array): string;
  /** the same, answering stdout and stderr together (openssl prints -info on stderr) */
  opensslAll(args: string[]): string;
  dispose(): void;
}

function run(cwd: string, args: string[], input?: string | Uint8Array): { stdout: string; stderr: string } {
  const r = spawnSync('openssl', args, { cwd, input, encoding: 'latin1' });
  if (r.error) throw new Error((r.error as NodeJS.ErrnoException).code === 'ENOENT' ? HINT : String(r.error));
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

export function workdir(): Workdir {
  requireOpenssl();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-pki-tools-'));
  const p = (name: string) => path.join(dir, name);
  return {
    dir,
    p,
    write: (name, data) => {
      fs.writeFileSync(p(name), data);
      return p(name);
    },
    read: (name) => fs.readFileSync(p(name)),
    openssl: (args, input) => run(dir, args, input).stdout,
    opensslAll: (args) => {
      const r = run(dir, args);
      return r.stdout + r.stderr;
    },
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export type KeyKind = 'rsa' | 'ec' | 'ed25519';
const GENKEY: Record<KeyKind, string[]> = {
  rsa: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
  ec: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  ed25519: ['-algorithm', 'ED25519'],
};

/** A key (PKCS#8 PEM) in `<name>.key`. */
export function makeKey(w: Workdir, name: string, kind: KeyKind): string {
  w.openssl(['genpkey', ...GENKEY[kind], '-out', `${name}.key`]);
  return w.read(`${name}.key`).toString();
}

/** A self-signed CA in `<name>.crt` / `<name>.key`. */
export function makeCa(w: Workdir, name: string, kind: KeyKind = 'ec'): { certPem: string; keyPem: string } {
  const keyPem = makeKey(w, name, kind);
  w.openssl(['req', '-x509', '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-days', '30', '-out', `${name}.crt`]);
  return { certPem: w.read(`${name}.crt`).toString(), keyPem };
}

/** A leaf signed by `ca` with SAN, KU, EKU, CRL DP, AIA and a policy, in `<name>.crt` / `.key` / `.csr`. */
export function makeLeaf(w: Workdir, name: string, kind: KeyKind, ca: string): { certPem: string; keyPem: string; csrPem: string } {
  const keyPem = makeKey(w, name, kind);
  w.openssl([
    'req',
    '-new',
    '-key',
    `${name}.key`,
    '-subj',
    `/O=Umbo Test/CN=${name}.example`,
    '-addext',
    `subjectAltName=DNS:${name}.example,IP:10.0.0.7`,
    '-out',
    `${name}.csr`,
  ]);
  w.write(
    `${name}.ext`,
    [
      'basicConstraints=critical,CA:FALSE',
      `keyUsage=critical,digitalSignature${kind === 'rsa' ? ',keyEncipherment' : ''}`,
      'extendedKeyUsage=clientAuth,serverAuth',
      `subjectAltName=DNS:${name}.example,IP:10.0.0.7,email:dev@${name}.example`,
      'subjectKeyIdentifier=hash',
      'authorityKeyIdentifier=keyid',
      'crlDistributionPoints=URI:http://umbo.test/pki/ca.crl',
      'authorityInfoAccess=OCSP;URI:http://umbo.test/pki/ocsp,caIssuers;URI:http://umbo.test/pki/ca.crt',
      'certificatePolicies=2.23.140.1.2.1',
      '1.2.3.4.5.6.7=DER:04:03:01:02:03',
      '',
    ].join('\n'),
  );
  w.openssl([
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-set_serial',
    '0x0123456789ABCDEF01',
    '-days',
    '10',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  ]);
  return { certPem: w.read(`${name}.crt`).toString(), keyPem, csrPem: w.read(`${name}.csr`).toString() };
}

/** The DER inside a single-block PEM. */
export const derOf = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
