import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useAuth } from '../../lib/auth-context.ts'
import { lazyRoute } from '../lazy-route.ts'
import { loadHomePage } from '../page-preload.ts'

const DashboardRoute = lazyRoute(() => import('./dashboard.tsx'), (m) => m.DashboardRoute)
// the landing page's code page-preload started for /: rendered at once when it has come
const HomeRoute = lazyRoute(loadHomePage, (m) => m.HomeRoute)

/** /: the dashboard when signed in, otherwise the landing page. */
export function IndexRoute() {
  const { isLoading, isAuthenticated } = useAuth()
  if (isLoading) return <PageSpinner />
  return isAuthenticated ? <DashboardRoute /> : <HomeRoute />
}
