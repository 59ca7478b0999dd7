import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app.tsx'
import { preloadPage } from './app/page-preload.ts'
import './styles.css'

// the opened page's code and reads leave now, beside the session check (web/app/page-preload.ts)
preloadPage(window.location.pathname, window.location.search)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
