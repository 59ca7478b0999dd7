// send-email for a mail sent as a connected mailbox (email_jobs.provider_id): through that
// account's own SMTP server (mailbox-smtp.ts) as its address, not signed by us (its provider signs
// its own mail), then a copy in its Sent folder (sent-copy.ts). Same claim, undo window, retries
// and status as every send (send-email.ts); a refused login fails the job at once with a sentence
// the compose page shows, and the account is left as it is (its IMAP sync is not the SMTP server's).
// A retry to recipients the server deferred (deferred-recipients.ts) goes to them alone and makes
// no second Sent copy.
import type { ClaimedEmailJob } from '../../db/email-jobs.ts'
import { markEmailJobFailed, markEmailJobRetrying } from '../../db/email-jobs.ts'
import { getProviderForSync, type ProviderForSync } from '../../db/email-providers.ts'
import { currentCredentials } from '../../db/mailbox-login.ts'
import type { WorkContext } from '../../db/queues.ts'
import { openEmailJobContent } from '../../lib/email-job-content.ts'
import { ImapConnectError } from '../../lib/imap-connect.ts'
import { log } from '../../lib/log.ts'
import { isOAuth, openSmtpLogin } from '../../lib/mailbox-credentials.ts'
import { smtpServerOf } from '../../shared/mailbox-smtp-schemas.ts'
import { firstValue, splitMessage } from '../../lib/raw-message.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { envelopeOf, everyoneMissed, missedByFailure, partlySent, refusalsOf, settledBefore, type Refusal } from './deferred-recipients.ts'
import { MailboxSendError, sendThroughMailbox, type SmtpAuth } from './mailbox-smtp.ts'
import { appendSentCopy, serverKeepsSentCopy } from './sent-copy.ts'

/**
 * The Message-ID it left with and the recipients it missed (refused by the server while it took
 * the others; or, for a mail some already have, every one of this attempt when it failed), or
 * undefined when the job ended (failed, recorded) without sending. Throws to retry.
 */
export async function sendAsMailbox(deps: DeliveryDeps, job: ClaimedEmailJob, ctx: WorkContext): Promise<{ messageId: string; missed: Refusal[] } | undefined> {
  const { sql, config } = deps
  const provider = job.providerId ? await getProviderForSync(sql, job.providerId) : undefined
  if (!provider || !job.content) return fail(deps, job, 'The sending mailbox was removed')
  const server = smtpServerOf(provider)
  if (!server) return fail(deps, job, `Sending as ${provider.email} is not set up: add its SMTP server in Inbox settings.`)
  const content = openEmailJobContent(config.secretKey, job.id, job.content)
  if (content.kind !== 'raw') return fail(deps, job, 'This mail was queued by an older version and cannot be sent as the mailbox')
  const raw = Buffer.from(content.raw, 'base64')
  const messageId = firstValue(splitMessage(raw).headers, 'message-id') ?? `<${job.id}@${provider.email.split('@').pop()}>`
  const loginDeps = { sql, config, imapCa: deps.mailboxCa }
  const envelope = envelopeOf(job)
  let missed: Refusal[]
  try {
    const auth = await smtpAuth(loginDeps, provider)
    missed = refusalsOf(await sendThroughMailbox(server, auth, { from: provider.email, to: envelope, raw }, { allowPrivate: config.allowPrivateNetworks, timeoutMs: config.sync.imapTimeoutMs, ca: deps.mailboxCa }))
  } catch (error) {
    const failure = error instanceof MailboxSendError ? error
      : error instanceof ImapConnectError ? new MailboxSendError(error.message, error.credentialsRefused)
        : new MailboxSendError('Sending failed on our side. It will be tried again.', false)
    log.warn('send_email.mailbox_failed', { job: job.id, provider: provider.id, permanent: failure.permanent, attempt: ctx.retryCount })
    const settled = missedByFailure(job, failure.refused, failure.message, failure.permanent)
    if (settled) return { messageId, missed: settled }
    if (failure.permanent || ctx.retryCount >= job.maxRetries) return fail(deps, job, failure.message)
    await markEmailJobRetrying(sql, job.id, failure.message)
    throw failure
  }
  // the copy once, when the mail first leaves, not again for a retry to recipients deferred
  if (!partlySent(job) && missed.length < envelope.length && !serverKeepsSentCopy(provider)) {
    try {
      await appendSentCopy(loginDeps, provider, raw)
    } catch (error) {
      // the mail has left: the missing copy is logged, never a reason to send it again
      log.warn('send_email.sent_copy_failed', { job: job.id, provider: provider.id, error: (error as Error)?.name })
    }
  }
  return { messageId, missed }
}

/** Its own SMTP login, else its IMAP one (an Outlook account's token renewed first when it runs out soon). */
async function smtpAuth(deps: Parameters<typeof currentCredentials>[0], provider: ProviderForSync): Promise<SmtpAuth> {
  if (provider.smtpCredentials) {
    const own = openSmtpLogin(deps.config, provider.id, provider.smtpCredentials)
    return { user: own.user, pass: own.password }
  }
  const creds = await currentCredentials(deps, provider)
  return isOAuth(creds) ? { user: creds.email, accessToken: creds.accessToken } : { user: creds.email, pass: creds.password }
}

/**
 * Failed; a mail settled per recipient before is settled so again (send-email names the pending ones
 * with `reason` beside those refused for good): sent when some recipients already have it.
 */
async function fail(deps: DeliveryDeps, job: ClaimedEmailJob, reason: string): Promise<{ messageId: string; missed: Refusal[] } | undefined> {
  if (settledBefore(job)) return { messageId: job.messageId ?? '', missed: everyoneMissed(job, reason, false) }
  await markEmailJobFailed(deps.sql, job.id, reason)
  return undefined
}
