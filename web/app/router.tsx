import type { ReactNode } from 'react'
import { createBrowserRouter } from 'react-router-dom'
import { AppShell } from './layout/app-shell.tsx'
import { RedirectSignedIn } from './layout/redirect-signed-in.tsx'
import { RequireAuth } from './layout/require-auth.tsx'
import { RouteError } from './layout/route-error.tsx'
import { loadHomePage, loadInboxEmailPage, loadInboxFrame, loadInboxPage } from './page-preload.ts'
import { IndexRoute } from './routes/index.tsx'
import { lazyRoute } from './lazy-route.ts'

// Every page loads on first visit, the landing and sign-in pages too (their sections, forms'
// validation and WebAuthn code weighed on every signed-in page's first load); the page opened
// first is fetched at start-up beside the session check (page-preload.ts).
const HomeRoute = lazyRoute(loadHomePage, (m) => m.HomeRoute)
const AuthRoute = lazyRoute(() => import('./routes/auth.tsx'), (m) => m.AuthRoute)
const RegisterRoute = lazyRoute(() => import('./routes/register.tsx'), (m) => m.RegisterRoute)
const CheckEmailRoute = lazyRoute(() => import('./routes/check-email.tsx'), (m) => m.CheckEmailRoute)
const ConfirmTargetPage = lazyRoute(() => import('../features/auth/components/confirm-target-page.tsx'), (m) => m.ConfirmTargetPage)
const ForgotPasswordPage = lazyRoute(() => import('../features/auth/components/forgot-password-page.tsx'), (m) => m.ForgotPasswordPage)
const ResetPasswordPage = lazyRoute(() => import('../features/auth/components/reset-password-page.tsx'), (m) => m.ResetPasswordPage)
const VerifyEmailPage = lazyRoute(() => import('../features/auth/components/verify-email-page.tsx'), (m) => m.VerifyEmailPage)
const SecondFactorPage = lazyRoute(() => import('../features/auth/components/second-factor-page.tsx'), (m) => m.SecondFactorPage)

const DashboardRoute = lazyRoute(() => import('./routes/dashboard.tsx'), (m) => m.DashboardRoute)
const UnsubscribeRoute = lazyRoute(() => import('./routes/unsubscribe.tsx'), (m) => m.UnsubscribeRoute)
const SettingsRoute = lazyRoute(() => import('./routes/settings.tsx'), (m) => m.SettingsRoute)
const ComposeRoute = lazyRoute(() => import('./routes/compose.tsx'), (m) => m.ComposeRoute)
const DecryptRoute = lazyRoute(() => import('./routes/decrypt.tsx'), (m) => m.DecryptRoute)
const InboxFrameRoute = lazyRoute(loadInboxFrame, (m) => m.InboxFrameRoute)
const InboxRoute = lazyRoute(loadInboxPage, (m) => m.InboxRoute)
const InboxSettingsRoute = lazyRoute(() => import('./routes/inbox-settings.tsx'), (m) => m.InboxSettingsRoute)
const InboxEmailRoute = lazyRoute(loadInboxEmailPage, (m) => m.InboxEmailRoute)
const AboutRoute = lazyRoute(() => import('./routes/about.tsx'), (m) => m.AboutRoute)
const PrivacyRoute = lazyRoute(() => import('./routes/privacy.tsx'), (m) => m.PrivacyRoute)
const TermsRoute = lazyRoute(() => import('./routes/terms.tsx'), (m) => m.TermsRoute)
const GdprRoute = lazyRoute(() => import('./routes/gdpr.tsx'), (m) => m.GdprRoute)
const TransparencyRoute = lazyRoute(() => import('./routes/transparency.tsx'), (m) => m.TransparencyRoute)
const NotFoundRoute = lazyRoute(() => import('./routes/not-found.tsx'), (m) => m.NotFoundRoute)

const signedIn = (page: ReactNode) => <RequireAuth>{page}</RequireAuth>

/** Every page of the app; the server answers index.html for these paths (api/http/web-static.ts). */
export const router = createBrowserRouter([
  {
    element: <AppShell />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <IndexRoute /> },
      { path: '/home', element: <HomeRoute /> },
      { path: '/auth', element: <RedirectSignedIn><AuthRoute /></RedirectSignedIn> },
      { path: '/auth/second-factor', element: <SecondFactorPage /> },
      { path: '/register', element: <RegisterRoute /> },
      { path: '/check-email', element: <CheckEmailRoute /> },
      { path: '/verify-email', element: <VerifyEmailPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/confirm-target', element: <ConfirmTargetPage /> },
      { path: '/unsubscribe/:token', element: <UnsubscribeRoute /> },
      { path: '/dashboard', element: signedIn(<DashboardRoute />) },
      { path: '/settings', element: signedIn(<SettingsRoute />) },
      { path: '/compose', element: signedIn(<ComposeRoute />) },
      { path: '/decrypt', element: signedIn(<DecryptRoute />) },
      {
        // one frame for the list, a message and the settings (routes/inbox-frame.tsx)
        path: '/inbox',
        element: signedIn(<InboxFrameRoute />),
        children: [
          { index: true, element: <InboxRoute /> },
          { path: 'settings', element: <InboxSettingsRoute /> },
          { path: ':emailId', element: <InboxEmailRoute /> },
        ],
      },
      { path: '/about', element: <AboutRoute /> },
      { path: '/privacy', element: <PrivacyRoute /> },
      { path: '/terms', element: <TermsRoute /> },
      { path: '/gdpr', element: <GdprRoute /> },
      { path: '/transparency', element: <TransparencyRoute /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
])
