/**
 * Start-up: the project config (SPEC §7, loaded before the app starts) and the active
 * locale's phrases; then the app renders.
 */
import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/app';
import './app/app.css';
import './app/public.css';
import './app/shell.css';
import { initI18n, initialLanguageTag, preloadLanguage } from './lib/i18n';
import { loadProjectConfig } from './lib/project-config';

async function start(): Promise<void> {
  // The stored language (if any) wins over the config's default, so it can load meanwhile.
  preloadLanguage(initialLanguageTag(''));
  const config = await loadProjectConfig();
  await initI18n(initialLanguageTag(config.defaultLocale));
  createRoot(document.getElementById('root')!).render(<AppRoot />);
}

void start();
