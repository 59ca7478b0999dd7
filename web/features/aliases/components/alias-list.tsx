import { useState, type ReactNode } from 'react'
import { Inbox, SearchX, type LucideIcon } from 'lucide-react'
import { Button } from '../../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { DESKTOP_QUERY, useMediaQuery } from '../../../hooks/use-media-query.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useAliases } from '../api/get-aliases.ts'
import { DEFAULT_PAGE_SIZE, filterAliases, pageCount, pageItems } from '../lib/alias-search.ts'
import { AliasCard } from './alias-card.tsx'
import { AliasListToolbar } from './alias-list-toolbar.tsx'
import { AliasPartsContext, type AliasParts } from './alias-parts.ts'
import { AliasPagination } from './alias-pagination.tsx'
import { AliasTable } from './alias-table.tsx'

function ListMessage({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border px-4 py-12 text-center" data-testid="alias-list-message">
      <Icon aria-hidden="true" className="size-8 text-muted-foreground" />
      <p className="font-medium">{title}</p>
      {children}
    </div>
  )
}

export function AliasList({ userId, parts }: { userId: string; parts: AliasParts }) {
  const aliases = useAliases(userId)
  const desktop = useMediaQuery(DESKTOP_QUERY)
  const [search, setSearch] = useState('')
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE)
  const [requestedPage, setPage] = useState(1)

  const all = aliases.data ?? []
  const matches = filterAliases(all, search)
  const pages = pageCount(matches.length, pageSize)
  // A deletion can remove the last row of the last page: show the new last page then.
  const page = Math.min(requestedPage, pages)
  const visible = pageItems(matches, page, pageSize)

  function body() {
    if (aliases.isPending) {
      return (
        <div className="flex items-center justify-center gap-3 py-12 text-sm text-muted-foreground">
          <Spinner label="Loading aliases" /> Loading aliases...
        </div>
      )
    }
    if (aliases.isError) {
      return (
        <ListMessage icon={SearchX} title="Your aliases could not be loaded">
          <p className="text-sm text-muted-foreground">{errorMessage(aliases.error, 'Failed to load aliases')}</p>
          <Button variant="outline" size="sm" onClick={() => aliases.refetch()}>
            Try again
          </Button>
        </ListMessage>
      )
    }
    if (all.length === 0) {
      return (
        <ListMessage icon={Inbox} title="No aliases yet">
          <p className="text-sm text-muted-foreground">Create your first alias above to receive mail without sharing your real address.</p>
        </ListMessage>
      )
    }
    if (matches.length === 0) return <ListMessage icon={SearchX} title={`No aliases match "${search.trim()}"`} />
    return (
      <>
        {desktop ? (
          <AliasTable aliases={visible} userId={userId} />
        ) : (
          <ul className="grid gap-3" aria-label="Your aliases">
            {visible.map((alias) => (
              <AliasCard key={alias.id} alias={alias} userId={userId} />
            ))}
          </ul>
        )}
        <AliasPagination page={page} pages={pages} total={matches.length} pageSize={pageSize} onPage={setPage} />
      </>
    )
  }

  return (
    <AliasPartsContext.Provider value={parts}>
      <Card>
        <CardHeader className="px-4 sm:px-6">
          <CardTitle>Your Aliases</CardTitle>
          <CardDescription>
            {aliases.data ? `${all.length} ${all.length === 1 ? 'alias' : 'aliases'}. ` : ''}Pause an alias to silently drop its mail
            without deleting it.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 px-4 sm:px-6">
          <AliasListToolbar
            search={search}
            onSearch={(next) => {
              setSearch(next)
              setPage(1)
            }}
            pageSize={pageSize}
            onPageSize={(next) => {
              setPageSize(next)
              setPage(1)
            }}
          />
          {body()}
        </CardContent>
      </Card>
    </AliasPartsContext.Provider>
  )
}
