/**
 * Secrets carried in a link (activation code, reset code, ftoken): read once during render,
 * then removed from the address bar and from the history entry (history.replaceState) before
 * the call that uses them, so neither the referrer, the history nor a screenshot keeps them.
 */
export function readQueryParam(name: string): string | undefined {
  return new URLSearchParams(window.location.search).get(name) ?? undefined;
}

export function dropQueryParam(name: string): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(name)) return;
  url.searchParams.delete(name);
  // Keep react-router's history state so its navigation keys stay valid.
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
