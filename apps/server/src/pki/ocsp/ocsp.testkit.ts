/**
 * openssl for the OCSP and device-on-the-wire suites: the judge (`openssl ocsp`) and a maker of
 * CAs we did not issue (throwaway broker CA, "foreign" CA, self-signed device). Missing openssl
 * fails the suite with the install line (common.md).
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const OPENSSL_MISSING = 'openssl is not installed: apt-get install -y openssl mosquitto';

export function openssl(args: string[], opts: { cwd?: string; input?: Buffer | string; allowFail?: boolean } = {}): { code: number; out: string } {
  const r = spawnSync('openssl', args, { cwd: opts.cwd, input: opts.input, encoding: 'utf8', timeout: 30_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(OPENSSL_MISSING);
  if (r.error) throw r.error;
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0 && !opts.allowFail) throw new Error(`openssl ${args.join(' ')} failed (${r.status}): ${out}`);
  return { code: r.status ?? -1, out };
}

export type KeySpec = 'ec256' | 'ec384' | 'rsa2048';
const KEY_ARGS: Record<KeySpec, string[]> = {
  ec256: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  ec384: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'],
  rsa2048: ['-newkey', 'rsa:2048'],
};

export interface Made {
  certPath: string;
  keyPath: string;
  certPem: string;
  keyPem: string;
  /** decimal */
  serial: string;
}

function read(certPath: string, keyPath: string): Made {
  const serialHex = openssl(['x509', '-in', certPath, '-noout', '-serial']).out.trim().split('=')[1]!;
  return {
    certPath,
    keyPath,
    certPem: fs.readFileSync(certPath, 'utf8'),
    keyPem: fs.readFileSync(keyPath, 'utf8'),
    serial: BigInt(`0x${serialHex}`).toString(10),
  };
}

/** A self-signed CA (or, with `selfSignedLeaf`, a self-signed end-entity certificate). */
export function makeRoot(dir: string, name: string, key: KeySpec = 'ec256', opts: { selfSignedLeaf?: boolean } = {}): Made {
  const certPath = path.join(dir, `${name}.pem`);
  const keyPath = path.join(dir, `${name}.key`);
  const ext = opts.selfSignedLeaf
    ? ['-addext', 'basicConstraints=critical,CA:FALSE', '-addext', 'keyUsage=critical,digitalSignature', '-addext', 'extendedKeyUsage=clientAuth']
    : ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'];
  openssl(['req', '-x509', ...KEY_ARGS[key], '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '30', '-subj', `/CN=${name}`, ...ext]);
  return read(certPath, keyPath);
}

/** A leaf signed by `ca`; `server` adds serverAuth and a 127.0.0.1 / localhost SAN (the broker's). */
export function makeLeaf(dir: string, ca: Made, name: string, opts: { key?: KeySpec; server?: boolean } = {}): Made {
  const certPath = path.join(dir, `${name}.pem`);
  const keyPath = path.join(dir, `${name}.key`);
  const csrPath = path.join(dir, `${name}.csr`);
  const extPath = path.join(dir, `${name}.ext`);
  openssl(['req', '-new', ...KEY_ARGS[opts.key ?? 'ec256'], '-nodes', '-keyout', keyPath, '-out', csrPath, '-subj', `/CN=${name}`]);
  fs.writeFileSync(
    extPath,
    [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      `extendedKeyUsage=${opts.server ? 'serverAuth' : 'clientAuth'}`,
      ...(opts.server ? ['subjectAltName=IP:127.0.0.1,DNS:localhost'] : []),
    ].join('\n'),
  );
  openssl([
    'x509',
    '-req',
    '-in',
    csrPath,
    '-CA',
    ca.certPath,
    '-CAkey',
    ca.keyPath,
    '-set_serial',
    `0x${randomSerialHex()}`,
    '-days',
    '7',
    '-extfile',
    extPath,
    '-out',
    certPath,
  ]);
  return read(certPath, keyPath);
}

function randomSerialHex(): string {
  // 64 random bits, positive: like ours (CA-01)
  const b = crypto.randomBytes(8);
  b[0] = (b[0]! & 0x7f) | 0x10;
  return b.toString('hex');
}

/**
 * `openssl ocsp` against a URL: its whole output (status lines, "Response verify OK", reason).
 * Asynchronous: the server it asks usually runs in this very process.
 */
export function ocspQuery(args: {
  issuerPath: string;
  certPath: string;
  url: string;
  caFile: string;
  extra?: string[];
}): Promise<{ code: number; out: string }> {
  const argv = ['ocsp', '-issuer', args.issuerPath, '-cert', args.certPath, '-url', args.url, '-CAfile', args.caFile, '-timeout', '10', ...(args.extra ?? [])];
  return new Promise((resolve, reject) => {
    const child = spawn('openssl', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new Error(OPENSSL_MISSING) : err));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}
