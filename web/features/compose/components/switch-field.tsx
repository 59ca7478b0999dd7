import { useId, type ReactNode } from 'react'
import { Label } from '../../../components/ui/label.tsx'
import { Switch } from '../../../components/ui/switch.tsx'

interface SwitchFieldProps {
  label: string
  description: ReactNode
  icon?: ReactNode
  checked: boolean
  disabled?: boolean
  onCheckedChange: (checked: boolean) => void
}

/** A labelled on/off setting: the label and a line of explanation on the left, the switch on the right. */
export function SwitchField({ label, description, icon, checked, disabled, onCheckedChange }: SwitchFieldProps) {
  const id = useId()
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="flex gap-3">
        {icon}
        <div className="grid gap-1">
          <Label htmlFor={id}>{label}</Label>
          <p id={`${id}-description`} className="text-xs text-muted-foreground">
            {description}
          </p>
        </div>
      </div>
      <Switch id={id} checked={checked} disabled={disabled} onCheckedChange={onCheckedChange} aria-describedby={`${id}-description`} />
    </div>
  )
}
