/**
 * The app root: history-mode router, document title, crash boundary, and the page-wide
 * attributes the settings drive (colour weak, dark scheme, primary colour for plain pages).
 */
import { useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { useSettings } from '../lib/settings';
import { textShade } from '../lib/text-color';
import { CrashBoundary } from './crash-boundary';
import { DocumentTitle } from './document-title';
import { ConsoleRoutes } from './routes';

function PageAttributes() {
  const { weak, navTheme, color } = useSettings();
  useEffect(() => {
    const html = document.documentElement;
    html.classList.toggle('color-weak', weak);
    html.dataset.theme = navTheme === 'realDark' ? 'dark' : 'light';
    // CSSOM, not a style attribute: allowed by the CSP's style-src.
    html.style.setProperty('--umbo-primary', color);
    // Text and white-on-colour labels need 4.5:1 (issue 10): a darker shade of the same hue.
    html.style.setProperty('--umbo-primary-text', navTheme === 'realDark' ? color : textShade(color));
  }, [weak, navTheme, color]);
  return null;
}

export function AppRoot() {
  return (
    <BrowserRouter>
      <PageAttributes />
      <DocumentTitle />
      <CrashBoundary>
        <ConsoleRoutes />
      </CrashBoundary>
    </BrowserRouter>
  );
}
