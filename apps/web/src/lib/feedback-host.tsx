/** The antd side of lib/feedback.ts: a React root of its own holding antd's App context. */
import App from 'antd/es/app';
import { Suspense, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { AntdConfig } from './antd-config';
import type { FeedbackApi } from './feedback-api';

type AppApi = ReturnType<typeof App.useApp>;

function Bridge({ onReady }: { onReady: (api: AppApi) => void }) {
  const app = App.useApp();
  useEffect(() => onReady(app), [app, onReady]);
  return null;
}

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
        notifyError: (title, description, key) => app.notification.error({ title, description, ...(key ? { key } : {}) }),
        showError: (text) => void app.message.error(text),
        showInfo: (text) => void app.message.info(text),
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
