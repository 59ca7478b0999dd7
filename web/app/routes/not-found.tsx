import { Link } from 'react-router-dom'
import { buttonClasses } from '../../components/ui/button.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'

export function NotFoundRoute() {
  useDocumentTitle('404 Page Not Found', { exact: true })
  return (
    <div className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center gap-5 px-4 py-24 text-center">
      <p className="font-mono text-6xl font-bold text-primary">404</p>
      <h1 className="text-3xl font-bold tracking-tight">Page Not Found</h1>
      <p className="text-muted-foreground">
        The page you are looking for does not exist or has moved. Check the address, or head back home.
      </p>
      <Link to="/" className={buttonClasses('primary', 'md')}>
        Back to home
      </Link>
    </div>
  )
}
