/** Server-side messages in the caller's language (DESIGN.md §5). */
import { resolveLocale, serverPhrases, type Locale } from '@umbo/contracts';
import type { FastifyRequest } from 'fastify';

export function requestLocale(req: FastifyRequest): Locale {
  const q = (req.query as Record<string, unknown> | undefined)?.lang;
  if (typeof q === 'string' && q) return resolveLocale(q);
  return resolveLocale(req.headers['accept-language']);
}

/**
 * Looks up `area.key` and fills `{{name}}` placeholders; falls back to English, then the key.
 * Only the areas the server renders are here (contracts `serverPhrases`), not the console's.
 */
export function t(locale: Locale, key: string, vars: Record<string, unknown> = {}): string {
  const find = (l: Locale): string | undefined => {
    let node: unknown = serverPhrases[l];
    for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    return typeof node === 'string' ? node : undefined;
  };
  const text = find(locale) ?? find('en') ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}
