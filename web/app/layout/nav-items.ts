import { Forward, Inbox, LockKeyholeOpen, PenLine, Settings, type LucideIcon } from 'lucide-react'

export interface NavItem {
  label: string
  to: string
  icon: LucideIcon
  isActive: (pathname: string) => boolean
}

/** The signed-in destinations of the navigation bar. */
export const NAV_ITEMS: NavItem[] = [
  { label: '_FORWARD', to: '/dashboard', icon: Forward, isActive: (p) => p === '/dashboard' || p === '/' },
  { label: '_COMPOSE', to: '/compose', icon: PenLine, isActive: (p) => p === '/compose' },
  { label: '_INBOX', to: '/inbox', icon: Inbox, isActive: (p) => p.startsWith('/inbox') },
  { label: '_DECRYPT', to: '/decrypt', icon: LockKeyholeOpen, isActive: (p) => p === '/decrypt' },
  { label: '_SETTINGS', to: '/settings', icon: Settings, isActive: (p) => p === '/settings' },
]
