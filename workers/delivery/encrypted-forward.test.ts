// Encrypted forwarding end to end: a message through the MX and the delivery worker reaches the
// relay stand-in as one armored age block, which Debian's `age` and our own code decrypt to the
// original; the alias's switch off (or no key) forwards it in the clear; webhooks stay plain.
import { generateX25519Identity, identityToRecipient } from 'age-encryption'
import { dkimVerify } from 'mailauth'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decryptArmored } from '../../shared/age-core.ts'
import { ageAvailable, ageDecrypt } from '../../scripts/testing/age-cli.ts'
import { createMailEnv, type MailEnv } from '../../scripts/testing/mail-env.ts'
import { waitFor } from '../../scripts/testing/mail-stand-ins.ts'
import { fieldValue, splitMessage } from '../../lib/raw-message.ts'

const cli = ageAvailable()
let env: MailEnv
beforeAll(async () => {
  env = await createMailEnv({ env: { PUBLIC_URL: 'https://veilmail.example' } })
})
afterAll(async () => {
  await env?.close()
})

const headerOf = (raw: Buffer, key: string) => splitMessage(raw).headers.filter((h) => h.key === key).map(fieldValue)
const relayedWith = (marker: string) => () => env.relay.messages.find((m) => m.raw.includes(marker))
const ARMOR = /-----BEGIN AGE ENCRYPTED FILE-----[\s\S]+?-----END AGE ENCRYPTED FILE-----/

/** An owner's age identity, stored as their default key (its locked private key plays no part here). */
async function giveKey(userId: string): Promise<{ identity: string; recipient: string }> {
  const identity = await generateX25519Identity()
  const recipient = await identityToRecipient(identity)
  await env.db.sql`insert into encryption_keys (user_id, public_key, encrypted_private_key, key_name, is_default)
    values (${userId}, ${recipient}, 'locked elsewhere', 'mail key', true)`
  return { identity, recipient }
}

/** The parts of our multipart/mixed payload (RFC 2046 §5.1.1), each split into header and body. */
function payloadParts(payload: string) {
  const boundary = /boundary="([^"]+)"/.exec(payload)![1]
  const sections = payload.split(`\r\n--${boundary}`)
  return sections.slice(1, -1).map((part) => splitMessage(Buffer.from(part.replace(/^\r\n/, ''), 'utf8')))
}

const PDF = Buffer.from('%PDF-1.4 engine plans\n%%EOF\n')
const original = (to: string, marker: string) => [
  'From: "Ada Lovelace" <ada@outside.example>', `To: ${to}`, `Subject: =?utf-8?q?Plans_for_the_engine_=E2=9C=93?=`,
  `Message-ID: <${marker}@outside.example>`, 'Date: Mon, 01 Jan 2024 10:00:00 +0000', 'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="outer"', '',
  '--outer', 'Content-Type: multipart/alternative; boundary="alt"', '',
  '--alt', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', `The secret plans, café ✓ ${marker}`, '',
  '--alt', 'Content-Type: text/html; charset=utf-8', '', `<p>The <b>secret</b> plans ${marker}</p>`, '',
  '--alt--', '',
  '--outer', 'Content-Type: application/pdf; name="plans.pdf"', 'Content-Disposition: attachment; filename="plans.pdf"',
  'Content-Transfer-Encoding: base64', '', PDF.toString('base64'), '',
  '--outer--', '',
].join('\r\n')

describe('encrypted forwarding', () => {
  it('forwards one armored age block that age and our code decrypt to the whole original', async () => {
    const alias = await env.createAlias(`reader@mailbox.example, ${env.webhooks.url}`)
    const key = await giveKey(alias.userId)
    await env.send({ envelopeFrom: 'ada@outside.example', to: alias.address, raw: original(alias.address, 'enc-1') })
    const relayed = await waitFor(env.relay, 'message', relayedWith('enc-1'))

    // minimal headers stay, rewritten as for any forward, and our DKIM signature covers them
    expect(headerOf(relayed.raw, 'from')[0]).toMatch(/^"Ada Lovelace <ada@outside\.example> via Veilmail" <re\+[a-z2-7]{32}@veilmail\.test>$/)
    expect(headerOf(relayed.raw, 'reply-to')[0]).toMatch(/^re\+[a-z2-7]{32}@veilmail\.test$/)
    expect(headerOf(relayed.raw, 'to')).toEqual([alias.address])
    expect(headerOf(relayed.raw, 'subject')).toEqual(['=?utf-8?q?Plans_for_the_engine_=E2=9C=93?='])
    expect(headerOf(relayed.raw, 'date')).toEqual(['Mon, 01 Jan 2024 10:00:00 +0000'])
    expect(headerOf(relayed.raw, 'message-id')).toEqual(['<enc-1@outside.example>'])
    expect(headerOf(relayed.raw, 'content-type')).toEqual(['text/plain; charset=utf-8'])
    expect(headerOf(relayed.raw, 'x-veilmail-loop')).toHaveLength(1)
    const verified = await dkimVerify(relayed.raw, { resolver: env.resolver })
    expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([['veilmail.test', 'pass']])

    // the body: a readable note above one block, and nothing of the content in the clear
    const body = splitMessage(relayed.raw).body.toString('latin1')
    expect(body).toMatch(/^This message was encrypted by Veilmail with your age key age1/)
    expect(body).toContain('https://veilmail.example/decrypt')
    expect(body.match(new RegExp(ARMOR.source, 'g'))).toHaveLength(1)
    expect(body).not.toContain('secret')
    expect(body).not.toContain(PDF.toString('base64'))

    // decrypted (the note may stay around the block, as when the whole message is pasted)
    const payload = await decryptArmored(body, key.identity)
    if (cli) expect(await ageDecrypt(ARMOR.exec(body)![0], key.identity)).toBe(payload)
    const [readable, attached] = payloadParts(payload)
    const text = readable.body.toString('utf8')
    expect(text).toContain('From: "Ada Lovelace" <ada@outside.example>')
    expect(text).toContain('Subject: Plans for the engine ✓')
    expect(text).toContain('plans.pdf (application/pdf')
    expect(text).toContain(`The secret plans, café ✓ enc-1`)
    expect(headerOf(attached.body, 'from')[0]).toMatch(/via Veilmail" <re\+/) // replying to the original stays anonymous
    const inner = await simpleParser(attached.body)
    expect(inner.html).toContain('<p>The <b>secret</b> plans enc-1</p>')
    expect(inner.attachments.map((a) => [a.filename, a.content.equals(PDF)])).toEqual([['plans.pdf', true]])

    // webhook targets are not encrypted
    const hook = await waitFor(env.webhooks, 'request', () => env.webhooks.requests.find((r) => r.body.includes('enc-1')))
    expect(JSON.parse(hook.body).data.text).toContain('The secret plans')
  })

  it('turns an HTML-only message into readable text inside the block', async () => {
    const alias = await env.createAlias('html@mailbox.example')
    const key = await giveKey(alias.userId)
    const raw = `From: news@outside.example\r\nTo: ${alias.address}\r\nSubject: Weekly\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><h1>Weekly enc-2</h1><ul><li>first item</li></ul></body></html>\r\n`
    await env.send({ to: alias.address, raw })
    const relayed = await waitFor(env.relay, 'message', relayedWith('Weekly'))
    const [readable] = payloadParts(await decryptArmored(splitMessage(relayed.raw).body.toString('latin1'), key.identity))
    const text = readable.body.toString('utf8')
    expect(text).toMatch(/WEEKLY ENC-2|Weekly enc-2/)
    expect(text).toContain('* first item')
    expect(text).not.toContain('<h1>')
  })

  it('forwards in the clear when the alias switch is off or the owner has no key', async () => {
    const off = await env.createAlias('plain@mailbox.example')
    await giveKey(off.userId)
    await env.db.sql`update aliases set encrypt_forwarded = false where id = ${off.id}`
    const keyless = await env.createAlias('keyless@mailbox.example')
    await env.send({ to: off.address, subject: 'clear-1', text: 'Plain text stays plain clear-1' })
    await env.send({ to: keyless.address, subject: 'clear-2', text: 'Plain text stays plain clear-2' })
    for (const marker of ['clear-1', 'clear-2']) {
      const relayed = await waitFor(env.relay, 'message', relayedWith(`plain ${marker}`))
      expect(relayed.raw.toString('latin1')).not.toMatch(ARMOR)
      expect(headerOf(relayed.raw, 'subject')).toEqual([marker])
    }
  })
})
