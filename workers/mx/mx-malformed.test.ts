// 200 malformed messages through the whole pipeline: each gets an SMTP answer, the processes
// stay up, and every one that was accepted is delivered or failed for good (never stuck). The
// owner has an age key, so the mailbox copies also go through encrypted forwarding.
import { generateX25519Identity, identityToRecipient } from 'age-encryption'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { RawSmtp } from '../../scripts/testing/raw-smtp.ts'

let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv({ concurrency: 4 })
})
afterAll(async () => {
  await env?.close()
})

function seeded(seed: number) {
  let x = seed || 1
  return () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) % 256)
}

function nested(depth: number): string {
  let body = 'Content-Type: text/plain\r\n\r\ninnermost\r\n'
  for (let i = depth; i > 0; i--) body = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}--b${i}--\r\n`
  return body
}

const malformed: ((i: number) => string)[] = [
  (i) => `From: a@outside.example\r\nSubject: truncated ${i}\r\nX-Half: this line stops he`,
  (i) => `From: a@outside.example\r\nSubject: deep ${i}\r\nMIME-Version: 1.0\r\n` + nested(40 + (i % 5) * 40),
  (i) => `From: a@outside.example\r\nSubject: b64 ${i}\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!@@@###$$$ not base64 ${i}\r\n===\r\n`,
  (i) => `From: a@outside.example\r\nSubject: charset ${i}\r\nContent-Type: text/html; charset=x-unknown-${i}\r\n\r\n\xe9\xe8\xff\xfe<b>bad</b>\r\n`,
  (i) => `From: a@outside.example\r\nSubject: bare\rCR ${i}\r\nX-Bare: one\rtwo\r\n\r\nline\rline\rline\r\n`,
  (i) => `From: a@outside.example\nSubject: bare LF ${i}\nContent-Type: text/plain\n\nbody\nwith\nbare\nLF\n`,
  (i) => `From: a@outside.example\r\nSubject: nul\x00 ${i}\r\n\r\nbody\x00with\x00nul\r\n`,
  (i) => `From: =?utf-8?B?####?= <a@outside.example>\r\nSubject: =?unknown-${i}?Q?=ZZ=?= =?utf-8?q?unterminated\r\nTo: =?x?B??=\r\n\r\nwords\r\n`,
  (i) => `From: a@outside.example\r\nSubject: no boundary ${i}\r\nContent-Type: multipart/mixed\r\n\r\n--\r\nContent-Type: text/plain\r\n\r\npart\r\n--\r\n`,
  (i) => `From: a@outside.example\r\nSubject: open ${i}\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQKJcfs`,
  (i) => `this line has no colon ${i}\r\nFrom: a@outside.example\r\n: empty name\r\nSubject: colonless\r\n\r\nx\r\n`,
  () => '',
  (i) => `\r\nno headers at all ${i}\r\n`,
  (i) => `From: a@outside.example\r\nSubject: long ${i}\r\nX-Long: ${'y'.repeat(50_000)}\r\n\r\nx\r\n`,
  (i) => { const r = seeded(i); return Buffer.from(Array.from({ length: 3000 }, r)).toString('latin1') },
  (i) => `From: a@outside.example\r\nSubject: many parts ${i}\r\nContent-Type: multipart/mixed; boundary=p\r\n\r\n` + '--p\r\nContent-Type: text/plain\r\n\r\nx\r\n'.repeat(500) + '--p--\r\n',
  (i) => `From: a@outside.example\r\nSubject: qp ${i}\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=ZZ=\r\n=\r\n=4\r\n`,
  (i) => `From: undisclosed-recipients:;\r\nTo: group: ${Array.from({ length: 150 }, (_, k) => `m${k}@outside.example`).join(', ')};\r\nSubject: groups ${i}\r\n\r\nx\r\n`,
  (i) => `From: a@outside.example\r\nFrom: b@outside.example\r\nMessage-ID: <1@x>\r\nMessage-ID: <2@x>\r\nSubject: dup ${i}\r\nDate: 99/99/9999 99:99\r\n\r\nx\r\n`,
  (i) => `From: a@outside.example\r\nSubject: huge line ${i}\r\nX-Huge: ${'z'.repeat(70_000)}\r\n\r\nx\r\n`,
  (i) => `From: a@outside.example\r\nSubject: rfc822 ${i}\r\nContent-Type: message/rfc822\r\n\r\nContent-Type: message/rfc822\r\n\r\nContent-Type: multipart/alternative; boundary=q\r\n\r\n--q\r\n`,
  (i) => `From: \xff\xfe\xc3\x28 <a@outside.example>\r\nSubject: \xe2\x82 broken utf-8 ${i}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\xc3\x28\xa0\xa1\r\n`,
]

it('answers 200 malformed messages and keeps running', async () => {
  const alias = await env.createAlias(`inbox@mailbox.example, ${env.webhooks.url}`)
  await env.db.sql`insert into encryption_keys (user_id, public_key, encrypted_private_key, key_name, is_default)
    values (${alias.userId}, ${await identityToRecipient(await generateX25519Identity())}, 'locked elsewhere', 'key', true)`
  const { client } = await RawSmtp.connect(env.mxPort)
  expect(await client.command('EHLO fuzzer.example')).toMatch(/^250/)
  const codes: string[] = []
  for (let i = 0; i < 200; i++) {
    expect(await client.command('MAIL FROM:<fuzz@outside.example>')).toMatch(/^250 /)
    expect(await client.command(`RCPT TO:<${alias.address}>`)).toMatch(/^250 /)
    const reply = await client.data(malformed[i % malformed.length](i))
    expect(reply).toMatch(/^[245]\d\d /)
    codes.push(reply.slice(0, 3))
  }
  expect(await client.command('NOOP')).toMatch(/^250 /)
  client.close()
  expect(codes.filter((c) => c === '250').length).toBeGreaterThan(150)
  expect(codes.filter((c) => c.startsWith('4'))).toEqual([])
  // Every accepted message reaches an end: delivered or failed for good, and the spool empties.
  await expect.poll(async () => (await env.db.sql`select count(*)::int as n from spool_messages`)[0].n, { timeout: 60_000, interval: 250 }).toBe(0)
  const mailbox = env.relay.messages.filter((m) => m.to.includes('inbox@mailbox.example'))
  expect(mailbox.length).toBeGreaterThan(150)
  for (const m of mailbox) expect(m.raw.toString('latin1')).toMatch(/\r\n-----BEGIN AGE ENCRYPTED FILE-----\r\n[\s\S]+\r\n-----END AGE ENCRYPTED FILE-----\r\n$/)
}, 90_000)
