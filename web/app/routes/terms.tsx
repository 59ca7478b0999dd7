import { Link } from 'react-router-dom'
import { ProsePage, ProseSection } from '../../components/layout/prose-page.tsx'
import { useDocumentTitle } from '../../hooks/use-document-title.ts'
import { ACCOUNT_ERASURE_DAYS, MINIMUM_AGE } from '../../lib/data-policy.ts'
import { CONTACT_EMAIL } from '../../lib/site.ts'

export function TermsRoute() {
  useDocumentTitle('Terms of Service')
  return (
    <ProsePage
      eyebrow="_TERMS OF SERVICE"
      title="Terms of Service"
      lead="The rules for using Veilmail. By creating an account or using the service you agree to them."
    >
      <ProseSection title="1. The service">
        <p>
          Veilmail provides e-mail aliases that forward to mailboxes and webhooks you choose, anonymous replies and
          sending through an alias, age encryption keys protected by a master password, and a webmail inbox for the IMAP mailboxes you connect. The service is free. We may add, change or remove features; we will not start charging for
          what is free without telling you first.
        </p>
      </ProseSection>

      <ProseSection title="2. Who can use it">
        <p>
          You must be at least {MINIMUM_AGE} years old, and old enough in your country to agree to these terms
          yourself or with a parent's consent. One person may hold several accounts only if none of them is used to
          get around a suspension.
        </p>
      </ProseSection>

      <ProseSection title="3. Your account and keys">
        <ul>
          <li>You are responsible for keeping your password, wallet and master password safe.</li>
          <li>
            Your private encryption keys are stored only encrypted with your master password, which we never receive.
            If you lose it we cannot recover your keys or decrypt your mail. Download your keys and keep them safe.
          </li>
          <li>Tell us at once at {CONTACT_EMAIL} if you think someone else is using your account.</li>
        </ul>
      </ProseSection>

      <ProseSection title="4. Acceptable use">
        <p>You may not use Veilmail to:</p>
        <ul>
          <li>send spam, bulk unsolicited mail, phishing or malware;</li>
          <li>harass, threaten or defraud anyone, or impersonate a person, company or public body;</li>
          <li>send or receive content that is illegal where you or the recipient are;</li>
          <li>get around rate limits, probe or overload our systems, or point webhooks at systems you do not control;</li>
          <li>register alias names we reserve (role, brand, bank, government and similar names).</li>
        </ul>
        <p>
          We may refuse, pause or delete aliases and suspend accounts that break these rules, and we limit how fast
          accounts can act to protect everyone's mail.
        </p>
      </ProseSection>

      <ProseSection title="5. Your content">
        <p>
          Mail and data you send, receive or store through Veilmail stay yours. We handle them only to provide the
          service, as described in our <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </ProseSection>

      <ProseSection title="6. No warranty">
        <p>
          Veilmail is provided "as is" and "as available". E-mail is a best-effort system: messages can be delayed,
          rejected by other servers or lost. Do not rely on Veilmail as the only copy of anything important.
        </p>
      </ProseSection>

      <ProseSection title="7. Limitation of liability">
        <p>
          Veilmail is free, and to the fullest extent the law allows our total liability to you for any claim arising
          from the service is limited to $0. Nothing in these terms limits liability that cannot be limited by law.
        </p>
      </ProseSection>

      <ProseSection title="8. Ending your account">
        <p>
          You can delete your account at any time from the dashboard. You are signed out everywhere at once, your
          aliases stop working immediately, and all account data is erased within {ACCOUNT_ERASURE_DAYS} days. We may
          close accounts that break these terms; where we can, we tell you why.
        </p>
      </ProseSection>

      <ProseSection title="9. Changes to these terms">
        <p>
          We update this page before changes take effect. If you keep using Veilmail after a change, the new terms
          apply; if you disagree, you can delete your account.
        </p>
      </ProseSection>

      <ProseSection title="10. Law and contact">
        <p>
          These terms are governed by the laws of the Republic of Lithuania, without taking away any protection the
          law of your country gives you as a consumer. Questions: <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
        </p>
      </ProseSection>
    </ProsePage>
  )
}
