/** The antd side of lib/feedback.ts: a React root of its own holding antd's App context. */
import App from 'antd/es/app';
import { Suspense, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { AntdConfig } from './antd-config';
import type { FeedbackApi, LiveText } from './feedback-api';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

type AppApi = ReturnType<typeof App.useApp>;

function Bridge({ onReady }: { onReady: (api: AppApi) => void }) {
  const app = App.useApp();
  useEffect(() => onReady(app), [app, onReady]);
  return null;
}

/** Says the text again whenever the language changes. */
function Live({ say }: { say: (t: TFunction) => string }) {
  // react-i18next renders this again on i18next's languageChanged, with that language's t.
  const { t } = useTranslation();
  return <>{say(t)}</>;
}

const live = (text: LiveText | undefined) => (typeof text === 'function' ? <Live say={text} /> : text);

export function mountFeedbackHost(): Promise<FeedbackApi> {
  return new Promise((resolve) => {
    const element = document.createElement('div');
    element.className = 'feedback-host';
    (document.getElementById('overlays') ?? document.body).appendChild(element);
    let resolved = false;
    const onReady = (app: AppApi) => {
      if (resolved) return;
      resolved = true;
      resolve({
        notifyError: (title, description, key) => app.notification.error({ title: live(title), description: live(description), ...(key ? { key } : {}) }),
        showError: (text) => void app.message.error(live(text)),
        showInfo: (text) => void app.message.info(live(text)),
        confirm: (options) => app.modal.confirm(options),
      });
    };
    createRoot(element).render(
      <Suspense fallback={null}>
        <AntdConfig>
          <App component={false}>
            <Bridge onReady={onReady} />
          </App>
        </AntdConfig>
      </Suspense>,
    );
  });
}
