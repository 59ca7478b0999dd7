// 1,000 replies in the shapes real mail clients write (time zones, threading ids from other
// mail, client-named MIME boundaries, Content-IDs with host names, QP / base64 / 8bit HTML),
// through the reply rewrite: none of the client's fingerprints comes out, and the message still
// reads the same (text, inline image reached from its cid: link, same instant).
import { randomUUID } from 'node:crypto'
import { simpleParser } from 'mailparser'
import { describe, expect, it } from 'vitest'
import { joinMessage, splitMessage, fieldValue } from '../../lib/raw-message.ts'
import { replyHeaders } from './reply-headers.ts'
import { scrubReplyMime } from './reply-mime.ts'

const CLIENTS = [
  (n: number) => `------------Thunderbird${n}LaptopOfRealUser`,
  (n: number) => `Apple-Mail=_${n}-REALUSER-MacBook-Pro`,
  (n: number) => `_000_${n}DB7PR03MB4971eurprd03prodoutlookcom_`,
  (n: number) => `----=_Part_${n}_RealUser.JavaMail.realuser@laptop`,
]
const FINGERPRINTS = /Thunderbird|Apple-Mail|REALUSER|RealUser|outlook|JavaMail|laptop|mailbox\.example|gmail|X-Attachment-Id|X-Mailer/i

function encodeHtml(html: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(html).toString('base64').replace(/.{76}/g, '$&\r\n')
  if (encoding === 'quoted-printable') return html.replace(/=/g, '=3D').replace(/.{70}/g, '$&=\r\n')
  return html
}

function clientReply(n: number): { raw: Buffer; instant: number; known: string; ours: string } {
  const boundary = CLIENTS[n % CLIENTS.length]
  const outer = boundary(n)
  const inner = boundary(n + 7)
  const cid = `image${n}.${n * 7}@laptop.mailbox.example`
  const encoding = ['base64', 'quoted-printable', '8bit'][n % 3]
  const offset = ((n * 37) % 26 - 12) * 60 + (n % 2 ? 30 : 0) // minutes, -12:00 … +13:30
  const sign = offset < 0 ? '-' : '+'
  const zone = `${sign}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}${String(Math.abs(offset) % 60).padStart(2, '0')}`
  const local = new Date(Date.UTC(2024, n % 12, 1 + (n % 28), 10, n % 60, n % 60))
  const instant = local.getTime() - offset * 60_000
  const date = `${local.toUTCString().slice(0, 25)} ${zone}`
  const known = `<thread-${n}@outside.example>`
  const ours = `<${randomUUID()}@veilmail.test>`
  const html = `<p>Reply ${n} caf\u00e9</p><img src="cid:${cid}">`
  const raw = [
    'From: real.user@mailbox.example', 'To: ada@outside.example', `Subject: Re: thread ${n}`, `Date: ${date}`,
    `In-Reply-To: ${known}`, `References: <old-${n}@mail.gmail.com> ${known} ${ours} <sent-${n}@mailbox.example>`,
    'X-Mailer: Real Mail on laptop', 'MIME-Version: 1.0', `Content-Type: multipart/related; boundary="${outer}"`, '',
    `This is a multi-part message in MIME format (${outer}).`,
    `--${outer}`, `Content-Type: multipart/alternative; boundary="${inner}"`, '',
    `--${inner}`, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', `Reply ${n} caf\u00e9`,
    `--${inner}`, 'Content-Type: text/html; charset=utf-8', `Content-Transfer-Encoding: ${encoding}`, '', encodeHtml(html, encoding),
    `--${inner}--`,
    `--${outer}`, 'Content-Type: image/png', `Content-ID: <${cid}>`, `X-Attachment-Id: ii_laptop_${n}`, 'Content-Transfer-Encoding: base64', '',
    Buffer.from(`PNG${n}`).toString('base64'),
    `--${outer}--`, '',
  ].join('\r\n')
  return { raw: Buffer.from(raw, 'utf8'), instant, known, ours }
}

describe('reply rewrite at volume', () => {
  it('leaves no client fingerprint in 1,000 client-shaped replies and keeps each readable', async () => {
    for (let n = 0; n < 1000; n++) {
      const reply = clientReply(n)
      const { headers, body } = splitMessage(reply.raw)
      const rewritten = replyHeaders({
        headers, spoolId: randomUUID(), aliasAddress: 'news@veilmail.test', aliasDomain: 'veilmail.test', mxHostname: 'mx.veilmail.test',
        receivedAt: new Date().toISOString(), owners: ['real.user@mailbox.example'], contacts: new Map(),
        recipient: { address: 'ada@outside.example', name: 'Ada' }, threadIds: new Set([reply.known]), mailDomains: ['veilmail.test', 'veil.test'],
      })
      const scrubbed = scrubReplyMime(rewritten, body)
      const out = joinMessage(scrubbed.headers, scrubbed.body)
      expect(out.toString('latin1'), `reply ${n}`).not.toMatch(FINGERPRINTS)
      const head = splitMessage(out).headers
      const value = (key: string) => head.filter((h) => h.key === key).map(fieldValue)
      expect(value('references'), `reply ${n}`).toEqual([`${reply.known} ${reply.ours}`])
      expect(value('in-reply-to')).toEqual([reply.known])
      expect(value('date')[0]).toMatch(/\+0000$/)
      expect(new Date(value('date')[0]).getTime(), `reply ${n}`).toBe(reply.instant)
      if (n % 50 === 0) {
        const parsed = await simpleParser(out)
        expect(parsed.text?.trim()).toBe(`Reply ${n} caf\u00e9`)
        expect(parsed.html).toContain(`src="data:image/png;base64,${Buffer.from(`PNG${n}`).toString('base64')}"`)
        expect(parsed.html).toContain(`Reply ${n} caf\u00e9`)
      }
    }
  }, 60_000)
})
