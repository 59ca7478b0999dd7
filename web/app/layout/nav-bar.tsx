import { lazy, Suspense } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { LogOut, Menu } from 'lucide-react'
import { Logo } from '../../components/logo.tsx'
import { DESKTOP_QUERY, useMediaQuery } from '../../hooks/use-media-query.ts'
import { ThemeToggle } from '../../components/theme/theme-toggle.tsx'
import { Button, buttonClasses } from '../../components/ui/button.tsx'
import { cn } from '../../lib/cn.ts'
import { useAuth } from '../../lib/auth-context.ts'
import { NAV_ITEMS } from './nav-items.ts'
import { UserStatus } from './user-status.tsx'

// The dropdown's code (menu, popper) is only needed by signed-in users on small screens: it loads
// only there (a desktop never renders it, so never downloads it).
const MobileMenu = lazy(() => import('./mobile-menu.tsx').then((m) => ({ default: m.MobileMenu })))

function MobileMenuPlaceholder() {
  return (
    <span className="contents lg:hidden">
      <Button variant="ghost" size="icon" aria-label="Open menu" disabled>
        <Menu aria-hidden="true" />
      </Button>
    </span>
  )
}

function DesktopNav() {
  const { pathname } = useLocation()
  return (
    <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
      {NAV_ITEMS.map((item) => {
        const active = item.isActive(pathname)
        return (
          <Link
            key={item.to}
            to={item.to}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'rounded-md px-3 py-2 font-mono text-sm font-medium tracking-wide transition-colors',
              active ? 'bg-accent text-accent-foreground' : 'text-muted-foreground hover:bg-muted hover:text-foreground',
            )}
          >
            {item.label}
          </Link>
        )
      })}
    </nav>
  )
}

export function NavBar() {
  const { user, isAuthenticated, authMethod, logout } = useAuth()
  const desktop = useMediaQuery(DESKTOP_QUERY)
  return (
    <header className="sticky top-0 z-40 print:hidden border-b border-border bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <div className="flex items-center gap-6">
          <Link to="/home" aria-label="Veilmail home" className="shrink-0">
            <Logo className={isAuthenticated ? '[&>span]:hidden sm:[&>span]:inline' : undefined} />
          </Link>
          {isAuthenticated && <DesktopNav />}
        </div>
        <div className="flex min-w-0 items-center gap-1 sm:gap-2">
          <ThemeToggle />
          {isAuthenticated && user ? (
            <>
              <UserStatus user={user} method={authMethod} />
              <span className="hidden lg:contents">
                <Button variant="ghost" size="icon" onClick={() => void logout()} aria-label="Sign out" title="Sign out">
                  <LogOut aria-hidden="true" />
                </Button>
              </span>
              {!desktop && (
                <Suspense fallback={<MobileMenuPlaceholder />}>
                  <MobileMenu onSignOut={() => void logout()} />
                </Suspense>
              )}
            </>
          ) : (
            <Link to="/auth" className={buttonClasses('primary', 'sm', 'font-mono tracking-wide')}>
              _SIGN IN
            </Link>
          )}
        </div>
      </div>
    </header>
  )
}
