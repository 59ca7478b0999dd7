import { createHash, generateKeyPairSync } from 'node:crypto'
import { dkimVerify } from 'mailauth'
import { describe, expect, it } from 'vitest'
import { fakeResolver } from '../scripts/testing/mail-stand-ins.ts'
import { dkimRecordFor, type DkimKey } from './dkim-keys.ts'
import { DkimSigner, RelaxedBodyHash } from './dkim-signer.ts'
import { splitMessage } from './raw-message.ts'
import { seededRandom } from '../scripts/testing/seeded-random.ts'

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
const key: DkimKey = { domain: 'veilmail.test', selector: 'vm1', privateKey: pem, dnsRecord: dkimRecordFor(pem) }
const signer = new DkimSigner(new Map([[key.domain, key]]))
const resolver = fakeResolver({ 'vm1._domainkey.veilmail.test TXT': [[key.dnsRecord]] })

async function verify(raw: Buffer) {
  const { results } = await dkimVerify(raw, { resolver })
  return results.map((r) => [r.signingDomain, r.status.result, r.status.comment ?? ''])
}

const head = 'From: Alias <me@veilmail.test>\r\nTo: you@example.org\r\nSubject: Hello\r\nDate: Sat, 21 Nov 2026 10:00:00 +0000\r\nMessage-ID: <1@veilmail.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'

describe('DKIM signing', () => {
  it('signs relaxed/relaxed rsa-sha256 that mailauth verifies', async () => {
    const more = 'Reply-To: r@veilmail.test\r\nCc: c@example.org\r\nContent-Transfer-Encoding: 7bit\r\nX-Not-Signed: 1\r\n'
    const signed = await signer.sign(Buffer.from(more + head + 'Hi there\r\n'), 'veilmail.test')
    expect(await verify(signed)).toEqual([['veilmail.test', 'pass', '']])
    const field = signed.toString().split(/\r\n(?![ \t])/)[0]
    expect(field).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=veilmail\.test; s=vm1;/)
    expect(field.replace(/\r\n /g, '')).toMatch(/h=from:reply-to:to:cc:subject:date:message-id:mime-version:content-type:content-transfer-encoding;/)
    expect(field.split('\r\n').every((line) => line.length <= 78)).toBe(true)
  })

  it('survives what relays may do to whitespace, and fails when content changes', async () => {
    const signed = (await signer.sign(Buffer.from(head + 'Line  with \t spaces   \r\n\r\ntrailing\r\n\r\n\r\n'), 'veilmail.test')).toString()
    const respaced = signed.replace('Subject: Hello', 'Subject:   Hello  ').replace('Line  with', 'Line with').replace(/\r\n\r\n\r\n$/, '\r\n')
    expect(await verify(Buffer.from(respaced))).toEqual([['veilmail.test', 'pass', '']])
    expect((await verify(Buffer.from(signed.replace('Subject: Hello', 'Subject: Hallo'))))[0][1]).toBe('fail')
    expect((await verify(Buffer.from(signed.replace('trailing', 'trailinG'))))[0][1]).toBe('neutral') // body hash mismatch
  })

  it('handles folded and repeated fields, bare LF, 8-bit bytes, blank and empty bodies, large bodies', async () => {
    const folded = 'From: me@veilmail.test\r\nTo: a@example.org,\r\n\tb@example.org\r\nReferences: <a@x>\r\nReferences: <b@x>\r\nSubject: =?utf-8?Q?h=C3=A9?=\r\n\r\n'
    for (const raw of [
      Buffer.from(folded + 'body\r\n'),
      Buffer.from((head + 'bare\nLF\n').replace(/\r\n/g, '\n')),
      Buffer.concat([Buffer.from(head), Buffer.from([0xc3, 0xa9, 0x0d, 0x0a])]),
      Buffer.from(head),
      Buffer.from(head + '\r\n\r\n'),
      Buffer.from(head + 'a \t\r\n \r\n\r\nb\r\n  \r\n\t\r\n'),
      Buffer.from(head + 'no final line break'),
      Buffer.from(head + ('line of a large body\r\n'.repeat(40_000))),
    ]) {
      const signed = await signer.sign(raw, 'veilmail.test')
      // a relay sends CRLF lines: verify what the receiver gets
      expect(await verify(Buffer.from(signed.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1'))).toEqual([['veilmail.test', 'pass', '']])
    }
    const twice = (await signer.sign(Buffer.from(folded + 'x\r\n'), 'veilmail.test')).toString()
    expect(twice).toMatch(/h=from:to:subject:references:references;/)
  })

  it('refuses a domain it has no key for', async () => {
    await expect(signer.sign(Buffer.from(head), 'other.test')).rejects.toThrow('no DKIM key')
  })
})

describe('streamed DKIM signing', () => {
  it('hashes a body fed in pieces cut anywhere (inside CRLF, inside blank-line runs) as the whole', async () => {
    const body = Buffer.from('a  b \t\r\n\r\n\r\nline\r\n  \r\nbare LF\nlast\r\n\r\n\r\n'.repeat(50) + 'no final break', 'latin1')
    const whole = new RelaxedBodyHash().update(body).digest()
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const hash = new RelaxedBodyHash()
      for (let at = 0; at < body.length; at += size) hash.update(body.subarray(at, at + size))
      expect(hash.digest()).toBe(whole)
    }
  })

  it('hashes clean and unclean bodies, whole or in pieces, as RFC 6376 §3.4.4 reads them line by line', async () => {
    /** The relaxed body as the RFC words it, on the whole body at once. */
    const reference = (body: string) => {
      const lines = body.split(/\r?\n/).map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''))
      while (lines.length && lines[lines.length - 1] === '') lines.pop()
      return createHash('sha256').update(lines.map((l) => l + '\r\n').join(''), 'latin1').digest('base64')
    }
    const lines = ['plain text line', '', 'ends in a space ', 'two  spaces', 'a\ttab', '.dot', 'caf\xe9 8-bit', ' leading space', 'x']
    const next = seededRandom(7)
    const random = (n: number) => Math.floor(next() * n)
    for (let round = 0; round < 200; round++) {
      // mostly clean bodies (the fast path), some with a line that is not, some with bare LFs
      const pool = round % 3 === 0 ? lines : [lines[0], lines[1], lines[5], lines[6], lines[8]]
      const parts = Array.from({ length: random(40) }, () => pool[random(pool.length)])
      const body = parts.map((l) => l + (round % 5 === 0 && random(4) === 0 ? '\n' : '\r\n')).join('') + '\r\n'.repeat(random(3)) + (round % 7 === 0 ? 'no final break' : '')
      const bytes = Buffer.from(body, 'latin1')
      expect(new RelaxedBodyHash().update(bytes).digest()).toBe(reference(body))
      const hash = new RelaxedBodyHash()
      const size = 1 + random(50)
      for (let at = 0; at < bytes.length; at += size) hash.update(bytes.subarray(at, at + size))
      expect(hash.digest()).toBe(reference(body))
    }
  })

  it('signs a streamed message as mailauth verifies it, reading the body twice', async () => {
    const { headers, body } = splitMessage(Buffer.from(head + 'Hi there\r\n'.repeat(10_000)))
    let reads = 0
    const pieces = async function* () {
      reads++
      for (let at = 0; at < body.length; at += 4096) yield body.subarray(at, at + 4096)
    }
    const stream = await signer.signStreamed(headers, pieces, 'veilmail.test')
    const parts: Buffer[] = []
    for await (const part of stream) parts.push(part as Buffer)
    expect(reads).toBe(2)
    expect(await verify(Buffer.concat(parts))).toEqual([['veilmail.test', 'pass', '']])
  })

  it('streams a message of one piece as one piece, the header with the body', async () => {
    const { headers, body } = splitMessage(Buffer.from(head + 'Hi there\r\n'.repeat(1000)))
    const stream = await signer.signStreamed(headers, async function* () { yield body }, 'veilmail.test')
    const parts: Buffer[] = []
    for await (const part of stream) parts.push(part as Buffer)
    expect(parts).toHaveLength(1)
    expect(parts[0].subarray(parts[0].length - body.length)).toEqual(body)
    expect(await verify(parts[0])).toEqual([['veilmail.test', 'pass', '']])
  })
})
