// What the page being opened needs, asked for at start-up beside the session check: its code
// (the route's chunk: the landing page's, the inbox's) and, for the inbox, its first reads (the list or the message, the accounts,
// the counts), instead of each waiting for the one before (session → code → data). The reads
// are taken by the page's own first request (web/lib/early-requests.ts); signed out, nobody takes
// them and the page shows the sign-in as before.
import { useEffect, useState } from 'react'
import { emailCountsUrl } from '../features/inbox/api/get-email-counts.ts'
import { emailUrl } from '../features/inbox/api/get-email.ts'
import { emailsUrl } from '../features/inbox/api/get-emails.ts'
import { readInboxView } from '../features/inbox/lib/inbox-view.ts'
import { SESSION_URL } from '../lib/api-client.ts'
import { requestEarly } from '../lib/early-requests.ts'
import { moduleLoader } from './lazy-route.ts'
import { EMAIL_PROVIDERS_URL } from '../lib/email-providers.ts'

export const loadHomePage = moduleLoader(() => import('./routes/home.tsx'))
export const loadInboxFrame = moduleLoader(() => import('./routes/inbox-frame.tsx'))
export const loadInboxPage = moduleLoader(() => import('./routes/inbox.tsx'))
export const loadInboxEmailPage = moduleLoader(() => import('./routes/inbox-email.tsx'))

/** The inbox page's code started at start-up, until it has come (or failed: the page then loads it itself). */
let codeOnItsWay: Promise<void> | undefined

/**
 * Whether the code page-preload started is still on its way, re-rendering once it has come. The
 * sign-in gate waits for it as it waits for the session: a page whose code has not come suspends,
 * and React then keeps its fallback up for at least 300 ms.
 */
export function usePreloadedCodeWaiting(): boolean {
  const [waiting, setWaiting] = useState(codeOnItsWay !== undefined)
  useEffect(() => {
    let current = true
    void codeOnItsWay?.then(() => current && setWaiting(false))
    return () => {
      current = false
    }
  }, [])
  return waiting && codeOnItsWay !== undefined
}

const MESSAGE_PATH = /^\/inbox\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i

/** Starts the session check and the code and reads of the page at `pathname`: the landing page's code, the inbox's code and reads. */
export function preloadPage(pathname: string, search: string): void {
  // before React renders the provider that asks for it
  requestEarly(SESSION_URL)
  if (pathname === '/' || pathname === '/home') loadHomePage().catch(() => {})
  const message = MESSAGE_PATH.exec(pathname)?.[1]
  if (pathname !== '/inbox' && !message) return
  const view = readInboxView(new URLSearchParams(search))
  const code = Promise.all([loadInboxFrame(), message ? loadInboxEmailPage() : loadInboxPage()]).then(() => {}, () => {})
  codeOnItsWay = code.then(() => void (codeOnItsWay = undefined))
  requestEarly(message ? emailUrl(message) : emailsUrl(view))
  requestEarly(EMAIL_PROVIDERS_URL)
  requestEarly(emailCountsUrl('all'))
  if (view.account !== 'all') requestEarly(emailCountsUrl(view.account))
}
