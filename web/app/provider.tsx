import type { ReactNode } from 'react'
import { QueryClientProvider } from '@tanstack/react-query'
import { ThemeProvider } from '../components/theme/theme-provider.tsx'
import { LazyToaster } from '../components/ui/lazy-toaster.tsx'
import { queryClient } from '../lib/query-client.ts'

/** Providers that do not need the router. AuthProvider lives in the root route (it navigates). */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider defaultTheme="system">
        {children}
        <LazyToaster />
      </ThemeProvider>
    </QueryClientProvider>
  )
}
