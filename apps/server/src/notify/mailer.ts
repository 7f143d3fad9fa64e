/**
 * Mail over SMTP with nodemailer (issue 3): the realm's email config group when it has one,
 * else the global SMTP_URL. A realm's SMTP host is an outbound target like any other:
 * resolved, checked against private ranges and connected by address, with TLS
 * still verifying the configured name.
 */
import net from 'node:net';
import type { MailMessage, RealmMailConfig } from './types.js';
import { resolveChecked } from './outbound.js';

const TIMEOUTS = { connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 10_000 };

/**
 * nodemailer is loaded on the first mail, not at start: a server that sends none (or none yet)
 * does not keep its ~3 MB of modules in the heap (issue 12 memory budget).
 */
const loadNodemailer = async () => (await import('nodemailer')).default;

export async function sendViaSmtpUrl(url: string, from: string, msg: MailMessage): Promise<void> {
  const nodemailer = await loadNodemailer();
  const transport = nodemailer.createTransport(url, { ...TIMEOUTS } as object);
  try {
    await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
  } finally {
    transport.close();
  }
}

export async function sendViaRealmSmtp(cfg: RealmMailConfig, password: string | undefined, allowPrivate: boolean, msg: MailMessage): Promise<void> {
  // nodemailer is handed the checked address, an IP literal, so it does no lookup of its
  // own (its resolveHostname skips IPs) and cannot be rebound to another address.
  const address = await resolveChecked(cfg.host, allowPrivate);
  const nodemailer = await loadNodemailer();
  const transport = nodemailer.createTransport({
    host: address,
    port: cfg.port,
    secure: cfg.secure,
    ...(cfg.user ? { auth: { user: cfg.user, pass: password ?? '' } } : {}),
    // Certificates are verified against the configured name, not the address we dialled;
    // an IP literal is not a server name (RFC 6066 §3), so Node verifies it as the host.
    ...(net.isIP(cfg.host) ? {} : { tls: { servername: cfg.host } }),
    ...TIMEOUTS,
  });
  try {
    await transport.sendMail({ from: cfg.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
  } finally {
    transport.close();
  }
}
