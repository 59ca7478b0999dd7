// A mailbox as people have them, for the inbox speed test and benchmark: a few hundred messages
// over ten days, newest last, most of them on their own (plain text, or HTML with a text part,
// as newsletters send them) and some in conversations of three (a question and two replies,
// joined by In-Reply-To and References).
import type { SeedMessage } from './dovecot.ts'

const CRLF = '\r\n'
const SENDERS = ['Alice Liddell <alice@wonder.example>', 'Bob Stone <bob@quarry.example>', 'Carol Danvers <carol@sky.example>',
  'News Desk <news@desk.example>', 'Shop <deals@shop.example>', 'Dana Scully <dana@bureau.example>', 'Erin Hale <erin@hale.example>']
const WORDS = ['quarterly', 'figures', 'meeting', 'lunch', 'privacy', 'budget', 'travel', 'release', 'review', 'garden', 'invoice', 'schedule']

export interface RealisticInbox {
  messages: SeedMessage[]
  /** subjects of single messages, newest first */
  singles: string[]
  /** subjects of conversations (as their newest message reads), newest first */
  conversations: string[]
}

function text(seed: number, words: number): string {
  let out = ''
  for (let i = 0; i < words; i++) out += WORDS[(seed * 7 + i * 5) % WORDS.length] + (i % 14 === 13 ? `.${CRLF}` : ' ')
  return out
}

/** `total` messages for `to`; every `threadEvery`-th slot starts a conversation of three. */
export function realisticInbox(to: string, total = 300, threadEvery = 12): RealisticInbox {
  const start = Date.UTC(2026, 10, 10, 8, 0)
  const messages: SeedMessage[] = []
  const singles: string[] = []
  const conversations: string[] = []
  const mail = (i: number, o: { subject: string; id: string; from: string; body: string; html?: boolean; headers?: string[] }) => {
    const date = new Date(start + i * 47 * 60_000)
    const head = [`From: ${o.from}`, `To: ${to}`, `Subject: ${o.subject}`, `Date: ${date.toUTCString()}`, `Message-ID: <${o.id}@inbox.example>`, 'MIME-Version: 1.0', ...(o.headers ?? [])]
    const b = `alt-${o.id}`
    const body = o.html
      ? [`Content-Type: multipart/alternative; boundary="${b}"`, '', `--${b}`, 'Content-Type: text/plain; charset=utf-8', '', o.body,
        `--${b}`, 'Content-Type: text/html; charset=utf-8', '', `<html><body><h1>${o.subject}</h1><p>${o.body}</p><p><a href="https://shop.example/">Shop</a></p></body></html>`, `--${b}--`]
      : ['Content-Type: text/plain; charset=utf-8', '', o.body]
    // older ones read, the newest tenth unread
    messages.push({ raw: [...head, ...body, ''].join(CRLF), date, flags: i < total * 0.9 ? 'S' : '' })
  }
  for (let i = 0; i < total;) {
    const from = SENDERS[i % SENDERS.length]
    if (i % threadEvery === 0 && i + 3 <= total) {
      const topic = `Plans for ${WORDS[i % WORDS.length]} ${i}`
      const ids = [0, 1, 2].map((n) => `thread-${i}-${n}`)
      mail(i, { subject: topic, id: ids[0], from, body: `Shall we talk about the ${topic}?${CRLF}${text(i, 60)}` })
      mail(i + 1, { subject: `Re: ${topic}`, id: ids[1], from: SENDERS[(i + 1) % SENDERS.length], body: `Yes, gladly.${CRLF}${text(i + 1, 40)}`, headers: [`In-Reply-To: <${ids[0]}@inbox.example>`, `References: <${ids[0]}@inbox.example>`] })
      mail(i + 2, { subject: `Re: ${topic}`, id: ids[2], from, body: `Then it is settled.${CRLF}${text(i + 2, 30)}`, headers: [`In-Reply-To: <${ids[1]}@inbox.example>`, `References: <${ids[0]}@inbox.example> <${ids[1]}@inbox.example>`] })
      conversations.unshift(`Re: ${topic}`)
      i += 3
    } else {
      const subject = i % 3 === 0 ? `Weekly digest ${i}` : `Note ${i} on ${WORDS[(i * 3) % WORDS.length]}`
      mail(i, { subject, id: `single-${i}`, from, body: text(i, 80 + (i % 5) * 40), html: i % 3 === 0 })
      singles.unshift(subject)
      i++
    }
  }
  return { messages, singles, conversations }
}
