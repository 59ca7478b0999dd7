import { useCallback, useSyncExternalStore } from 'react'

/** Below 1024px the app uses its mobile layouts (Tailwind's `lg`). */
export const DESKTOP_QUERY = '(min-width: 1024px)'

/** Whether a CSS media query matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    [query],
  )
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false)
}
