import { Link } from 'react-router-dom'
import { Mail, Wallet } from 'lucide-react'
import { GoogleIcon } from '../../components/icons/google-icon.tsx'
import type { SessionUser } from '../../../shared/auth-schemas.ts'
import type { AuthMethod } from '../../lib/auth-method.ts'
import { userLabel } from '../../lib/auth-method.ts'

const METHOD_NAMES: Record<AuthMethod, string> = {
  email: 'email',
  wallet: 'Solana wallet',
  google: 'Google',
  none: 'unknown method',
}

function MethodIcon({ method }: { method: AuthMethod }) {
  const label = `Signed in with ${METHOD_NAMES[method]}`
  return (
    <span role="img" aria-label={label} title={label} data-testid="auth-method" data-method={method} className="inline-flex text-muted-foreground">
      {method === 'wallet' ? (
        <Wallet className="size-4" aria-hidden="true" />
      ) : method === 'google' ? (
        <GoogleIcon className="size-4" />
      ) : (
        <Mail className="size-4" aria-hidden="true" />
      )}
    </span>
  )
}

/** Online dot, sign-in method, short user label and (when above 0) the balance. */
export function UserStatus({ user, method }: { user: SessionUser; method: AuthMethod }) {
  const label = userLabel(user)
  const showBalance = Number(user.balance) > 0
  return (
    <div className="flex min-w-0 items-center gap-2">
      <span
        role="img"
        aria-label="Online"
        title="Online"
        className="size-2 shrink-0 rounded-full bg-green-500 shadow-[0_0_0_3px] shadow-green-500/20"
      />
      <MethodIcon method={method} />
      <Link
        to="/"
        title={user.email ?? user.walletAddress ?? label}
        data-testid="user-label"
        className="block max-w-[120px] truncate font-mono text-sm font-medium hover:text-primary sm:max-w-[180px]"
      >
        {label}
      </Link>
      {showBalance && (
        <span data-testid="balance" className="shrink-0 rounded-full border border-primary/40 bg-accent px-2 py-0.5 font-mono text-xs font-semibold text-accent-foreground">
          ${user.balance}
        </span>
      )}
    </div>
  )
}
