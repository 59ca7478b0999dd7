import { useId } from 'react'
import { Search } from 'lucide-react'
import { Input } from '../../../components/ui/input.tsx'
import { Label } from '../../../components/ui/label.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'
import { PAGE_SIZES } from '../lib/alias-search.ts'

interface AliasListToolbarProps {
  search: string
  onSearch: (search: string) => void
  pageSize: number
  onPageSize: (pageSize: number) => void
}

export function AliasListToolbar({ search, onSearch, pageSize, onPageSize }: AliasListToolbarProps) {
  const sizeId = useId()
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="relative w-full sm:max-w-sm">
        <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          type="search"
          aria-label="Search aliases"
          placeholder="Search aliases, targets or notes"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          className="pl-9"
        />
      </div>
      <div className="flex items-center gap-2">
        <Label htmlFor={sizeId} className="whitespace-nowrap text-muted-foreground">
          Per page
        </Label>
        <NativeSelect id={sizeId} value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))} className="w-20">
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  )
}
