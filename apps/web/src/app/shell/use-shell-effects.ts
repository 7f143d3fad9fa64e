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
