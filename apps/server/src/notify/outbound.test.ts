/**
 * A-37 (AS-26): the outbound guard decides on address bytes. Every spelling of a private
 * address — dotted, hex-mapped `::ffff:7f00:1`, NAT64, 6to4, the integer/octal/hex hosts the
 * URL parser normalises — is refused, and a real HTTP server on loopback shows no request
 * reaches it, while the same URLs with allowPrivate do reach it (so the test can fail).
 * Public addresses are checked through the predicate only: this machine has no outside
 * network and the tests send nothing beyond loopback.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPrivateAddress, parseIPv6 } from './ip-ranges.js';
import { sendViaRealmSmtp } from './mailer.js';
import { guardPeer, outbound, OutboundRefused, resolveChecked, type Resolver } from './outbound.js';

const hits: string[] = [];
let port = 0;
const server = http.createServer((req, res) => {
  hits.push(req.url!);
  if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end();
  else res.writeHead(200).end('ok');
});
beforeAll(
  () =>
    new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      }),
    ),
);
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const BLOCKED = [
  // IPv4, first and last address of each range (RFC 6890 and updates) and cloud metadata
  '0.0.0.0',
  '0.255.255.255',
  '10.0.0.0',
  '10.255.255.255',
  '100.64.0.0',
  '100.127.255.255',
  '100.100.100.200',
  '127.0.0.1',
  '127.255.255.255',
  '169.254.0.0',
  '169.254.169.254',
  '172.16.0.0',
  '172.31.255.255',
  '192.0.0.0',
  '192.0.0.192',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.0.1',
  '192.168.255.255',
  '198.18.0.0',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.255',
  '240.0.0.1',
  '255.255.255.255',
  '168.63.129.16',
  // IPv4-mapped, every spelling (RFC 4291 §2.5.5.2)
  '::ffff:7f00:1',
  '::ffff:a00:1',
  '::ffff:127.0.0.1',
  '::FFFF:7F00:1',
  '0:0:0:0:0:ffff:7f00:1',
  '0000:0000:0000:0000:0000:ffff:7f00:0001',
  '::ffff:a9fe:a9fe',
  '::ffff:169.254.169.254',
  '::ffff:a83f:8110',
  '::ffff:c0a8:1',
  // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1) and IPv4-translated (RFC 2765)
  '::127.0.0.1',
  '::7f00:1',
  '::8.8.8.8',
  '::ffff:0:7f00:1',
  '::ffff:0:808:808',
  // NAT64 (RFC 6052, RFC 8215), 6to4 (RFC 3056), Teredo (RFC 4380)
  '64:ff9b::7f00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::a00:1',
  '64:ff9b:1::808:808',
  '2002:7f00:1::',
  '2002:a00:1::1',
  '2002:a9fe:a9fe::',
  '2002:c0a8:101::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  // IPv6 special ranges
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  'fc00::1',
  'fd00::2',
  'fd00:ec2::254',
  'FE80::1',
  'fe80::1%eth0',
  'febf:ffff::1',
  'fec0::1',
  'ff02::1',
  'ff0e::1',
  '2001:db8::1',
  '2001:db8:ffff::1',
  '100::1',
  '3fff::1',
  '3fff:fff::1',
  '2001:2::1',
  '2001:1ff:ffff::1',
  '4000::1',
  '5f00::1',
  '::ffff:1:2:3',
  // not an address at all: refused, never guessed at (octal, short forms are inet_aton's)
  'localhost',
  '0177.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '',
  '1::2::3',
  '::ffff:1.2.3.256',
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '9.9.9.9',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
  '2606:4700::1111',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2001:200::1',
  '2001:db7:ffff::1',
  '2001:db9::1',
  '3fff:1000::1',
  '2003::1',
];

it('A-37 the predicate refuses every spelling of a private, special or metadata address', () => {
  const missed = BLOCKED.filter((ip) => !isPrivateAddress(ip));
  expect(missed).toEqual([]);
});

it('A-37 the predicate allows public unicast addresses (predicate only, no traffic)', () => {
  const refused = ALLOWED.filter((ip) => isPrivateAddress(ip));
  expect(refused).toEqual([]);
});

/** A small deterministic PRNG (mulberry32), so a failure reproduces. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

it('A-37 every IPv6 form that carries IPv4 is decided like the IPv4 address it carries', () => {
  const rand = prng(37);
  const samples = ['127.0.0.1', '10.1.2.3', '169.254.169.254', '100.100.100.200', '168.63.129.16', '8.8.8.8', '192.0.2.1', '0.0.0.0'];
  // random addresses, half of them drawn from the first octets that hold blocked ranges
  for (let i = 0; i < 2000; i++) {
    const first = i % 2 ? [0, 10, 100, 127, 169, 172, 192, 198, 203, 224, 240, 255][Math.floor(rand() * 12)]! : Math.floor(rand() * 256);
    samples.push([first, ...[0, 1, 2].map(() => Math.floor(rand() * 256))].join('.'));
  }
  for (const dotted of samples) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    const hi = ((a << 8) | b).toString(16);
    const lo = ((c << 8) | d).toString(16);
    const expected = isPrivateAddress(dotted);
    for (const form of [
      `::ffff:${dotted}`,
      `::ffff:${hi}:${lo}`,
      `0:0:0:0:0:FFFF:${hi}:${lo}`,
      `64:ff9b::${hi}:${lo}`,
      `64:ff9b::${dotted}`,
      `2002:${hi}:${lo}::1`,
    ]) {
      expect([form, isPrivateAddress(form)]).toEqual([form, expected]);
    }
  }
});

/** Eight groups of hex, uncompressed: a spelling Node's inet_pton reads without doubt. */
function fullForm(bytes: number[]): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

it("A-37 the predicate's IPv6 reading agrees with Node's inet_pton on random spellings", () => {
  const rand = prng(4291);
  for (let n = 0; n < 1000; n++) {
    // addresses with zero runs (so `::` has work to do) and some with the special prefixes
    const bytes = Array.from({ length: 16 }, () => (rand() < 0.5 ? 0 : Math.floor(rand() * 256)));
    if (n % 4 === 0) bytes.splice(0, 12, ...[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]);
    if (n % 4 === 1) bytes.splice(0, 12, ...[0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]);
    const groups = fullForm(bytes).split(':');
    // spell it: random case, random leading zeros, `::` over the longest zero run, a dotted tail
    let text = groups
      .map((g) => (rand() < 0.3 ? g.padStart(4, '0') : g))
      .map((g) => (rand() < 0.5 ? g.toUpperCase() : g))
      .join(':');
    if (rand() < 0.5) text = text.replace(/(^|:)0+(:0+)+(:|$)/, '::');
    const parts = text.split(':');
    // the last two groups written out (not inside a `::`) become a dotted quad
    if (rand() < 0.3 && parts.at(-1) && parts.at(-2)) text = `${parts.slice(0, -2).join(':') || ':'}:${bytes.slice(12).join('.')}`;
    expect(net.isIPv6(text), text).toBe(true);
    expect(Array.from(parseIPv6(text) ?? []), text).toEqual(bytes);
    const oracle = new net.BlockList();
    oracle.addAddress(fullForm(bytes), 'ipv6');
    expect(oracle.check(text, 'ipv6'), text).toBe(true);
    // and the predicate reads it as the same address as its canonical spelling
    expect(isPrivateAddress(text), text).toBe(isPrivateAddress(fullForm(bytes)));
  }
  // what Node does not take as IPv6, neither do we
  for (const bad of [
    '1::2::3',
    ':::',
    '1:2:3:4:5:6:7:8:9',
    '1::2:3:4:5:6:7:8',
    '12345::',
    '::1.2.3',
    '1.2.3.4::',
    'g::',
    ':1::',
    '1::2:',
    '::1.2.3.04',
    '::ffff:1.2.3.256',
    '1:2:3:4:5:6:7',
    '::1.2.3.4:5',
  ]) {
    expect([bad, net.isIPv6(bad), parseIPv6(bad)]).toEqual([bad, false, null]);
  }
});

const PORT = (): number => port;
/** Every URL spelling of this machine's loopback that the URL parser or DNS turns into it. */
const LOOPBACK_URLS = (): string[] => [
  `http://127.0.0.1:${PORT()}/`,
  `http://[::ffff:7f00:1]:${PORT()}/`,
  `http://[::ffff:127.0.0.1]:${PORT()}/`,
  `http://[0:0:0:0:0:ffff:7f00:1]:${PORT()}/`,
  `http://[::FFFF:7F00:1]:${PORT()}/`,
  `http://2130706433:${PORT()}/`,
  `http://0x7f000001:${PORT()}/`,
  `http://0177.0.0.1:${PORT()}/`,
  `http://127.1:${PORT()}/`,
  `http://0x7f.1:${PORT()}/`,
  `http://localhost:${PORT()}/`,
  `http://LOCALHOST:${PORT()}/`,
  `http://127.0.0.1.:${PORT()}/`,
];
/** Private spellings that would not reach our server here (no NAT64/6to4), refused all the same. */
const OTHER_PRIVATE_URLS = (): string[] => [
  `http://[::1]:${PORT()}/`,
  `http://[::127.0.0.1]:${PORT()}/`,
  `http://[64:ff9b::7f00:1]:${PORT()}/`,
  `http://[2002:7f00:1::]:${PORT()}/`,
  `http://[::ffff:a9fe:a9fe]/latest/meta-data/`,
  `http://169.254.169.254/latest/meta-data/`,
  `http://[fd00:ec2::254]/`,
  `http://100.100.100.200/`,
  `http://168.63.129.16/`,
  `https://[::ffff:7f00:1]:${PORT()}/`,
  `http://[fe80::1]/`,
];

it('A-37 outbound() refuses every bypass URL form and the loopback server gets no request', async () => {
  hits.length = 0;
  for (const url of [...LOOPBACK_URLS(), ...OTHER_PRIVATE_URLS()]) {
    const err = await outbound({ method: 'POST', url, body: 'x', allowPrivate: false }).catch((e: unknown) => e);
    expect([url, err instanceof OutboundRefused]).toEqual([url, true]);
  }
  expect(hits).toEqual([]);
});

it('A-37 the same loopback URLs do reach the server with allowPrivate (the refusal is the guard)', async () => {
  hits.length = 0;
  for (const url of LOOPBACK_URLS()) {
    const res = await outbound({ method: 'GET', url, allowPrivate: true });
    expect([url, res]).toEqual([url, { status: 200, body: 'ok' }]);
  }
  expect(hits).toHaveLength(LOOPBACK_URLS().length);
});

it('A-37 a 3xx is returned as a status and never followed', async () => {
  hits.length = 0;
  const res = await outbound({ method: 'GET', url: `http://127.0.0.1:${port}/redirect`, allowPrivate: true });
  expect(res.status).toBe(302);
  expect(hits).toEqual(['/redirect']);
});

it('A-37 a connection made while private targets were allowed is not reused when they are not', async () => {
  hits.length = 0;
  expect((await outbound({ method: 'GET', url: `http://localhost:${port}/first`, allowPrivate: true })).status).toBe(200);
  await expect(outbound({ method: 'GET', url: `http://localhost:${port}/second`, allowPrivate: false })).rejects.toBeInstanceOf(OutboundRefused);
  expect(hits).toEqual(['/first']);
});

/** A resolver playing a DNS server: answers in turn, the last one repeated; counts calls. */
function scripted(...answers: string[][]): Resolver & { calls: number } {
  const fn = Object.assign(
    async (_host: string) => {
      const list = answers[Math.min(fn.calls++, answers.length - 1)]!;
      return list.map((address) => ({ address, family: net.isIP(address) }));
    },
    { calls: 0 },
  );
  return fn;
}

it('A-37 a host name that resolves to a private address is refused (system DNS and injected answers)', async () => {
  hits.length = 0;
  await expect(outbound({ method: 'GET', url: `http://localhost:${port}/`, allowPrivate: false })).rejects.toBeInstanceOf(OutboundRefused);
  for (const answer of [['127.0.0.1'], ['::ffff:7f00:1'], ['8.8.8.8', '127.0.0.1'], ['2606:4700::1111', '::ffff:a9fe:a9fe'], []]) {
    const resolve = scripted(answer);
    const err = await outbound({ method: 'GET', url: `http://sms-gateway.test:${port}/`, allowPrivate: false }, { resolve }).catch((e: unknown) => e);
    expect([answer, err instanceof OutboundRefused, resolve.calls]).toEqual([answer, true, 1]);
  }
  expect(hits).toEqual([]);
});

it('A-37 DNS rebinding: one lookup per request, and the socket connects to the answer that was checked', async () => {
  hits.length = 0;
  // A rebinding server answers differently the second time. Were the name looked up again to
  // connect, the request would go to 127.0.0.3, where nothing listens, and fail.
  const resolve = scripted(['127.0.0.1'], ['127.0.0.3']);
  const res = await outbound({ method: 'GET', url: `http://rebind.test:${port}/pinned`, allowPrivate: true }, { resolve });
  expect(res.status).toBe(200);
  expect(resolve.calls).toBe(1);
  expect(hits).toEqual(['/pinned']);
  // With the guard on, the first (and only) answer is what gets judged.
  const evil = scripted(['127.0.0.1'], ['8.8.8.8']);
  await expect(outbound({ method: 'GET', url: `http://rebind.test:${port}/`, allowPrivate: false }, { resolve: evil })).rejects.toBeInstanceOf(OutboundRefused);
  expect(evil.calls).toBe(1);
  expect(hits).toEqual(['/pinned']);
});

it('A-37 the connected peer is checked again on connect, before any byte is written', async () => {
  let received = 0;
  const tcp = net.createServer((s) => s.on('data', (c: Buffer) => (received += c.length)));
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const tcpPort = (tcp.address() as net.AddressInfo).port;
  const attempt = (allowPrivate: boolean) =>
    new Promise<unknown>((resolve) => {
      const socket = net.connect(tcpPort, '127.0.0.1');
      // written (and buffered) while connecting, before the guard is attached: the worst order
      socket.write('GET / HTTP/1.1\r\n\r\n');
      guardPeer(socket, allowPrivate, (err) => socket.destroy(err));
      socket.on('error', resolve);
      socket.on('connect', () => setTimeout(() => resolve(socket.destroy()), 100));
    });
  expect(await attempt(false)).toBeInstanceOf(OutboundRefused);
  await new Promise((r) => setTimeout(r, 100));
  expect(received).toBe(0);
  await attempt(true);
  expect(received).toBeGreaterThan(0);
  await new Promise<void>((resolve) => tcp.close(() => resolve()));
});

it('A-37 SMTP: resolveChecked refuses the hex-mapped form and names that resolve privately', async () => {
  for (const host of [
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '::ffff:127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    'fe80::1%eth0',
    'localhost',
    '127.1',
    '2130706433',
  ]) {
    const err = await resolveChecked(host, false).catch((e: unknown) => e);
    expect([host, err instanceof OutboundRefused]).toEqual([host, true]);
  }
  await expect(resolveChecked('mail.test', false, scripted(['203.0.113.5', '8.8.8.8']))).rejects.toBeInstanceOf(OutboundRefused);
  expect(await resolveChecked('8.8.8.8', false)).toBe('8.8.8.8');
  expect(await resolveChecked('mail.test', false, scripted(['2606:4700::1111']))).toBe('2606:4700::1111');
  expect(await resolveChecked('localhost', true)).toBe('127.0.0.1');
});

it('A-37 SMTP: the realm mailer never dials a refused host and keeps the host name for TLS', async () => {
  const seen: { local: string; hello: Buffer }[] = [];
  const tcp = net.createServer((s) =>
    s.once('data', (hello: Buffer) => {
      seen.push({ local: s.localAddress!, hello });
      s.destroy();
    }),
  );
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const tcpPort = (tcp.address() as net.AddressInfo).port;
  const mail = { to: 'a@example.test', subject: 's', text: 't', html: 'h' };
  const cfg = (host: string) => ({ host, port: tcpPort, secure: true, from: 'x@umbo.test' });
  for (const host of ['::ffff:7f00:1', '::ffff:127.0.0.1', 'localhost', '127.1']) {
    await expect(sendViaRealmSmtp(cfg(host), undefined, false, mail)).rejects.toBeInstanceOf(OutboundRefused);
  }
  expect(seen).toEqual([]);
  // Allowed: the connection goes to the checked address and the TLS ClientHello names the host.
  await expect(sendViaRealmSmtp(cfg('localhost'), undefined, true, mail)).rejects.toThrow();
  expect(seen).toHaveLength(1);
  expect(seen[0]!.local).toBe('127.0.0.1');
  expect(seen[0]!.hello[0]).toBe(0x16); // a TLS handshake record
  expect(seen[0]!.hello.includes(Buffer.from('localhost'))).toBe(true); // server_name extension
  await new Promise<void>((resolve) => tcp.close(() => resolve()));
});
