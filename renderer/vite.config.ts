import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The renderer is a static bundle: Electron loads it from disk and browser mode serves it, so
 * asset URLs are relative (`base: './'`) and nothing in it knows a host or port.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: true,
  },
});
