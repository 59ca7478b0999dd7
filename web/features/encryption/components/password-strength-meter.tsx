import { useEffect, useState } from 'react'
import { cn } from '../../../lib/cn.ts'
import { judgePassword, loadPasswordEstimator, type PasswordStrength } from '../lib/password-strength.ts'

const BAR_COLORS = ['bg-destructive', 'bg-destructive', 'bg-amber-500', 'bg-primary', 'bg-primary'] as const

/** Estimates as the user types; the estimator loads the first time there is something to rate. */
export function usePasswordStrength(password: string): PasswordStrength | undefined {
  const [strength, setStrength] = useState<PasswordStrength>()
  useEffect(() => {
    if (!password) {
      setStrength(undefined)
      return
    }
    let current = true
    loadPasswordEstimator().then(
      (zxcvbn) => current && setStrength(judgePassword(zxcvbn, password)),
      () => current && setStrength(undefined),
    )
    return () => {
      current = false
    }
  }, [password])
  return password ? strength : undefined
}

/** Four bars and the usual words ("Weak", "Strong"), with zxcvbn's hint while it is too weak. */
export function PasswordStrengthMeter({ strength, id }: { strength: PasswordStrength | undefined; id: string }) {
  if (!strength) return null
  const filled = Math.max(1, strength.score)
  const hint = strength.accepted ? '' : strength.warning || strength.suggestions[0] || ''
  return (
    <div id={id} className="grid gap-1.5" data-testid="password-strength" data-score={strength.score}>
      <div className="grid grid-cols-4 gap-1" aria-hidden="true">
        {[1, 2, 3, 4].map((bar) => (
          <span key={bar} className={cn('h-1.5 rounded-full', bar <= filled ? BAR_COLORS[strength.score] : 'bg-muted')} />
        ))}
      </div>
      <p className="text-xs text-muted-foreground" aria-live="polite">
        Strength: <span className="font-medium text-foreground">{strength.label}</span>
        {hint && <> · {hint}</>}
      </p>
    </div>
  )
}
