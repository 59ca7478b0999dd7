import { ProsePage, ProseSection } from '../../components/layout/prose-page.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import {
  ACCOUNT_ERASURE_DAYS,
  LAUNCH_DATE,
  NEXT_TRANSPARENCY_REPORT,
  SECURITY_LOG_RETENTION_DAYS,
} from '../../lib/data-policy.ts'
import { CONTACT_EMAIL } from '../../lib/site.ts'

// Figures for this reporting period; update them with each report.
const REQUESTS = [
  { type: 'Court orders and warrants', received: 0, disclosed: 0 },
  { type: 'Other government or police requests', received: 0, disclosed: 0 },
  { type: 'Emergency disclosure requests', received: 0, disclosed: 0 },
  { type: 'Gag orders', received: 0, disclosed: 0 },
]

export function TransparencyRoute() {
  useDocumentTitle('Transparency Report')
  return (
    <ProsePage
      eyebrow="_TRANSPARENCY REPORT"
      title="Transparency Report"
      lead="How often authorities ask us for user data, what we hand over, and what we could never hand over because we do not have it."
      meta={`Period: since launch (${LAUNCH_DATE}) · Next report due ${NEXT_TRANSPARENCY_REPORT}`}
    >
      <ProseSection title="Requests received">
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-left text-sm">
            <thead className="bg-muted font-mono text-xs tracking-wide text-muted-foreground">
              <tr>
                <th scope="col" className="px-4 py-3">Request type</th>
                <th scope="col" className="px-4 py-3 text-right">Received</th>
                <th scope="col" className="px-4 py-3 text-right">Data disclosed</th>
              </tr>
            </thead>
            <tbody>
              {REQUESTS.map((row) => (
                <tr key={row.type} className="border-t border-border">
                  <th scope="row" className="px-4 py-3 font-normal">{row.type}</th>
                  <td className="px-4 py-3 text-right font-mono">{row.received}</td>
                  <td className="px-4 py-3 text-right font-mono">{row.disclosed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          We answer only requests that are legally binding under Lithuanian law, check each one for scope, and, where
          the law allows, tell the affected user before we disclose anything.
        </p>
      </ProseSection>

      <ProseSection title="What we could disclose if compelled">
        <ul>
          <li>How an account signs in (e-mail address, Google ID or wallet address) and when it was created.</li>
          <li>The account's aliases, their forwarding targets, notes and forwarded, replied, dropped, dropped as spam and failed counters.</li>
          <li>Technical and security logs, which hold no message content and are kept for {SECURITY_LOG_RETENTION_DAYS} days.</li>
          <li>Messages synced from mailboxes the user connected, and mail still waiting in the outgoing queue.</li>
        </ul>
      </ProseSection>

      <ProseSection title="What we cannot disclose">
        <ul>
          <li>Forwarded mail once it has been delivered: it is deleted from our encrypted spool.</li>
          <li>Message content, subjects or e-mail addresses from our logs: they are never written there.</li>
          <li>Readable private keys or master passwords: keys are stored only encrypted with a password we never see.</li>
          <li>Passwords: we store only argon2id hashes.</li>
          <li>
            Anything about a deleted account after {ACCOUNT_ERASURE_DAYS} days, or who owned a deleted alias: only
            its bare address is kept, linked to no one, so it is never given out again.
          </li>
        </ul>
      </ProseSection>

      <ProseSection title="Contact">
        <p>
          Questions about this report, and requests from authorities: <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
          The next report is due {NEXT_TRANSPARENCY_REPORT}.
        </p>
      </ProseSection>
    </ProsePage>
  )
}
