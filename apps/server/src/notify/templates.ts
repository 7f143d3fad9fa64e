/**
 * Mail and SMS texts (issue 3) in the reader's language (phrases `notify.*`), plain text
 * plus HTML. A realm's activeEmailTpl / resetEmailTpl, when set, replaces the text body;
 * it may use {{username}}, {{realm}}, {{link}}, {{code}}, {{hours}} and {{minutes}}.
 * Everything placed into HTML is escaped.
 */
import type { Locale } from '@umbo/contracts';
import { t } from '../platform/i18n.js';
import type { MailMessage } from './types.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

function html(locale: Locale, text: string, link?: { href: string; label: string }): string {
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
  const button = link
    ? `<p><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:8px 16px;background:#1890ff;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(link.label)}</a></p>`
    : '';
  return `<!doctype html><html lang="${locale}" dir="${dir}"><body style="font-family:sans-serif;line-height:1.5">${paragraphs}${button}</body></html>`;
}

export interface LinkMailInput {
  locale: Locale;
  site: string;
  realm: string;
  username: string;
  link: string;
  code: string;
  /** the realm's template, '' for the built-in text */
  template: string;
}

export function activationMail(to: string, i: LinkMailInput): MailMessage {
  const vars = { username: i.username, realm: i.realm, link: i.link, code: i.code, hours: 24, site: i.site };
  const text = `${i.template ? fill(i.template, vars) : t(i.locale, 'notify.activate_text', vars)}\n\n${t(i.locale, 'notify.footer', vars)}`;
  return {
    to,
    subject: t(i.locale, 'notify.activate_subject', vars),
    text,
    html: html(i.locale, text, { href: i.link, label: t(i.locale, 'notify.activate_button') }),
  };
}

export function resetMail(to: string, i: LinkMailInput & { minutes: number }): MailMessage {
  const vars = { username: i.username, realm: i.realm, link: i.link, code: i.code, minutes: i.minutes, site: i.site };
  const text = `${i.template ? fill(i.template, vars) : t(i.locale, 'notify.reset_text', vars)}\n\n${t(i.locale, 'notify.footer', vars)}`;
  return {
    to,
    subject: t(i.locale, 'notify.reset_subject', vars),
    text,
    html: html(i.locale, text, { href: i.link, label: t(i.locale, 'notify.reset_button') }),
  };
}

export function codeMail(to: string, i: { locale: Locale; site: string; realm: string; code: string; minutes: number }): MailMessage {
  const vars = { ...i };
  const text = `${t(i.locale, 'notify.code_text', vars)}\n\n${t(i.locale, 'notify.footer', vars)}`;
  return { to, subject: t(i.locale, 'notify.code_subject', vars), text, html: html(i.locale, text) };
}

export function codeSms(i: { locale: Locale; realm: string; code: string; minutes: number }): string {
  return t(i.locale, 'notify.sms_code', { ...i });
}

/** Changes to how an account signs in that its owner is told about (ASVS 5.0 V6.3.7). */
export type SecurityEvent =
  | 'password_changed'
  | 'password_reset'
  | 'otp_enabled'
  | 'otp_disabled'
  | 'email_bound'
  | 'email_changed'
  | 'email_unbound'
  | 'phone_bound'
  | 'phone_changed'
  | 'phone_unbound';

export interface SecurityNoticeInput {
  locale: Locale;
  site: string;
  realm: string;
  username: string;
  event: SecurityEvent;
  /** when it happened, epoch ms; shown in UTC because the reader's time zone is unknown */
  at: number;
  ip: string;
}

export function noticeTime(locale: Locale, at: number): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(at);
}

/** The event sentence and the advice. Only what happened, when and from where: never a code or password. */
function noticeParts(i: SecurityNoticeInput): { event: string; advice: string } {
  return {
    event: t(i.locale, `notify.event_${i.event}`, { site: i.site, time: noticeTime(i.locale, i.at), ip: i.ip }),
    advice: t(i.locale, 'notify.security_advice'),
  };
}

export function securityNoticeMail(to: string, i: SecurityNoticeInput): MailMessage {
  const vars = { ...noticeParts(i), username: i.username, site: i.site };
  const text = `${t(i.locale, 'notify.security_text', vars)}\n\n${t(i.locale, 'notify.footer', vars)}`;
  return { to, subject: t(i.locale, 'notify.security_subject', vars), text, html: html(i.locale, text) };
}

export function securityNoticeSms(i: SecurityNoticeInput): string {
  return t(i.locale, 'notify.sms_security', { ...noticeParts(i), realm: i.realm });
}
