import { Link, useLocation } from 'react-router-dom'
import { DropdownMenu } from 'radix-ui'
import { LogOut, Menu } from 'lucide-react'
import { Button } from '../../components/ui/button.tsx'
import { cn } from '../../lib/cn.ts'
import { NAV_ITEMS } from './nav-items.ts'

const ITEM_CLASS =
  'flex cursor-pointer items-center gap-3 rounded-md px-3 py-2.5 font-mono text-sm outline-none data-[highlighted]:bg-muted'

/** Below 1024px: the five destinations and Sign Out in a dropdown. */
export function MobileMenu({ onSignOut }: { onSignOut: () => void }) {
  const { pathname } = useLocation()
  return (
    <DropdownMenu.Root modal={false}>
      <span className="contents lg:hidden">
        <DropdownMenu.Trigger asChild>
          <Button variant="ghost" size="icon" aria-label="Open menu">
            <Menu aria-hidden="true" />
          </Button>
        </DropdownMenu.Trigger>
      </span>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-56 rounded-lg border border-border bg-card p-1.5 shadow-xl data-[state=open]:animate-fade-in"
        >
          {NAV_ITEMS.map((item) => {
            const active = item.isActive(pathname)
            return (
              <DropdownMenu.Item key={item.to} asChild>
                <Link
                  to={item.to}
                  aria-current={active ? 'page' : undefined}
                  className={cn(ITEM_CLASS, active && 'text-primary')}
                >
                  <item.icon className="size-4" aria-hidden="true" />
                  {item.label}
                </Link>
              </DropdownMenu.Item>
            )
          })}
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item onSelect={onSignOut} className={cn(ITEM_CLASS, 'text-destructive')}>
            <LogOut className="size-4" aria-hidden="true" />
            Sign Out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
