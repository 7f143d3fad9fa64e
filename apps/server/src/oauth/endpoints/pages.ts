/**
 * The provider's own pages: the error page of the authorization endpoint (shown instead of a
 * redirect when the client or its redirect URI cannot be trusted, AS-02) and the sign-out
 * confirmation (AS-27). Server-made, self-contained, every value escaped; no script, no
 * third-party resource, not frameable (AS-16), not cached.
 */
import type { Locale } from '@umbo/contracts';
import type { FastifyReply } from 'fastify';
import { t } from '../../platform/i18n.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const STYLE = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;background:#f0f2f5;color:#1f1f1f}
main{max-width:440px;margin:12vh auto;padding:32px;background:#fff;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:20px;margin:0 0 12px}p{line-height:1.6;margin:0 0 12px}.code{color:#595959;font-size:13px;word-break:break-word}
button{font:inherit;padding:8px 20px;border:0;border-radius:6px;background:#1668dc;color:#fff;cursor:pointer}
a{color:#1668dc;margin-inline-start:16px}@media (max-width:480px){main{margin:0;min-height:100vh;border-radius:0;box-sizing:border-box}}`;

/**
 * Strict policy of these pages: nothing but their inline style; forms post to us, and (sign-out
 * confirmation) the redirect after the post may go to the one verified URI's origin, which
 * browsers check against form-action too.
 */
function policy(formTarget?: string): string {
  let extra = '';
  if (formTarget) {
    try {
      extra = ` ${new URL(formTarget).origin}`;
    } catch {
      extra = '';
    }
  }
  return `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'${extra}; frame-ancestors 'none'; base-uri 'none'`;
}

function document(locale: Locale, title: string, body: string): string {
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  return `<!doctype html><html lang="${escapeHtml(locale)}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function send(reply: FastifyReply, status: number, html: string, formTarget?: string) {
  return reply
    .status(status)
    .header('content-security-policy', policy(formTarget))
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** RFC 6749 §4.1.2.1: "inform the resource owner of the error" — the error code and its description, as text. */
export function sendErrorPage(reply: FastifyReply, locale: Locale, status: number, error: string, description: string) {
  const title = t(locale, 'consent.error_title');
  const body = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(t(locale, 'consent.error_hint'))}</p><p class="code" data-error="${escapeHtml(error)}">${escapeHtml(
    t(locale, 'consent.error_code', { code: error }),
  )}<br>${escapeHtml(description)}</p>`;
  return send(reply, status, document(locale, title, body));
}

/** OIDC RP-Initiated Logout §3 / AS-27: ask before ending the session when the request is not proven to come from a client. */
export function sendLogoutConfirmation(
  reply: FastifyReply,
  locale: Locale,
  o: { realmName: string; action: string; confirm: string; redirectAfter: string | undefined; homeUrl: string },
) {
  const title = t(locale, 'consent.logout_title');
  const body = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(t(locale, 'consent.logout_question', { realm: o.realmName }))}</p>
<form method="post" action="${escapeHtml(o.action)}"><input type="hidden" name="confirm" value="${escapeHtml(o.confirm)}"><button type="submit">${escapeHtml(
    t(locale, 'consent.logout_confirm'),
  )}</button><a href="${escapeHtml(o.homeUrl)}">${escapeHtml(t(locale, 'consent.logout_cancel'))}</a></form>`;
  return send(reply, 200, document(locale, title, body), o.redirectAfter);
}

export function sendLoggedOut(reply: FastifyReply, locale: Locale) {
  const title = t(locale, 'consent.logout_title');
  return send(reply, 200, document(locale, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(t(locale, 'consent.logout_done'))}</p>`));
}
