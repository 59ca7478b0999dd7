// The inbox in Chromium for a user who sends as their own mailbox: a private Dovecot with the
// mailbox and its messages, the mailbox's SMTP server (a stand-in with AUTH under the same test
// CA), the inbox browser (inbox-browser.ts), the user registered with an alias, and the mailbox
// connected. Its SMTP settings are left to the test (send-as-mailbox.test.ts walks the page).
import { expect } from 'vitest'
import { registerThroughForm } from './browser-account.ts'
import { startDovecot, type Dovecot, type SeedMessage } from './dovecot.ts'
import { connectMailbox, createAliasFromPage, startInboxBrowser, type InboxBrowser } from './inbox-browser.ts'
import { startMailboxSmtp, type MailboxSmtpStandIn } from './mailbox-smtp-stand-in.ts'

export interface SendingMailboxBrowser extends InboxBrowser {
  dovecot: Dovecot
  smtp: MailboxSmtpStandIn
  providerId: string
}

export async function startSendingMailboxBrowser(o: { mailbox: string; alias: string; account: string; messages: SeedMessage[] }): Promise<SendingMailboxBrowser> {
  const dovecot = await startDovecot()
  const password = dovecot.addUser(o.mailbox)
  dovecot.writeMessages(o.mailbox, o.messages)
  const smtp = await startMailboxSmtp(dovecot.certificates, 'tls')
  smtp.users.set(o.mailbox, password)
  const inbox = await startInboxBrowser(dovecot, { timezoneId: 'UTC' })
  // the delivery worker (in this process) trusts the test CA for users' SMTP and IMAP servers
  inbox.env.deps.mailboxCa = dovecot.ca
  const close = async () => {
    await inbox.close()
    await smtp.close()
    await dovecot.stop()
  }
  try {
    await registerThroughForm(inbox.page, inbox.server.url, inbox.env.mailbox, o.account)
    expect(await createAliasFromPage(inbox.page, o.alias)).toBe(201)
    const providerId = await connectMailbox(inbox.page, dovecot, o.mailbox, password)
    return { ...inbox, dovecot, smtp, providerId, close }
  } catch (error) {
    await close()
    throw error
  }
}
