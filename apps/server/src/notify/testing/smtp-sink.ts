/**
 * A real SMTP peer for tests (smtp-server on loopback) and a small MIME reader for what it
 * receives: headers, RFC 2047 subjects, multipart bodies, quoted-printable and base64.
 */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
  html: string;
}

function decodeQp(s: string): Buffer {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '=' && /^[0-9A-F]{2}$/i.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(src[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

function decodeWords(s: string): string {
  return s.replace(/\s*=\?([\w-]+)\?([QB])\?([^?]*)\?=\s*/gi, (_, _cs: string, enc: string, data: string) =>
    (enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : decodeQp(data.replace(/_/g, ' '))).toString('utf8'),
  );
}

function split(part: string): { headers: Record<string, string>; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  const head = part.slice(0, at).replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body: part.slice(at).replace(/^\r?\n\r?\n/, '') };
}

function leaves(part: string): { type: string; body: string }[] {
  const { headers, body } = split(part);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .flatMap((p) => leaves(p.replace(/^\r?\n/, '')));
  }
  const enc = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const decoded = enc === 'base64' ? Buffer.from(body, 'base64') : enc === 'quoted-printable' ? decodeQp(body) : Buffer.from(body);
  return [{ type: type.split(';')[0]!.toLowerCase(), body: decoded.toString('utf8') }];
}

export function parseMail(raw: string): Omit<ReceivedMail, 'from' | 'to' | 'raw'> {
  const { headers } = split(raw);
  const parts = leaves(raw);
  return {
    subject: decodeWords(headers.subject ?? ''),
    text:
      parts
        .find((p) => p.type === 'text/plain')
        ?.body.replace(/\r\n/g, '\n')
        .replace(/\n+$/, '') ?? '',
    html: parts.find((p) => p.type === 'text/html')?.body ?? '',
  };
}

export async function startSmtpSink(): Promise<{
  port: number;
  mails: ReceivedMail[];
  next(to: string, match?: (m: ReceivedMail) => boolean): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    mails,
    async next(to: string, match: (m: ReceivedMail) => boolean = () => true) {
      for (let i = 0; i < 100; i++) {
        const found = [...mails].reverse().find((m) => m.to.includes(to) && match(m));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
