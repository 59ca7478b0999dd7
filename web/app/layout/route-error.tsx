import { useRouteError } from 'react-router-dom'
import { Button } from '../../components/ui/button.tsx'

/** Shown when a page throws or its code cannot be loaded (for example after a deploy). */
export function RouteError() {
  const error = useRouteError()
  console.error(error)
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 text-center">
      <p className="font-mono text-xs tracking-widest text-destructive">_ERROR</p>
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="max-w-md text-muted-foreground">The page could not be shown. Reloading usually fixes this.</p>
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </div>
  )
}
