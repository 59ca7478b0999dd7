// The mail that carries an armored age block to an owner's mailbox: a short readable note, then
// the block, in one text/plain body (7bit: the armor is ASCII). An encrypted forward keeps only
// the header fields a mailbox needs to show, thread and answer it through reverse aliases, plus
// our trace and loop fields; a kept undelivered message sent again says only what it is.
import { makeField, splitMessage, type HeaderField } from '../../lib/raw-message.ts'

/** Fields of the forwarded message that stay outside the encryption (RFC 5322 §3.6). */
const KEPT = new Set(['from', 'reply-to', 'to', 'cc', 'date', 'subject', 'message-id', 'in-reply-to', 'references',
  'authentication-results', 'received-spf', 'x-veilmail-loop', 'arc-seal', 'arc-message-signature', 'arc-authentication-results',
  'list-unsubscribe', 'list-unsubscribe-post', 'x-veilmail-block-sender', 'x-spam-status', 'x-spam-score'])

const BODY_FIELDS = ['MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 7bit']

/** age1qyqszqgpqyqszq...qzk4ng: enough of the recipient to tell keys apart. */
export function shortRecipient(recipient: string): string {
  return `${recipient.slice(0, 16)}...${recipient.slice(-6)}`
}

function howToRead(publicUrl: string): string[] {
  return [
    `To read it, paste this message (or just the block) at ${publicUrl}/decrypt,`,
    'or save the block to a file and run: age -d -i your-identity-file block.txt > message.eml',
    'It decrypts to a readable copy of the message followed by the complete original',
    '(HTML and attachments), which a mail program opens when saved as a .eml file.',
  ]
}

function mailText(note: string[], armored: string): Buffer {
  const block = armored.trim().split(/\r?\n/)
  return Buffer.from([...note, '', ...block, ''].join('\r\n'), 'latin1')
}

function join(fields: string[], body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(fields.map((f) => f + '\r\n').join('') + '\r\n', 'latin1'), body])
}

export interface EncryptedForwardInput {
  /** the forwarded message as it would have left in the clear (headers rewritten) */
  forwarded: Buffer
  armored: string
  recipient: string
  publicUrl: string
  /** the Date to add when the message had none (RFC 5322 §3.6 requires one) */
  receivedAt: Date
}

/** An encrypted forward: our trace field, the kept header fields, the note and the block. */
export function encryptedForward(input: EncryptedForwardInput): Buffer {
  const headers = splitMessage(input.forwarded).headers
  // forwardHeaders puts our Received first; the upstream ones describe the sender's path
  const trace = headers.find((h) => h.key === 'received')
  const fields: HeaderField[] = [...(trace ? [trace] : []), ...headers.filter((h) => KEPT.has(h.key))]
  if (!fields.some((h) => h.key === 'date')) fields.push(makeField('Date', input.receivedAt.toUTCString().replace('GMT', '+0000')))
  const note = [
    `This message was encrypted by Veilmail with your age key ${shortRecipient(input.recipient)}`,
    'before it was forwarded to you. The sender, recipients, date and subject above are not',
    'encrypted; the text, HTML and attachments are in the block below.',
    '',
    ...howToRead(input.publicUrl),
    '',
    'You can turn this off for this alias in its details on your Veilmail dashboard.',
  ]
  return join([...fields.map((h) => h.line), ...BODY_FIELDS], mailText(note, input.armored))
}

export interface KeptCopyInput {
  id: string
  aliasAddress: string
  aliasDomain: string
  target: string
  armored: string
  /** the key the copy was encrypted to */
  recipient: string
  failedAt: Date
  publicUrl: string
}

/**
 * A kept undelivered message sent again: the server cannot read the copy, so nothing of the
 * original shows outside the block (subject, sender and all are inside it).
 */
export function keptCopyMail(input: KeptCopyInput): Buffer {
  const date = input.failedAt.toUTCString().replace('GMT', '+0000')
  const fields = [
    makeField('From', `"Veilmail undelivered mail" <${input.aliasAddress}>`).line,
    makeField('To', input.target).line,
    makeField('Subject', `Undelivered message for ${input.aliasAddress} (encrypted)`).line,
    makeField('Date', new Date().toUTCString().replace('GMT', '+0000')).line,
    makeField('Message-ID', `<undelivered-${input.id}@${input.aliasDomain}>`).line,
    ...BODY_FIELDS,
  ]
  const note = [
    `A message to ${input.aliasAddress} could not be delivered to you on ${date}.`,
    `Veilmail kept it encrypted with your age key ${shortRecipient(input.recipient)} and sent it`,
    'again when you asked. Its sender, subject, text, HTML and attachments are all in the block below.',
    '',
    ...howToRead(input.publicUrl),
  ]
  return join(fields, mailText(note, input.armored))
}
