import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'

// The web app lives in web/ and builds into dist/web, which api/server.ts serves.
export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
  },
  server: {
    proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` },
  },
})
