// Queue `forward-operator`: mail to postmaster@ or abuse@ a mail domain (RFC 5321 §4.5.1,
// RFC 2142) reaches the operator (OPERATOR_EMAIL) as a short note with the message attached as
// it arrived (RFC 2046 §5.2.1 message/rfc822), so abuse reports keep their evidence and headers.
// The note is from the role address, signed for its domain; Reply-To is the reporter, so the
// operator answers them directly. The envelope sender is SRS: a bounce of the note is dropped.
import { domainOf } from '../../lib/mail-address.ts'
import { log } from '../../lib/log.ts'
import type { DeliveryDeps } from './delivery-deps.ts'
import { runOperatorDelivery, type SpoolContext } from './delivery-step.ts'
import type { DeliveryOutcome } from '../../db/delivery-finish.ts'
import { PermanentDeliveryError } from '../../lib/outbound-transport.ts'
import { queues, type Payload } from '../../db/queues.ts'
import { firstValue, joinMessage, makeField, splitMessage } from '../../lib/raw-message.ts'

export function operatorNote(ctx: SpoolContext, raw: Buffer, role: string, operator: string): Buffer {
  const { headers } = splitMessage(raw)
  const domain = domainOf(role)
  const boundary = `veilmail-${ctx.delivery.id}`
  const date = new Date().toUTCString().replace('GMT', '+0000')
  const { meta } = ctx
  // copied as they came (8-bit and encoded words intact), but a bare CR or LF must not start a field of its own
  const oneLine = (value: string | undefined) => value?.replace(/[\r\n]+/g, ' ')
  const subject = oneLine(firstValue(headers, 'subject'))
  const replyTo = oneLine(firstValue(headers, 'reply-to') ?? firstValue(headers, 'from'))
  const head = [
    makeField('From', `"Veilmail ${role.split('@')[0]}" <${role}>`),
    makeField('To', operator),
    ...(replyTo ? [{ key: 'reply-to', line: `Reply-To: ${replyTo}` }] : []),
    { key: 'subject', line: `Subject: [${role}] ${subject ?? '(no subject)'}` },
    makeField('Date', date),
    makeField('Message-ID', `<${ctx.delivery.id}@${domain}>`),
    makeField('Auto-Submitted', 'auto-forwarded'), // RFC 3834 §5: no vacation replies to this
    makeField('MIME-Version', '1.0'),
    makeField('Content-Type', `multipart/mixed; boundary="${boundary}"`),
  ]
  const note = [
    `Mail to ${role}, received ${meta.receivedAt} from [${meta.remoteAddress}] (HELO ${meta.helo || 'none'}, envelope sender <${meta.mailFrom}>).`,
    `SPF ${meta.auth.spf}, DKIM ${meta.auth.dkim}, DMARC ${meta.auth.dmarc}. The message is attached as it arrived.`,
  ].join('\r\n')
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${note}\r\n`
      + `--${boundary}\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment; filename="message.eml"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n`, 'latin1'),
    raw,
    Buffer.from(`${raw.subarray(-2).toString() === '\r\n' ? '' : '\r\n'}--${boundary}--\r\n`, 'latin1'),
  ])
  return joinMessage(head, body)
}

export function forwardOperatorHandler(deps: DeliveryDeps) {
  return async ({ deliveryId }: Payload<typeof queues.forwardOperator>) => {
    const outcome = await runOperatorDelivery(deps, deliveryId, async (ctx): Promise<DeliveryOutcome> => {
      const role = ctx.delivery.target
      const operator = deps.config.operatorEmail
      if (!role || !operator) return { status: 'failed', reason: 'operator-unset' }
      const domain = domainOf(role)
      const message = await deps.dkim.sign(operatorNote(ctx, await ctx.message.whole(), role, operator), domain)
      try {
        await deps.transport.send({ id: ctx.delivery.id, from: deps.srs.forward(ctx.meta.mailFrom, domain), to: operator, raw: message })
      } catch (error) {
        if (error instanceof PermanentDeliveryError) return { status: 'failed', reason: `smtp-${error.responseCode ?? 'rejected'}` }
        throw error
      }
      return { status: 'sent' }
    })
    log.info('delivery.finished', { queue: queues.forwardOperator.name, delivery: deliveryId, status: outcome?.status ?? 'already-done' })
  }
}
