import { Link } from 'react-router-dom'
import { ProsePage, ProseSection } from '../../components/layout/prose-page.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import {
  ACCOUNT_ERASURE_DAYS,
  GDPR_RESPONSE_DAYS,
  MINIMUM_AGE,
  SECURITY_LOG_RETENTION_DAYS,
} from '../../lib/data-policy.ts'
import { CONTACT_EMAIL } from '../../lib/site.ts'

const RIGHTS = [
  { name: 'Access', body: 'Get a copy of the personal data we hold about you.' },
  { name: 'Rectification', body: 'Correct data that is wrong. Aliases, targets and notes can be edited in the dashboard.' },
  { name: 'Erasure', body: 'Delete your account from the dashboard at any time, or ask us to.' },
  { name: 'Portability', body: 'Receive your data in a machine-readable format. Key files download as JSON from Settings.' },
  { name: 'Restriction', body: 'Ask us to limit how we use your data while a question about it is settled.' },
  { name: 'Objection', body: 'Object to processing based on our legitimate interests, such as security logging.' },
]

export function GdprRoute() {
  useDocumentTitle('GDPR Compliance')
  return (
    <ProsePage
      eyebrow="_GDPR COMPLIANT"
      title="GDPR Compliance"
      lead="Veilmail is built in Lithuania, in the European Union, and applies the General Data Protection Regulation to every user, wherever they live."
    >
      <ProseSection title="Data minimisation by design">
        <p>
          We keep only what is needed to run your aliases. Forwarded mail is held in an encrypted spool (AES-256-GCM)
          only until every target has received it, then deleted. Message content, subjects and e-mail addresses never
          appear in our logs. Passwords are stored as argon2id hashes, sessions as hashes of random tokens (with the
          browser and system named coarsely and the days they were used, never an IP address), two-factor secrets and
          mailbox credentials encrypted at rest, and recovery codes as keyed hashes. Your age private keys are generated in your browser and stored only encrypted
          with a master password we never receive. The full list is in our <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </ProseSection>

      <ProseSection title="Why we process data (legal bases)">
        <ul>
          <li>
            <strong>Performing our contract with you</strong> (Art. 6(1)(b)): your account, aliases, forwarding, replies,
            sending, encryption keys and connected mailboxes.
          </li>
          <li>
            <strong>Legitimate interests</strong> (Art. 6(1)(f)): technical and security logs and rate limits that keep
            the service and its users safe from abuse.
          </li>
          <li>
            <strong>Legal obligations</strong> (Art. 6(1)(c)): answering lawful requests from authorities, as reported in
            our <Link to="/transparency">Transparency Report</Link>.
          </li>
        </ul>
      </ProseSection>

      <ProseSection title="Your rights">
        <dl className="grid gap-3 sm:grid-cols-2">
          {RIGHTS.map((right) => (
            <div key={right.name} className="rounded-lg border border-border bg-card p-4">
              <dt className="font-semibold text-foreground">Right to {right.name.toLowerCase()}</dt>
              <dd className="mt-1 text-sm leading-6 text-muted-foreground">{right.body}</dd>
            </div>
          ))}
        </dl>
      </ProseSection>

      <ProseSection title="How to make a request">
        <p>
          Write to <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a> from the address on your account, or tell us
          how to confirm that the account is yours (for a wallet account, for example, by signing a message). We answer
          every request within {GDPR_RESPONSE_DAYS} days, free of charge.
        </p>
      </ProseSection>

      <ProseSection title="Retention">
        <ul>
          <li>Forwarded mail: deleted as soon as every target has received it.</li>
          <li>Technical and security logs, which contain no message content: {SECURITY_LOG_RETENTION_DAYS} days.</li>
          <li>Deleted aliases: removed at once with their settings, notes and counters. The bare address is kept, linked to no one, so it can never be given to someone else and receive mail meant for you.</li>
          <li>
            Account data: kept while your account exists. Deleting your account signs you out everywhere at once, stops
            your aliases immediately and erases all account data within {ACCOUNT_ERASURE_DAYS} days.
          </li>
        </ul>
      </ProseSection>

      <ProseSection title="Processors and transfers">
        <p>
          We do not sell or share personal data. Our hosting and mail-relay providers process data only to run the
          service for us. Signing in with Google or connecting an Outlook mailbox involves Google or Microsoft under
          their own privacy terms, and mail you forward or send naturally reaches providers chosen by you and your
          correspondents, which may be outside the EU.
        </p>
      </ProseSection>

      <ProseSection title="Children">
        <p>The minimum age for a Veilmail account is {MINIMUM_AGE}.</p>
      </ProseSection>

      <ProseSection title="Complaints">
        <p>
          Please contact us first so we can put things right. You also have the right to complain to a data protection
          authority, in Lithuania the State Data Protection Inspectorate (Valstybinė duomenų apsaugos inspekcija), or to
          the authority where you live or work.
        </p>
      </ProseSection>
    </ProsePage>
  )
}
