// The JSON a webhook receives for one inbound message (documented in docs/webhooks.md), parsed
// with mailparser. Attachments larger than WEBHOOK_ATTACHMENT_MAX_BYTES carry metadata only.
import type { AddressObject } from 'mailparser'
import type { SpoolMeta } from '../mail/spool-codec.ts'
import { parseStoredMessage } from '../mail/stored-message-parser.ts'

interface PayloadAddress {
  address: string
  name: string
}

function addresses(value: AddressObject | AddressObject[] | undefined): PayloadAddress[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value]
  return list.flatMap((a) => a.value).flatMap(function flat(e): PayloadAddress[] {
    return e.group ? e.group.flatMap(flat) : e.address ? [{ address: e.address, name: e.name ?? '' }] : []
  })
}

export async function buildWebhookPayload(raw: Buffer, meta: SpoolMeta, aliasAddress: string, maxAttachmentBytes: number) {
  const mail = await parseStoredMessage(raw, { skipImageLinks: true, skipTextLinks: true, maxHtmlLengthToParse: 10 * 1024 * 1024 })
  return {
    type: 'email.received',
    timestamp: new Date().toISOString(),
    data: {
      alias: aliasAddress,
      envelope: { from: meta.mailFrom, to: [aliasAddress] },
      from: addresses(mail.from),
      to: addresses(mail.to),
      cc: addresses(mail.cc),
      replyTo: addresses(mail.replyTo),
      subject: mail.subject ?? '',
      date: mail.date ? mail.date.toISOString() : null,
      messageId: mail.messageId ?? null,
      text: mail.text ?? null,
      html: typeof mail.html === 'string' ? mail.html : null,
      attachments: mail.attachments.map((a) => ({
        filename: a.filename ?? null,
        contentType: a.contentType,
        size: a.size,
        contentId: a.contentId ?? null,
        content: a.size <= maxAttachmentBytes ? a.content.toString('base64') : null,
      })),
      authentication: { spf: meta.auth.spf, dkim: meta.auth.dkim, dmarc: meta.auth.dmarc, arc: meta.auth.arc },
      receivedAt: meta.receivedAt,
    },
  }
}
