// The recipients a server refused while it took a message for the others, and what a mail's status
// says of them. Apart from the transport (outbound-transport.ts) so that what reads or writes a
// status (the web process among them) loads no SMTP client.

/** A recipient the server refused while it took the message for the others (RCPT TO answered 4xx or 5xx). */
export interface RefusedRecipient {
  address: string
  /** the server's reply, cleaned for the sender's status view */
  reply: string
  /** its reply code: 4xx is worth another try later (send-email retries that recipient alone) */
  code?: number
}

/** A refusal that will not change by waiting: 5xx, or no code at all. */
export const refusedForGood = (r: RefusedRecipient) => !(r.code && r.code >= 400 && r.code < 500)

/** A server's reply as a status shows it: control characters (a CR/LF of a multi-line reply) as one space, trimmed, bounded. */
export const replyLine = (reply: string, max: number) => reply.replace(/[\x00-\x1f\x7f]+/g, ' ').trim().slice(0, max)

export type RejectedErrors = { rejectedErrors?: { recipient?: string; response?: string; responseCode?: number }[] }

/** nodemailer's sent-anyway report (its `rejectedErrors`, each with `recipient`, `response` and `responseCode`) as refused recipients. */
export function refusedRecipients(info: RejectedErrors | undefined): RefusedRecipient[] {
  return (info?.rejectedErrors ?? []).map((e) => ({
    address: e.recipient ?? '',
    reply: replyLine(e.response ?? '', 200),
    ...(typeof e.responseCode === 'number' ? { code: e.responseCode } : {}),
  }))
}

/** What a sent mail's status says of the recipients that refused it: each address with its server's reply. */
export function refusalNote(refused: readonly RefusedRecipient[]): string {
  return `Sent, but not delivered to ${missedList(refused)}`.slice(0, 1000)
}

/** What a mail's status says when no recipient took it, after they were tried one by one: each address with why. */
export const notDeliveredNote = (missed: readonly RefusedRecipient[]) => `Not delivered to ${missedList(missed)}`.slice(0, 1000)

/** Recipients a mail missed as a status lists them: "address (reply); …". */
export const missedList = (missed: readonly RefusedRecipient[]) => missed.map((r) => `${r.address} (${r.reply || 'refused'})`).join('; ')
