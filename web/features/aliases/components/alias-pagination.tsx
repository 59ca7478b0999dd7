import { ChevronLeft, ChevronRight } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { pageWindow } from '../lib/alias-search.ts'

interface AliasPaginationProps {
  page: number
  pages: number
  total: number
  pageSize: number
  onPage: (page: number) => void
}

/** "Showing a–b of n", previous/next and at most five page numbers. */
export function AliasPagination({ page, pages, total, pageSize, onPage }: AliasPaginationProps) {
  const first = (page - 1) * pageSize + 1
  const last = Math.min(total, page * pageSize)
  return (
    <div className="flex flex-col items-center justify-between gap-3 sm:flex-row">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Showing {first}–{last} of {total}
      </p>
      {pages > 1 && (
        <nav aria-label="Alias pages" className="flex items-center gap-1">
          <Button variant="outline" size="icon" className="size-8" aria-label="Previous page" disabled={page === 1} onClick={() => onPage(page - 1)}>
            <ChevronLeft aria-hidden="true" />
          </Button>
          {pageWindow(page, pages).map((n) => (
            <Button
              key={n}
              variant={n === page ? 'primary' : 'ghost'}
              size="icon"
              className="size-8 text-sm"
              aria-label={`Page ${n}`}
              aria-current={n === page ? 'page' : undefined}
              onClick={() => onPage(n)}
            >
              {n}
            </Button>
          ))}
          <Button variant="outline" size="icon" className="size-8" aria-label="Next page" disabled={page === pages} onClick={() => onPage(page + 1)}>
            <ChevronRight aria-hidden="true" />
          </Button>
        </nav>
      )}
    </div>
  )
}
