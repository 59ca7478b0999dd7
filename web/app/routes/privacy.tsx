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
import { FINISHED_EMAIL_JOB_DAYS } from '../../../shared/retention-periods.ts'

export function PrivacyRoute() {
  useDocumentTitle('Privacy Policy')
  return (
    <ProsePage
      eyebrow="_PRIVACY POLICY"
      title="Privacy Policy"
      lead="What Veilmail stores, why, for how long, and what it never keeps. Short version: we hold the minimum needed to run your aliases, never log message content, and hold forwarded mail only until it is delivered."
    >
      <ProseSection title="Who we are">
        <p>
          Veilmail is a privacy e-mail service built in Lithuania and run since January 2025. For anything in this policy,
          write to <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
        </p>
      </ProseSection>

      <ProseSection title="What we store about you">
        <ul>
          <li>
            <strong>Your account.</strong> Depending on how you sign in: your e-mail address and a password hash
            (argon2id, never the password itself); your Google account ID and the e-mail address, name and picture
            Google shares; or the public address of your Solana wallet. Signing in with a wallet proves ownership
            with a signed one-time message; we never see your wallet's keys.
          </li>
          <li>
            <strong>Sessions.</strong> A random token in an HttpOnly cookie. We store only a hash of it, and delete it
            when you sign out. With it we keep the browser and system your browser names (such as "Firefox" and
            "Windows", no versions), when the session started and when it was last used, so that you can recognise
            and end your sessions in Settings. No IP address is kept with a session.
          </li>
          <li>
            <strong>Two-factor authentication.</strong> If you turn it on: your authenticator secret, encrypted at
            rest, the time step of the last code used, and keyed hashes of your recovery codes. Between your password
            and your code, a hash of a random token for five minutes.
          </li>
          <li>
            <strong>Passkeys.</strong> If you add one: its public key, its credential ID, its signature counter, the
            name you give it, when it was added and when it was last used. Your device keeps the private key; we never
            see it or your fingerprint or face.
          </li>
          <li>
            <strong>Your aliases.</strong> Each alias's name and domain, where it forwards (e-mail addresses and
            webhook URLs), your note, whether it is active, what becomes of its spam, when it was created, and five
            counters: forwarded, replied, dropped, dropped as spam and failed.
          </li>
          <li>
            <strong>Your aliases' contacts.</strong> The address and name of each sender whose mail an alias forwarded
            (or who was copied on it), with its reply address, when its first and last mail came, how many forwards and
            how much blocked mail it had, and whether you blocked it; what your Unsubscribe and block links did, until you
            undo or dismiss it; and your three choices for them. Of each link used, only a fingerprint (SHA-256), kept
            until the link would have expired, so it works once.
          </li>
          <li>
            <strong>Your domains.</strong> If you add your own domain: its name, the verification token and the DKIM
            key made for it (the private key encrypted at rest), whether it is verified, its catch-all setting and
            target, and what the last DNS check of its records found. If you choose a personal subdomain: its
            username. Both are released when you delete your account.
          </li>
          <li>
            <strong>Reply addresses.</strong> To let you reply anonymously we keep a reply address that links an
            alias to the person who wrote to it, and for one year a one-way hash of the message ids of the mail
            forwarded to the alias, so your replies thread without references to your other mail.
          </li>
          <li>
            <strong>Encryption keys.</strong> Your age public key, and your private key only in encrypted form. Keys
            are generated and decrypted in your browser and the private key is encrypted with your master password,
            which this web app never sends to us. (Programs using our API can ask the server to decrypt one message
            with the master password; it is used for that request and neither stored nor logged.) We cannot read your
            private key without it, or reset your master password.
          </li>
          <li>
            <strong>Sending credentials and connected mailboxes.</strong> SMTP passwords and webhook signing secrets for your aliases and the
            IMAP passwords or Microsoft (Outlook) sign-in tokens of mailboxes you connect, and the SMTP password of a
            mailbox you send as when it differs from its IMAP one, are encrypted at rest with AES-256-GCM. A draft you
            write as one of your mailboxes is kept encrypted here until it is saved to that mailbox's Drafts folder,
            and deleted once you send it or throw it away. Messages synced from connected mailboxes are stored so you can read them in the inbox, until
            you delete them or your account; their bodies and attachments are encrypted at rest, their subjects and
            addresses are not (see "What is encrypted at rest" below).
          </li>
          <li>
            <strong>Mail you send.</strong> Messages you write in Veilmail wait in an outgoing queue while they are
            delivered, so that delivery can be retried and you can see its status. The message itself is encrypted
            at rest and erased as soon as it is sent, cancelled or has finally failed; the record of it (recipient,
            status, time, error) is deleted {FINISHED_EMAIL_JOB_DAYS} days after that.
          </li>
          <li>
            <strong>Attempt counters.</strong> To stop password guessing and abuse we count sign-in attempts, sign-ups
            and similar actions per IP address, per e-mail address or per account for a limited window (up to a day,
            depending on the action). Each counter is deleted within an hour after its window ends.
          </li>
        </ul>
      </ProseSection>

      <ProseSection title="What is encrypted at rest, and what is not">
        <p>
          Encrypted with AES-256-GCM under a key derived from our server's secret key, each value bound to its own
          record:
        </p>
        <ul>
          <li>Mail arriving for your aliases while it waits to be forwarded: the whole message and its envelope.</li>
          <li>Mail you send from Veilmail while it waits in the outgoing queue: the whole message, subject included.</li>
          <li>Drafts you write as one of your mailboxes, until they are saved to its Drafts folder.</li>
          <li>
            Mail synced from your connected mailboxes: the text and HTML bodies, the preview line shown in the list,
            and the contents of attachments.
          </li>
          <li>IMAP passwords, Microsoft (Outlook) sign-in tokens, the SMTP passwords of your aliases and of your mailboxes, webhook signing secrets and the DKIM keys of your domains.</li>
        </ul>
        <p>Stored readable, not encrypted:</p>
        <ul>
          <li>
            Of mail synced from your connected mailboxes: the subject; the sender's and recipients' addresses and names
            (From, To, Cc, Bcc); the Message-ID and the ids of the messages it replies to (In-Reply-To, References); the
            date, size and read, starred and answered marks; the folder it is in; and the names, types and sizes of its
            attachments. The database works with these: it groups replies into conversations by those ids and by the
            subject, and builds your message list from them.
          </li>
          <li>Of mail you send: the recipient, the status and the times.</li>
          <li>Where your aliases forward, and the contacts behind your reply addresses: we need them to route mail.</li>
        </ul>
        <p>
          This protects a copy of our database (a backup, a disk) that comes without the server's key. It does not hide
          your mail from the running service, which holds that key so it can show you your inbox. What we cannot read
          at all: your private key, locked with your master password, and the copies of failed forwards we keep for
          you, encrypted to your age key.
        </p>
      </ProseSection>

      <ProseSection title="Mail we forward">
        <p>
          When mail arrives for an alias we write it to an encrypted spool (AES-256-GCM) and deliver it to each of
          the alias's targets. As soon as every target has it, the message is deleted. If you have a default age key,
          the message is encrypted to it before it leaves our servers (you can turn this off per alias). Mail for a
          paused alias is dropped unread.
        </p>
        <p>
          If a recipient mailbox refuses a forward for good and you have a key, we keep a copy encrypted to your key
          (we cannot read it) for 30 days so you can retry or delete it from the dashboard; without a key we keep only
          the reason it failed, never the message.
        </p>
        <p>
          Webhook targets receive the message as a JSON payload signed with HMAC-SHA256 at the URL you chose; what
          happens there is under your control.
        </p>
      </ProseSection>

      <ProseSection title="Zero logs">
        <p>
          We never write message content, subjects or e-mail addresses to our logs. Our technical and security logs
          record events such as errors, sign-in attempts and rate-limit hits, with the IP address needed to stop
          abuse. They are kept for {SECURITY_LOG_RETENTION_DAYS} days and then deleted.
        </p>
      </ProseSection>

      <ProseSection title="Cookies and browser storage">
        <p>
          Two cookies: your session, and after you sign in with e-mail and password a known-device cookie (a random
          id signed for your account, kept for a year) so that strangers guessing your password cannot hold up your own
          sign-ins. With two-factor authentication on, a third one for the five minutes between your password and
          your code, and one for the five minutes a passkey sign-in takes. No advertising, analytics or third-party trackers. Your browser's local storage
          keeps your theme choice and, if you sign in with a wallet, your wallet's public address.
        </p>
      </ProseSection>

      <ProseSection title="Who else sees data">
        <p>
          We do not sell, rent or share your data. Some data necessarily passes through others: Google when you sign
          in with Google, Microsoft when you connect an Outlook mailbox, the mail providers you forward to or connect,
          and the hosting and mail-relay providers that run our servers, which process it only to provide that
          service. We disclose data to authorities only when legally required; see the{' '}
          <Link to="/transparency">Transparency Report</Link>.
        </p>
      </ProseSection>

      <ProseSection title="How long we keep it">
        <ul>
          <li>Forwarded mail: only until every target has received it.</li>
          <li>Records of mail you sent: {FINISHED_EMAIL_JOB_DAYS} days after it was sent, cancelled or finally failed (the message itself is erased at once).</li>
          <li>Attempt counters (IP and e-mail addresses): within an hour after their window ends.</li>
          <li>Technical and security logs (which contain no content): {SECURITY_LOG_RETENTION_DAYS} days.</li>
          <li>Deleted aliases: removed at once with their settings, notes and counters. The bare address is kept, linked to no one, so it can never be given to someone else and receive mail meant for you.</li>
          <li>
            Everything else: for as long as you keep your account. When you delete it from the dashboard you are
            signed out everywhere at once, your aliases stop working immediately, and all account data is erased
            within {ACCOUNT_ERASURE_DAYS} days.
          </li>
        </ul>
      </ProseSection>

      <ProseSection title="Your rights">
        <p>
          You can see, correct and delete your data in the app at any time. You can also ask us for a copy, a
          correction or erasure, or object to processing: we answer within {GDPR_RESPONSE_DAYS} days. Details are on
          our <Link to="/gdpr">GDPR page</Link>.
        </p>
      </ProseSection>

      <ProseSection title="Children">
        <p>Veilmail is not for children under {MINIMUM_AGE}. If we learn that an account belongs to one, we delete it.</p>
      </ProseSection>

      <ProseSection title="Changes">
        <p>
          When this policy changes we update this page before the change takes effect.
        </p>
      </ProseSection>
    </ProsePage>
  )
}
