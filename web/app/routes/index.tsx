import { lazy } from 'react'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useAuth } from '../../lib/auth-context.ts'
import { loadHomePage } from '../page-preload.ts'

const DashboardRoute = lazy(() => import('./dashboard.tsx').then((m) => ({ default: m.DashboardRoute })))
const HomeRoute = lazy(() => loadHomePage().then((m) => ({ default: m.HomeRoute })))

/** /: the dashboard when signed in, otherwise the landing page. */
export function IndexRoute() {
  const { isLoading, isAuthenticated } = useAuth()
  if (isLoading) return <PageSpinner />
  return isAuthenticated ? <DashboardRoute /> : <HomeRoute />
}
