/**
 * The shared cloud header (SPEC §1): a micro-frontend script rendered into a 54 px area above
 * the console. Contract with the script: it defines
 *   window.UmboCloudHeader = { mount(element, { locale, siteTitle }) => void | Promise<void> }.
 * When none is configured, or it has not mounted within the configured time, the area is
 * dropped and the built-in header alone remains. The page never waits on it.
 */
import { useEffect, useRef, useState } from 'react';
import { localeState } from '../../lib/i18n';
import { projectConfig } from '../../lib/project-config';
import { cloudHeaderScript } from './cloud-header-source';
import { withTimeout } from '../lazy-screen';

interface CloudHeaderApi {
  mount: (element: HTMLElement, context: { locale: string; siteTitle: string }) => void | Promise<void>;
}

declare global {
  interface Window {
    UmboCloudHeader?: CloudHeaderApi;
  }
}

let scriptLoad: Promise<void> | undefined;

function loadScript(src: string): Promise<void> {
  scriptLoad ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`cloud header script failed: ${src}`));
    document.head.appendChild(script);
  });
  return scriptLoad;
}

type State = 'loading' | 'ready' | 'failed';

export function CloudHeader({ siteTitle }: { siteTitle: string }) {
  const config = projectConfig().header;
  const src = cloudHeaderScript(config, window.location.hostname);
  const [state, setState] = useState<State>(src ? 'loading' : 'failed');
  const slot = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!src) return;
    let alive = true;
    const mount = async () => {
      await loadScript(src);
      const api = window.UmboCloudHeader;
      if (!api || typeof api.mount !== 'function' || !slot.current) throw new Error('cloud header did not register UmboCloudHeader.mount');
      await api.mount(slot.current, { locale: localeState().tag, siteTitle });
    };
    withTimeout(mount(), config.timeoutMs).then(
      () => alive && setState('ready'),
      (err: unknown) => {
        console.warn('shared cloud header not shown; using the built-in header', err);
        if (alive) setState('failed');
      },
    );
    return () => {
      alive = false;
    };
    // Mounted once per shell: the script owns the area afterwards, so later changes of the
    // title or timeout do not re-run it.
  }, [src]);

  if (state === 'failed') return null;
  return <div ref={slot} className="cloud-header" data-state={state} data-testid="cloud-header" />;
}
