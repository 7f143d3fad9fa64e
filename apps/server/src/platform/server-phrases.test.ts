/**
 * The server carries only the phrase areas it renders (contracts `serverPhrases`, issue 12
 * memory budget). A phrase key named anywhere in the server or in a contract schema — an error
 * reason such as 'validation.mobile', a schema message such as 'roles.name_rule' — must lie in
 * one of them, or its text would silently go missing from the server's messages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACTIONS, LOCALES, PERMISSION_IDS, SERVER_PHRASE_AREAS, phrases, serverPhrases } from '@umbo/contracts';
import { AUDIT_ACTIONS } from '@umbo/contracts/audit';
import { t } from './i18n.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const en = phrases.en as unknown as Record<string, Record<string, unknown>>;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return ['phrases', 'node_modules', 'dist'].includes(e.name) ? [] : sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|testkit/.test(e.name) ? [p] : [];
  });
}

/** Every 'area.key' literal of `files` that is a phrase key, with where it was found. */
function phraseKeysNamed(files: string[]): { key: string; area: string; file: string }[] {
  const found: { key: string; area: string; file: string }[] = [];
  for (const file of files) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/['"`]([a-z_]+(?:\.[a-z_]+)+)['"`]/g)) {
      const key = m[1]!;
      const area = key.slice(0, key.indexOf('.'));
      let node: unknown = en;
      for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
      if (typeof node !== 'string') continue;
      // the same shape, other meanings: an access rule (`permissionId.action`, 'audit.export') or an
      // audit action name — only those exact shapes, since 'cert' or 'security' is both a
      // permission id and a phrase area whose other keys the scan must still see
      const parts = key.split('.');
      const accessRule = parts.length === 2 && (PERMISSION_IDS as readonly string[]).includes(area) && (ACTIONS as readonly string[]).includes(parts[1]!);
      if (accessRule || (AUDIT_ACTIONS as readonly string[]).includes(key)) continue;
      found.push({ key, area, file: path.relative(root, file) });
    }
  }
  return found;
}

describe('server phrases', () => {
  it('every phrase key the server or a contract schema names is in an area the server carries', () => {
    const named = phraseKeysNamed([...sources(path.join(root, 'apps/server/src')), ...sources(path.join(root, 'packages/contracts/src'))]);
    // the scan finds what it is for: reasons and schema messages in validation and roles
    expect(named.some((n) => n.key === 'validation.username_same')).toBe(true);
    expect(named.some((n) => n.key === 'roles.name_rule')).toBe(true);
    const outside = named.filter((n) => !(SERVER_PHRASE_AREAS as readonly string[]).includes(n.area));
    expect(outside).toEqual([]);
  });

  it('every locale carries the same areas, each the whole of that locale’s area', () => {
    for (const locale of LOCALES) {
      expect(Object.keys(serverPhrases[locale]).sort()).toEqual([...SERVER_PHRASE_AREAS].sort());
      for (const area of SERVER_PHRASE_AREAS) expect(serverPhrases[locale][area]).toBe(phrases[locale][area]);
    }
  });

  it('renders an error reason and a mail text in the caller’s language, and not the console’s areas', () => {
    expect(t('zh-CN', 'validation.username_same')).toBe(phrases['zh-CN'].validation.username_same);
    expect(t('ar', 'notify.footer', {})).toBe(phrases.ar.notify.footer.replace(/\{\{(\w+)\}\}/g, ''));
    // a console-only area is not in the server: the key comes back as it is
    expect(t('en', 'menu.group_dashboard')).toBe('menu.group_dashboard');
  });
});
