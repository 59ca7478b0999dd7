import { Suspense } from 'react'
import { Outlet } from 'react-router-dom'
import { SiteFooter } from '../../components/layout/site-footer.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useAuth } from '../../lib/auth-context.ts'
import { AuthProvider } from '../../features/auth/components/auth-provider.tsx'
import { EmailJobTracker } from '../../features/email-jobs/components/email-job-tracker.tsx'
import { FeedbackButton } from './feedback-button.tsx'
import { NavBar } from './nav-bar.tsx'
import { ScrollToTop } from './scroll-to-top.tsx'

/** Queued e-mails keep being tracked across pages, for the signed-in user only. */
function SessionEmailJobs() {
  return <EmailJobTracker userId={useAuth().user?.id} />
}

/** The root route: auth state, nav bar, the page, footer and the Feedback button. */
export function AppShell() {
  return (
    <AuthProvider>
      <ScrollToTop />
      <SessionEmailJobs />
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to content
      </a>
      <div className="flex min-h-screen flex-col">
        <NavBar />
        <main id="main" className="flex flex-1 flex-col">
          <Suspense fallback={<PageSpinner code />}>
            <Outlet />
          </Suspense>
        </main>
        <SiteFooter />
      </div>
      <FeedbackButton />
    </AuthProvider>
  )
}
