const PROVIDERS = ['ProtonMail', 'Tuta', 'Gmail', 'QQ Mail', 'Outlook', 'Mail.ru', 'Yahoo']

function ProviderList({ hidden = false }: { hidden?: boolean }) {
  return (
    <ul className="flex shrink-0 items-center gap-12 pr-12" aria-hidden={hidden || undefined}>
      {PROVIDERS.map((name) => (
        <li key={name} className="font-mono text-lg font-semibold whitespace-nowrap text-muted-foreground">
          {name}
        </li>
      ))}
    </ul>
  )
}

/** A slowly scrolling row of providers Veilmail forwards to. */
export function CompatibleStrip() {
  return (
    <section className="border-b border-border bg-muted/40 py-8" aria-labelledby="compatible-title">
      <h2 id="compatible-title" className="mb-5 text-center font-mono text-xs font-semibold tracking-widest text-muted-foreground uppercase">
        Compatible with
      </h2>
      <div className="relative overflow-hidden [mask-image:linear-gradient(to_right,transparent,black_12%,black_88%,transparent)]">
        <div className="flex w-max animate-marquee hover:[animation-play-state:paused]">
          <ProviderList />
          <ProviderList hidden />
        </div>
      </div>
    </section>
  )
}
