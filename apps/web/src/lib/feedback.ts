/**
 * Messages, notifications and confirmations. antd's versions are used, but loaded only when
 * first needed: the sign-in page must stay light (bench budget), and antd's static
 * `message.error()` family would render outside ConfigProvider (theme, locale, direction). The
 * host module mounts its own small React root inside antd's ConfigProvider — see
 * feedback-host.tsx.
 */
import type { FeedbackApi, LiveText } from './feedback-api';

export type { LiveText };

let host: Promise<FeedbackApi> | undefined;

function withHost(use: (api: FeedbackApi) => void): void {
  host ??= import('./feedback-host').then((m) => m.mountFeedbackHost());
  host.then(use, (err: unknown) => {
    // The chunk could not load (offline): the console is the last place left to say it.
    host = undefined;
    console.error('feedback unavailable', err);
  });
}

/** Loads the host ahead of need, e.g. once the shell is up. */
export function preloadFeedback(): void {
  withHost(() => undefined);
}

export function notifyError(title: LiveText, description?: LiveText, key?: string): void {
  withHost((api) => api.notifyError(title, description, key));
}

export function showError(text: LiveText): void {
  withHost((api) => api.showError(text));
}

export function showInfo(text: LiveText): void {
  withHost((api) => api.showInfo(text));
}

export function confirm(options: { title: string; content?: string; onOk: () => unknown }): void {
  withHost((api) => api.confirm(options));
}
