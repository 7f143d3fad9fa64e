/**
 * Providers of every antd screen: antd's config and TanStack Query. A lazy layout route, so
 * the sign-in page (plain HTML, bench budget) never loads them.
 */
// First: zod's settings, before any screen below builds a contracts schema (lib/zod-config.ts).
import '../lib/zod-config';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../components/page-loading';
import { AntdConfig } from '../lib/antd-config';
import { preloadFeedback } from '../lib/feedback';
import { queryClient } from '../lib/query-client';

export default function RichProviders() {
  // Dialogs and messages are likely on these screens; fetch their code while idle.
  useEffect(() => preloadFeedback(), []);
  return (
    <Suspense fallback={<PageLoading full />}>
      <AntdConfig>
        <QueryClientProvider client={queryClient}>
          <Outlet />
        </QueryClientProvider>
      </AntdConfig>
    </Suspense>
  );
}
