import { Fingerprint, KeyRound, LockKeyhole, MonitorSmartphone } from 'lucide-react'
import { EXTERNAL_LINKS } from '../../../lib/site.ts'

const POINTS = [
  {
    icon: LockKeyhole,
    title: 'The age standard',
    body: 'Modern, open encryption (X25519 and ChaCha20-Poly1305). Anything we encrypt opens with the age command-line tool too.',
  },
  {
    icon: Fingerprint,
    title: 'Zero-knowledge keys',
    body: 'Key pairs are generated in your browser. The private key is stored only encrypted with your master password, which we never see.',
  },
  {
    icon: MonitorSmartphone,
    title: 'Decrypt on your device',
    body: 'Messages are decrypted in your browser, with a saved key and its master password or with a private key you paste.',
  },
  {
    icon: KeyRound,
    title: 'Sealed at rest',
    body: 'Mail waiting for delivery and the credentials of connected mailboxes are encrypted with AES-256-GCM on our servers.',
  },
]

export function EncryptionSection() {
  return (
    <section className="bg-zinc-950 text-zinc-100 dark:bg-card" aria-labelledby="encryption-title">
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-20 sm:px-6 lg:grid-cols-[1fr_1.3fr]">
        <div className="space-y-5">
          <p className="font-mono text-xs font-semibold tracking-widest text-emerald-400">_END-TO-END</p>
          <h2 id="encryption-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Military-Grade Encryption
          </h2>
          <p className="text-lg text-zinc-400">
            Veilmail uses{' '}
            <a href={EXTERNAL_LINKS.age} target="_blank" rel="noopener noreferrer" className="text-emerald-400 underline underline-offset-4 hover:decoration-2">
              age
            </a>
            , a small, modern encryption format with an open specification, and a zero-knowledge design: we hold your public key, never
            your readable private key.
          </p>
          <pre className="overflow-x-auto rounded-lg border border-zinc-800 bg-black/60 p-4 font-mono text-xs leading-relaxed text-zinc-300">
            <code>
              {'-----BEGIN AGE ENCRYPTED FILE-----\n'}
              <span className="text-zinc-400">{'YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgy…\n'}</span>
              {'-----END AGE ENCRYPTED FILE-----'}
            </code>
          </pre>
        </div>
        <ul className="grid gap-4 sm:grid-cols-2">
          {POINTS.map((point) => (
            <li key={point.title} className="rounded-xl border border-zinc-800 bg-zinc-900/60 p-5">
              <point.icon className="mb-3 size-5 text-emerald-400" aria-hidden="true" />
              <h3 className="mb-1.5 font-semibold">{point.title}</h3>
              <p className="text-sm text-zinc-400">{point.body}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
