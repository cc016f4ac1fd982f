//! Build and test configuration: a manifest-driven multi-entry build (runtime script, site stylesheet, island chunks).

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  // The server serves `dist/` at the site root, so chunk URLs are `/assets/<name>-<hash>.js`.
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // No polyfill: it would be an inline script, which the Content-Security-Policy forbids.
    modulePreload: { polyfill: false },
    // Small assets become files too: `data:` URLs would need their own CSP allowance.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: {
        main: 'src/main.ts',
        site: 'src/styles/site.css',
        dashboard: 'src/owner/dashboard/main.ts',
      },
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        codeSplitting: {
          groups: [
            {
              // One React chunk shared by every island; only island chunks import it.
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    restoreMocks: true,
  },
});
