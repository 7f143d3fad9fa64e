/**
 * A real Mosquitto for the device-on-the-wire suite (issue 13 "Tests"): its own temp directory
 * and configuration, one TLS listener on a free loopback port that demands a client certificate
 * verified against `cafile` (and `crlfile` when given). Mosquitto reads its CA and CRL files
 * only at start, so a fresh CRL means `restart()`. The suite calls `stop()` in afterAll; the
 * process is also killed if the test process exits first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { freePort, sleep } from './processes.js';

export const MOSQUITTO = process.env.MOSQUITTO_BIN || '/usr/sbin/mosquitto';
export const MOSQUITTO_MISSING = `mosquitto is not installed at ${MOSQUITTO}: apt-get install -y mosquitto`;

export interface BrokerFiles {
  /** PEM: every certificate a client chain is verified against (trust anchors and intermediates) */
  cafile: string;
  /** PEM: the broker's own certificate and key */
  certfile: string;
  keyfile: string;
  /** PEM: CRLs checked for the client certificate */
  crlfile?: string;
}

export interface Broker {
  port: number;
  dir: string;
  /** stops and starts it again with the files as they are now (Mosquitto reads them at start) */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** what the broker logged so far (all runs) */
  log(): string;
}

export function assertMosquittoInstalled(): void {
  if (!fs.existsSync(MOSQUITTO)) throw new Error(MOSQUITTO_MISSING);
}

function config(port: number, files: BrokerFiles): string {
  // Mosquitto started as root drops to the user named here; the temp files are ours, so stay us.
  const user = os.userInfo().username;
  return [
    `user ${user}`,
    'persistence false',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    'log_type notice',
    'log_type information',
    'connection_messages true',
    `listener ${port} 127.0.0.1`,
    `cafile ${files.cafile}`,
    `certfile ${files.certfile}`,
    `keyfile ${files.keyfile}`,
    ...(files.crlfile ? [`crlfile ${files.crlfile}`] : []),
    'require_certificate true',
    // the client is who its certificate says (CN): no password, nothing anonymous
    'use_identity_as_username true',
    'allow_anonymous false',
    'tls_version tlsv1.2',
    '',
  ].join('\n');
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export async function startMosquitto(files: BrokerFiles): Promise<Broker> {
  assertMosquittoInstalled();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-mosquitto-'));
  const port = await freePort();
  const confPath = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(confPath, config(port, files));
  let child: ChildProcess | undefined;
  let log = '';
  const killOnExit = () => child?.kill('SIGKILL');
  process.once('exit', killOnExit);

  async function start(): Promise<void> {
    const c = spawn(MOSQUITTO, ['-c', confPath], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    c.stdout!.on('data', (d: Buffer) => (log += d.toString('utf8')));
    c.stderr!.on('data', (d: Buffer) => (log += d.toString('utf8')));
    c.once('error', (err) => (log += `spawn failed: ${err.message}\n`));
    for (const end = Date.now() + 15_000; Date.now() < end; await sleep(50)) {
      if (c.exitCode !== null || c.signalCode !== null) throw new Error(`mosquitto exited (${c.exitCode ?? c.signalCode}):\n${log}`);
      if (await canConnect(port)) return;
    }
    throw new Error(`mosquitto did not listen on ${port}:\n${log}`);
  }

  async function stop(): Promise<void> {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return {
    port,
    dir,
    log: () => log,
    async restart() {
      await stop();
      await start();
    },
    async stop() {
      await stop();
      process.removeListener('exit', killOnExit);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface DeviceCredentials {
  /** the device's certificate (and any intermediates it sends), PEM */
  certPem: string;
  keyPem: string;
  /** what the device trusts to be the broker: the broker certificate's CA, PEM */
  brokerCaPem: string;
}

export type ProbeResult = { connected: true; received: string } | { connected: false; error: string };

/**
 * What a device does (mqtt.js over TLS with its certificate): connects, subscribes to its own
 * topic, publishes one message and waits to receive it back. A refused handshake answers
 * `connected: false` with the TLS error (e.g. "certificate revoked"), never a hang.
 */
export async function probeDevice(port: number, creds: DeviceCredentials, timeoutMs = 8000): Promise<ProbeResult> {
  const topic = `devices/${crypto.randomBytes(4).toString('hex')}/hello`;
  const message = `hello ${crypto.randomBytes(4).toString('hex')}`;
  const client = mqtt.connect(`mqtts://127.0.0.1:${port}`, {
    cert: creds.certPem,
    key: creds.keyPem,
    ca: creds.brokerCaPem,
    rejectUnauthorized: true,
    reconnectPeriod: 0,
    connectTimeout: timeoutMs,
    clean: true,
  });
  try {
    return await new Promise<ProbeResult>((resolve) => {
      const timer = setTimeout(() => resolve({ connected: false, error: 'timeout' }), timeoutMs);
      const done = (r: ProbeResult) => {
        clearTimeout(timer);
        resolve(r);
      };
      client.once('error', (err) => done({ connected: false, error: err.message }));
      client.once('close', () => done({ connected: false, error: 'closed by the broker' }));
      client.once('connect', () => {
        client.removeAllListeners('close');
        client.on('message', (t, payload) => {
          if (t === topic) done({ connected: true, received: payload.toString('utf8') });
        });
        client.subscribe(topic, { qos: 1 }, (err) => {
          if (err) return done({ connected: false, error: `subscribe: ${err.message}` });
          client.publish(topic, message, { qos: 1 });
        });
      });
    }).then((r) => (r.connected && r.received !== message ? { connected: false, error: `received ${r.received}` } : r));
  } finally {
    await client.endAsync(true).catch(() => undefined);
  }
}
