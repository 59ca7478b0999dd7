import { QueryClient } from '@tanstack/react-query'

// Cache policy: results never go stale on their own, no refetch on focus,
// no polling and no automatic retries.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
})
