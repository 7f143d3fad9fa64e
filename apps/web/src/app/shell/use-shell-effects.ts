/** Viewport and scroll effects of the shell: mobile detection (SPEC §3 is_mobile) and auto-hide header. */
import { useEffect, useState } from 'react';
import { setSetting } from '../../lib/settings';

const MOBILE_QUERY = '(max-width: 767px)';

export function useMobileDetection(): void {
  useEffect(() => {
    const media = window.matchMedia(MOBILE_QUERY);
    const update = () => setSetting('isMobile', media.matches);
    update();
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
}

/** True while the header should be tucked away: scrolling down, past the header itself. */
export function useAutoHideHeader(enabled: boolean, threshold = 54): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) {
      setHidden(false);
      return;
    }
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      setHidden(y > threshold && y > last);
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled, threshold]);
  return hidden;
}

/**
 * Fetches what every list screen shares (components/data-table: antd's Table, Pagination and
 * form controls, ~85 KiB sent) once the shell is idle, so that opening a screen loads only its
 * own code. Counted in the shell's first-load budget (scripts/bench-bundle.mjs); a screen's
 * budget counts what it loads beyond that.
 */
export function usePreloadListScreens(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const load = () => void import('../../components/data-table').catch(() => undefined);
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(load, { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(load, 200);
    return () => clearTimeout(timer);
  }, [enabled]);
}
