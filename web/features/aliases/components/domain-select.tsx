import { useId } from 'react'
import { Label } from '../../../components/ui/label.tsx'
import { NativeSelect } from '../../../components/ui/native-select.tsx'

interface DomainSelectProps {
  domains: string[]
  loading: boolean
  failed: boolean
  value: string
  onChange: (domain: string) => void
  error?: string
}

export function DomainSelect({ domains, loading, failed, value, onChange, error }: DomainSelectProps) {
  const id = useId()
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>Domain</Label>
      <NativeSelect
        id={id}
        name="domain"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={loading || domains.length === 0}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-message` : undefined}
      >
        {loading && <option value="">Loading domains...</option>}
        {failed && <option value="">Domains unavailable</option>}
        {domains.map((domain) => (
          <option key={domain} value={domain}>
            @{domain}
          </option>
        ))}
      </NativeSelect>
      {error && (
        <p id={`${id}-message`} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  )
}
