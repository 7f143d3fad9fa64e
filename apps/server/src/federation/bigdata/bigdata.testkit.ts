/**
 * The data centre as the bigdata suites play it: a node:http server on 127.0.0.1 (random
 * port) that records every report it is sent and answers as the test sets it —
 * up (200), down (503), or "ack lost" (it keeps the report, then drops the connection
 * without answering, so umbo cannot know it arrived).
 */
import http from 'node:http';
import type net from 'node:net';
import type { BigdataReport } from './bigdata.events.js';

export type ReceiverMode = 'up' | 'down' | 'ack-lost';

export interface Received {
  report: BigdataReport;
  idempotencyKey: string | undefined;
  path: string;
}

export interface Receiver {
  port: number;
  mode: ReceiverMode;
  /** reports accepted (200) or kept before the connection was dropped */
  received: Received[];
  /** reports answered 503 */
  refused: number;
  /** answers wait this long (a slow data centre) */
  delayMs: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const r: Receiver = { port: 0, mode: 'up', received: [], refused: 0, delayMs: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = () => {
        if (r.mode === 'down') {
          r.refused++;
          res.writeHead(503).end();
          return;
        }
        const key = req.headers['idempotency-key'];
        r.received.push({
          report: JSON.parse(Buffer.concat(chunks).toString('utf8')) as BigdataReport,
          idempotencyKey: typeof key === 'string' ? key : undefined,
          path: req.url ?? '',
        });
        if (r.mode === 'ack-lost') req.socket.destroy();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      };
      if (r.delayMs > 0) setTimeout(answer, r.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.port = (server.address() as net.AddressInfo).port;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}

/** The realm settings group of a data centre at `port` on loopback. */
export const bigdataBackend = (port: number, category = 'robots') => ({
  type: 'bigdata' as const,
  ishttp: true,
  host: '127.0.0.1',
  port,
  path: '/events',
  category,
});

/**
 * Each account's reports in the order they arrived, with a re-sent report that follows
 * itself folded into one: what an at-least-once receiver deduping on eventId keeps. A
 * duplicate anywhere else (an old event after a newer one) stays, and fails the order check.
 */
export function linesOf(received: readonly Received[]): Map<string, BigdataReport[]> {
  const lines = new Map<string, BigdataReport[]>();
  for (const { report } of received) {
    const line = lines.get(report.accountId) ?? [];
    if (line[line.length - 1]?.eventId !== report.eventId) line.push(report);
    lines.set(report.accountId, line);
  }
  return lines;
}
