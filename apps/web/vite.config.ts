/**
 * The console build. esbuild compiles the JSX (no React plugin: fast refresh is not worth a
 * dependency here). The manifest lets scripts/bench-bundle.mjs measure first-load sizes.
 */
import { defineConfig } from 'vite';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  server: {
    proxy: {
      '/api': api,
      '/project.config.json': api,
      '/healthz': api,
      '/realms': api,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // Chunks stay whole per screen; the budget in scripts/bench-bundle.mjs is the real limit.
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      onwarn(warning, warn) {
        // antd and react-router mark their modules "use client" for React Server Components;
        // a client bundle has no use for it, and Rollup's ~180 notices buried the build log.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use client"')) return;
        warn(warning);
      },
    },
  },
});
