import { RouterProvider } from 'react-router-dom'
import { AppProvider } from './provider.tsx'
import { router } from './router.tsx'

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  )
}
