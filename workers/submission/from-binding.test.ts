// Issue 25 item 6: the originator fields we sign (From, Sender, Resent-From, Resent-Sender) name
// only the authenticated alias, and no display name reads as another address once decoded and
// NFKC-normalised or carries control characters. Driven over real SMTP sessions, byte for byte
// (RawSmtp: nodemailer would rewrite a bare CR).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../scripts/testing/api-client.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { RawSmtp } from '../../scripts/testing/raw-smtp.ts'
import { createSubmissionServers, type SubmissionServers } from './submission-server.ts'

let env: MailEnv
let servers: SubmissionServers
let port: number
/** `a` submits with its credential; `b` is another user's alias. */
const senders = {} as Record<'a' | 'b', { address: string; password: string }>

beforeAll(async () => {
  env = await createMailEnv({ worker: false, env: { RATE_LIMITS: 'smtp-send-credential=1000/3600,recipients-hour=1000/3600,recipients-day=1000/86400' } })
  servers = createSubmissionServers({ sql: env.db.sql, boss: env.boss, config: env.config })
  port = (await servers.listen({ starttls: 0, tls: 0 }, '127.0.0.1')).starttls
  const tag = crypto.randomUUID().slice(0, 6)
  for (const key of ['a', 'b'] as const) {
    const api = new ApiClient(env.app())
    const { user } = await api.register()
    const alias = (await api.json(api.post(`/api/aliases/${user.id}`, { alias: `sender${key}-${tag}`, domain: 'veilmail.test', forwardTo: 'me@example.com' }))).body.alias
    const credential = (await api.json(api.post('/api/smtp-credentials', { aliasId: alias.id }))).body.credential
    senders[key] = { address: `sender${key}-${tag}@veilmail.test`, password: credential.password }
  }
}, 60_000)
afterAll(async () => {
  await servers?.close()
  await env?.close()
})

/** One message from alias A with `head` as the first header lines (a string is sent as UTF-8), over STARTTLS and AUTH PLAIN; the DATA reply. */
async function submit(head: string | Buffer): Promise<string> {
  const a = senders.a
  const { client } = await RawSmtp.connect(port)
  try {
    await client.command('EHLO client.example')
    expect(await client.startTls()).toMatch(/^220 /)
    await client.command('EHLO client.example')
    expect(await client.command(`AUTH PLAIN ${Buffer.from(`\0${a.address}\0${a.password}`).toString('base64')}`)).toMatch(/^235 /)
    expect(await client.command(`MAIL FROM:<${a.address}>`)).toMatch(/^250 /)
    expect(await client.command('RCPT TO:<friend@example.org>')).toMatch(/^250 /)
    const rest = Buffer.from(`\r\nTo: friend@example.org\r\nSubject: binding ${crypto.randomUUID()}\r\n\r\nbody\r\n`)
    return await client.data(Buffer.concat([typeof head === 'string' ? Buffer.from(head, 'utf8') : head, rest]))
  } finally {
    client.close()
  }
}

const b64 = (bytes: string | Buffer) => (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes).toString('base64')
const fullWidth = (text: string) => [...text].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('')
/** ISO-2022-JP bytes: ASCII, then ESC $ B (JIS X 0208) or ESC ( B (back to ASCII) where asked. */
const jis = (...parts: (string | 'jis' | 'ascii')[]) =>
  Buffer.concat(parts.map((p) => (p === 'jis' ? Buffer.from([0x1b, 0x24, 0x42]) : p === 'ascii' ? Buffer.from([0x1b, 0x28, 0x42]) : Buffer.from(p, 'latin1'))))

const RESENT = /^550 5\.7\.1 The Resent-(From|Sender) header (must be your alias address|must name exactly one mailbox|could not be read)/
const LOOK_ALIKE = /^550 5\.7\.1 The (From|Sender|Resent-From) (display name must not contain another address|header could not be read|header must be written in UTF-8)/
const CONTROL = /^550 5\.7\.1 The (From|Sender|Resent-From) (header|display name) must not contain control characters|^550 5\.7\.1 The From header could not be read/

describe('originator fields on the submission server (issue 25)', () => {
  it('refuses Resent-From and Resent-Sender naming anyone but the alias, another user\'s alias first', async () => {
    const a = senders.a.address
    const b = senders.b.address
    const hostile: [string, string][] = [
      ['Resent-From of another user', `From: ${a}\r\nResent-From: ${b}`],
      ['Resent-Sender of another user', `From: ${a}\r\nResent-Sender: ${b}`],
      ['own Resent-From, other Resent-Sender', `From: ${a}\r\nResent-From: ${a}\r\nResent-Sender: ${b}`],
      ['Resent-From listing both', `From: ${a}\r\nResent-From: ${a}, ${b}`],
      ['an older resent block of another user', `From: ${a}\r\nResent-From: ${a}\r\nResent-From: ${b}`],
      ['Resent-From with a display name', `From: ${a}\r\nResent-From: Alias A <${b}>`],
      ['upper-case field name', `From: ${a}\r\nRESENT-FROM: ${b}`],
      ['Resent-From with CFWS around @', `From: ${a}\r\nResent-From: ${b.replace('@', ' @ ')}`],
    ]
    const passed: string[] = []
    for (const [name, head] of hostile) {
      const reply = await submit(head)
      if (!RESENT.test(reply)) passed.push(`${name}: ${reply}`)
    }
    expect(passed).toEqual([])
  }, 120_000)

  it('refuses display names that read as another address: full-width and small @, encoded words, spaced', async () => {
    const a = senders.a.address
    const b = senders.b.address
    const [local, domain] = b.split('@')
    const hostile: [string, string | Buffer][] = [
      ['full-width @ (U+FF20)', `From: ${local}\uff20${domain} <${a}>`],
      ['full-width @, quoted', `From: "${local}\uff20${domain}" <${a}>`],
      ['small commercial at (U+FE6B)', `From: ${local}\ufe6b${domain} <${a}>`],
      ['all full-width', `From: ${fullWidth(b)} <${a}>`],
      ['encoded word (B) with full-width @', `From: =?UTF-8?B?${b64(`${local}\uff20${domain}`)}?= <${a}>`],
      ['encoded word (Q) with full-width @', `From: =?utf-8?Q?${local}=EF=BC=A0${domain}?= <${a}>`],
      ['encoded word with small @, quoted', `From: "=?UTF-8?B?${b64(`${local}\ufe6b${domain}`)}?=" <${a}>`],
      ['encoded word with the address', `From: =?UTF-8?B?${b64(b)}?= <${a}>`],
      ['plain address as display name', `From: ${b} <${a}>`],
      ['full-width @ split between two encoded words', `From: =?UTF-8?Q?${local}=EF=BC?= =?UTF-8?Q?=A0${domain}?= <${a}>`],
      ['ISO-2022-JP @ split between two encoded words', `From: =?ISO-2022-JP?B?${b64(jis(local, 'jis'))}?= =?ISO-2022-JP?B?${b64(jis('!w', 'ascii', domain))}?= <${a}>`],
      ['full-width @ in a comment', `From: <${a}> (${local}\uff20${domain})`],
      ['spaces around @', `From: "${local} @ ${domain}" <${a}>`],
      ['Sender with small @', `From: ${a}\r\nSender: "${local}\ufe6b${domain}" <${a}>`],
      ['Resent-From with full-width @', `From: ${a}\r\nResent-From: "${local}\uff20${domain}" <${a}>`],
      ['Shift_JIS @ (not UTF-8)', Buffer.from(`From: ${local}\x81\x97${domain} <${a}>`, 'latin1')],
    ]
    const passed: string[] = []
    for (const [name, head] of hostile) {
      const reply = await submit(head)
      if (!LOOK_ALIKE.test(reply)) passed.push(`${name}: ${reply}`)
    }
    expect(passed).toEqual([])
  }, 120_000)

  it('refuses bare CR, LF, NUL and other control characters in an originator field, raw or encoded', async () => {
    const a = senders.a.address
    const hostile: [string, string][] = [
      ['bare CR in a quoted display name', `From: "Alias A\rBank" <${a}>`],
      ['bare CR ending the display name', `From: "Alias A\r" <${a}>`],
      ['bare CR as a quoted pair', `From: "Alias A\\\rBank" <${a}>`],
      ['bare CR unquoted', `From: Alias\r <${a}>`],
      ['bare CR in a comment', `From: <${a}> (Alias\rBank)`],
      ['bare LF in a quoted display name', `From: "Alias A\nBank" <${a}>`],
      ['NUL in the display name', `From: "Alias A\0" <${a}>`],
      ['encoded CR LF', `From: =?UTF-8?Q?Alias_A=0D=0ABank?= <${a}>`],
      ['encoded NUL', `From: =?UTF-8?B?${b64('Alias\0A')}?= <${a}>`],
      ['NEL (U+0085)', `From: "Alias A\u0085Bank" <${a}>`],
      ['line separator (U+2028)', `From: "Alias A\u2028Bank" <${a}>`],
      ['bare CR in Sender', `From: ${a}\r\nSender: "Alias\rA" <${a}>`],
      ['bare CR in Resent-From', `From: ${a}\r\nResent-From: "Alias\rA" <${a}>`],
    ]
    const passed: string[] = []
    for (const [name, head] of hostile) {
      const reply = await submit(head)
      if (!CONTROL.test(reply)) passed.push(`${name}: ${JSON.stringify(reply)}`)
    }
    expect(passed).toEqual([])
  }, 120_000)

  it('takes honest names in any script, the alias as its own name, and a resent block of the alias', async () => {
    const a = senders.a.address
    const honest: (string | Buffer)[] = [
      `From: "Jörg Müller" <${a}>`,
      `From: =?utf-8?q?J=C3=B6rg?= <${a}>`,
      `From: =?ISO-2022-JP?B?${b64(jis('jis', '%F%9%H', 'ascii'))}?= <${a}>`, // テスト
      `From: ${fullWidth('Alias')} <${a}>`,
      `From: "Team @ Work" <${a}>`,
      `From: "Alias\tA" <${a}>`,
      `From: "${a}" <${a}>`,
      `From: "${a.replace('@', '\uff20')}" <${a}>`,
      `From: "Alias A"\r\n <${a}>`,
      `From: ${a}\r\nResent-From: ${a}\r\nResent-Sender: Alias A <${a}>`,
      `From: ${a}\r\nResent-From: Alias A <${a}>\r\nResent-From: ${a}`,
    ]
    for (const head of honest) {
      expect(await submit(head), head.toString()).toMatch(/^250 2\.0\.0 Queued as /)
    }
  }, 120_000)
})
