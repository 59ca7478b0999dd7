// The mailto of a forward's List-Unsubscribe (RFC 2369 §3.2): `unsubscribe+<token>@<mail domain>`.
// The token is acted on when the MX accepts the address at RCPT (db/link-action.ts: checked, spent
// once, the alias paused or the sender blocked), and the message, whatever it says, is discarded.
// A forged or unknown token is an unknown mailbox; an expired or spent one is refused saying so.
import type { Sql } from '../../db/client.ts'
import { useLinkToken } from '../../db/link-action.ts'
import type { Recipient } from './mx-recipients.ts'
import { replies, SmtpReply } from './smtp-reply.ts'

/** The token of an unsubscribe address's local part, if it is one. */
export function unsubscribeToken(localPart: string): string | undefined {
  return /^unsubscribe\+([a-z2-7]{50})$/i.exec(localPart)?.[1]?.toLowerCase()
}

export async function unsubscribeByMail(sql: Sql, secretKey: string, token: string): Promise<Recipient> {
  const result = await useLinkToken(sql, secretKey, token, 'mailto')
  if (result === 'expired') throw new SmtpReply(550, '5.7.1 This unsubscribe address has expired')
  if (result === 'used') throw new SmtpReply(550, '5.7.1 This unsubscribe address was used already')
  if (typeof result === 'string') throw replies.unknownMailbox()
  return { kind: 'link' }
}
