import { Link } from 'react-router-dom'
import { ProsePage, ProseSection } from '../../components/layout/prose-page.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { CONTACT_EMAIL, EXTERNAL_LINKS } from '../../lib/site.ts'

const PRINCIPLES = [
  {
    title: 'Collect as little as possible',
    body: 'We keep what it takes to run your aliases and nothing more. Mail we forward is held only until it is delivered.',
  },
  {
    title: 'Zero logs',
    body: 'No message content, subject or e-mail address ever goes into our logs. Per alias we count five things: forwarded, replied, dropped, dropped as spam, failed.',
  },
  {
    title: 'Open standards',
    body: 'age for encryption, SMTP for mail. Nothing locks you in: your keys open with the age tool, your mailbox stays yours.',
  },
  {
    title: 'Free forever',
    body: 'Aliases, forwarding, encryption and sending are free, with unlimited aliases. Privacy should not depend on a subscription.',
  },
]

export function AboutRoute() {
  useDocumentTitle('About')
  return (
    <ProsePage
      eyebrow="_ABOUT US"
      title="About"
      lead="Veilmail is privacy-first email forwarding: aliases that hide your real address, and encryption that only you can open."
    >
      <ProseSection title="Our mission">
        <p>
          Your e-mail address has become the key that ties your whole online life together. Every sign-up, newsletter
          and online order copies it into another database, and every breach spreads it further. Veilmail exists so
          that you can hand out an address without handing out yourself.
        </p>
        <p>
          Veilmail launched in January 2025 and is built in Lithuania. We wanted what the best alias services offer,
          free, with modern encryption built in, and without asking anyone to leave the mailbox they already use.
        </p>
      </ProseSection>

      <ProseSection title="What Veilmail does">
        <ul>
          <li>
            <strong>Aliases.</strong> Create as many addresses as you like on our domains. Each one forwards to one or
            more real mailboxes or webhooks, and can be paused, re-pointed, annotated or deleted at any time.
          </li>
          <li>
            <strong>Anonymous replies and sending.</strong> Replies go out from the alias, never from your real
            address. SMTP credentials let any mail app send through an alias.
          </li>
          <li>
            <strong>age encryption.</strong> Key pairs are generated in your browser and the private key is stored
            only encrypted with your master password. With a default key set, forwarded mail is encrypted before it
            leaves our servers.
          </li>
          <li>
            <strong>Inbox.</strong> Connect Gmail, Yahoo or any IMAP mailbox and read it in one inbox, grouped into
            conversations. Stars, read marks and deletions are written back to the mailbox, and replies leave from
            your alias.
          </li>
        </ul>
      </ProseSection>

      <ProseSection title="What we believe">
        <div className="grid gap-4 sm:grid-cols-2">
          {PRINCIPLES.map((principle) => (
            <div key={principle.title} className="rounded-xl border border-border bg-card p-5">
              <h3 className="mb-2 font-semibold text-foreground">{principle.title}</h3>
              <p className="text-sm leading-6 text-muted-foreground">{principle.body}</p>
            </div>
          ))}
        </div>
      </ProseSection>

      <ProseSection title="Open source">
        <p>
          Veilmail's code and documentation are public on{' '}
          <a href={EXTERNAL_LINKS.documentation} target="_blank" rel="noopener noreferrer">
            GitHub
          </a>
          . Encryption uses the open{' '}
          <a href={EXTERNAL_LINKS.age} target="_blank" rel="noopener noreferrer">
            age
          </a>{' '}
          format, so you can check our claims and decrypt your mail without us.
        </p>
      </ProseSection>

      <ProseSection title="Get in touch">
        <p>
          Questions about privacy or your data: <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>. Ideas and bug
          reports are welcome on our <a href={`${EXTERNAL_LINKS.sourceCode}/issues`} target="_blank" rel="noopener noreferrer">issue tracker</a>.
          Read how we handle data in our <Link to="/privacy">Privacy Policy</Link> and what we disclose in the{' '}
          <Link to="/transparency">Transparency Report</Link>.
        </p>
      </ProseSection>
    </ProsePage>
  )
}
