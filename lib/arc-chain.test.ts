// ARC sealing (RFC 8617) checked by two verifiers that are not ours: dkimpy (Debian python3-dkim,
// the reference implementation) and mailauth. Chains begin with a set dkimpy made for another
// forwarder, as mail that already went through one arrives.
import { generateKeyPairSync } from 'node:crypto'
import { authenticate } from 'mailauth'
import { describe, expect, it } from 'vitest'
import { dkimRecordFor, type DkimKey } from './dkim-keys.ts'
import { dkimpyArcSign, dkimpyArcVerify, dkimpyAvailable } from '../scripts/testing/dkimpy.ts'
import { fakeResolver } from '../scripts/testing/mail-stand-ins.ts'
import type { ArcFacts } from './arc-chain.ts'
import { DkimSigner } from './dkim-signer.ts'
import { fieldValue, joinMessage, makeField, splitMessage } from './raw-message.ts'

const newKey = (domain: string, selector: string): DkimKey => {
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
  return { domain, selector, privateKey: pem, dnsRecord: dkimRecordFor(pem) }
}
const service = newKey('veilmail.test', 'vm1')
const custom = newKey('custom.example', 'vm1')
const upstream = newKey('upstream.example', 'arc')
// the service domain first, as MAIL_DOMAINS lists it; a custom domain's key signs DKIM only
const signer = new DkimSigner(new Map([[service.domain, service], ['second.test', { ...newKey('second.test', 'vm1') }], [custom.domain, custom]]))
const records: Record<string, string> = Object.fromEntries([service, custom, upstream].map((k) => [`${k.selector}._domainkey.${k.domain}`, k.dnsRecord]))
const resolver = fakeResolver(Object.fromEntries(Object.entries(records).map(([name, txt]) => [`${name} TXT`, [[txt]]])))

const results = 'Authentication-Results: mx.veilmail.test;\r\n spf=pass smtp.mailfrom=ada@upstream.example;\r\n dkim=pass header.d=upstream.example; dmarc=pass header.from=upstream.example\r\n'
const facts = (verdict: string): ArcFacts => ({ authResults: `Received-SPF: pass\r\n${results}`, verdict })

const original = Buffer.from([
  'From: Ada <ada@upstream.example>', 'To: list@upstream.example', 'Subject: Engines', 'Date: Mon, 01 Jan 2024 10:00:00 +0000',
  'Message-ID: <engine@upstream.example>', 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', 'Body  line\r\n\r\n',
].join('\r\n'))

/** What a forwarder like us does before it seals: From rewritten, our trace and results on top. */
function forwarded(raw: Buffer): Buffer {
  const { headers, body } = splitMessage(raw)
  const rewritten = headers.map((h) => (h.key === 'from' ? makeField('From', '"Ada <ada@upstream.example> via Veilmail" <re+abc@veilmail.test>') : h))
  return joinMessage([makeField('Received', 'from upstream by mx.veilmail.test; Mon, 01 Jan 2024 10:00:01 +0000'), ...splitMessage(Buffer.from(results)).headers, ...rewritten], body)
}

/** An incoming message sealed once by another forwarder (i=1), the way dkimpy seals. */
const sealedUpstream = () => dkimpyArcSign(Buffer.from(`Authentication-Results: lists.upstream.example; spf=pass smtp.mailfrom=ada@upstream.example\r\n${original}`), {
  selector: upstream.selector, domain: upstream.domain, key: upstream.privateKey, srvId: 'lists.upstream.example',
})

const fieldsOf = (raw: Buffer, key: string) => splitMessage(raw).headers.filter((h) => h.key === key).map(fieldValue)
const mailauthArc = async (raw: Buffer) => ((await authenticate(raw, { ip: '192.0.2.1', helo: 'relay.example', sender: 'x@relay.example', mta: 'check.example', resolver })).arc || undefined)?.status.result

describe.skipIf(!dkimpyAvailable())('ARC sealing', () => {
  it('seals a message that arrived without ARC as i=1, cv=none, with the service domain, and both verifiers pass it', async () => {
    const sealed = await signer.sign(forwarded(original), custom.domain, new Date(), facts('none'))
    const [seal] = fieldsOf(sealed, 'arc-seal')
    expect(seal).toMatch(/^i=1; a=rsa-sha256; t=\d+; cv=none; d=veilmail\.test; s=vm1; b=/)
    expect(fieldsOf(sealed, 'arc-message-signature')[0]).toMatch(/^i=1; a=rsa-sha256; c=relaxed\/relaxed; d=veilmail\.test; s=vm1;/)
    // our Authentication-Results, under our instance
    expect(fieldsOf(sealed, 'arc-authentication-results')).toEqual([`i=1; mx.veilmail.test; spf=pass smtp.mailfrom=ada@upstream.example; dkim=pass header.d=upstream.example; dmarc=pass header.from=upstream.example`])
    // DKIM stays the alias domain's
    expect(fieldsOf(sealed, 'dkim-signature')[0]).toMatch(/d=custom\.example;/)
    expect(dkimpyArcVerify(sealed, records)).toMatchObject({ cv: 'pass', instances: [1] })
    expect(await mailauthArc(sealed)).toBe('pass')
  })

  it('adds i=2 with cv=pass over a chain that validated, and the chain still passes after our rewrite of From', async () => {
    const incoming = sealedUpstream()
    expect(dkimpyArcVerify(incoming, records).cv).toBe('pass')
    expect(await mailauthArc(incoming)).toBe('pass') // the verdict the MX records
    const ours = forwarded(incoming)
    // without our set, the rewrite breaks the upstream message signature
    expect(dkimpyArcVerify(ours, records).cv).toBe('fail')
    for (const sealed of [
      await signer.sign(ours, service.domain, new Date(), facts('pass')),
      await streamed(ours, facts('pass')),
    ]) {
      expect(fieldsOf(sealed, 'arc-seal').find((s) => s.startsWith('i=2'))).toMatch(/cv=pass;/)
      expect(dkimpyArcVerify(sealed, records)).toMatchObject({ cv: 'pass', instances: [2, 1] })
      expect(await mailauthArc(sealed)).toBe('pass')
    }
  })

  it('says cv=fail over a chain that did not validate, and a forged seal is not made good by ours', async () => {
    const forged = Buffer.from(sealedUpstream().toString('latin1').replace(/(ARC-Seal: [^]*?b=)([A-Za-z0-9+/])/, (_, head: string, c: string) => head + (c === 'A' ? 'B' : 'A')), 'latin1')
    expect(await mailauthArc(forged)).toBe('fail')
    const sealed = await signer.sign(forwarded(forged), service.domain, new Date(), facts('fail'))
    expect(fieldsOf(sealed, 'arc-seal').find((s) => s.startsWith('i=2'))).toMatch(/cv=fail;/)
    // (dkimpy gives no cv for a chain a seal says is failed: it is terminated)
    expect(dkimpyArcVerify(sealed, records)).toMatchObject({ cv: null, comment: 'ARC-Seal[2] reported failure, the chain is terminated' })
    expect(await mailauthArc(sealed)).toBe('fail')
    // a verdict of pass does not help a chain whose fields do not make sets (a second i=1 seal)
    const doubled = Buffer.from(`ARC-Seal: i=1; a=rsa-sha256; cv=none; d=upstream.example; s=arc; b=AAAA\r\n${sealedUpstream()}`)
    expect(fieldsOf(await signer.sign(forwarded(doubled), service.domain, new Date(), facts('pass')), 'arc-seal').find((s) => s.startsWith('i=2'))).toMatch(/cv=fail;/)
  })

  it('adds no set to a chain whose newest seal says cv=fail, or that has its 50 sets, and signs DKIM all the same', async () => {
    const failed = Buffer.from(`ARC-Seal: i=1; a=rsa-sha256; cv=fail; d=upstream.example; s=arc; b=AAAA\r\nARC-Message-Signature: i=1; a=rsa-sha256; d=upstream.example; s=arc; b=AAAA\r\nARC-Authentication-Results: i=1; upstream.example; none\r\n${original}`)
    const full = Buffer.concat([...Array.from({ length: 50 }, (_, i) => Buffer.from(`ARC-Seal: i=${i + 1}; cv=pass; b=A\r\nARC-Message-Signature: i=${i + 1}; b=A\r\nARC-Authentication-Results: i=${i + 1}; x; none\r\n`)), original])
    for (const raw of [failed, full]) {
      const sealed = await signer.sign(raw, service.domain, new Date(), facts('pass'))
      expect(fieldsOf(sealed, 'arc-seal')).toEqual(fieldsOf(raw, 'arc-seal'))
      expect(fieldsOf(sealed, 'dkim-signature')).toHaveLength(1)
    }
  })

  it('seals nothing unless asked (replies, sends and notes are not forwards)', async () => {
    expect(fieldsOf(await signer.sign(original, service.domain), 'arc-seal')).toEqual([])
  })
})

async function streamed(raw: Buffer, arc: ArcFacts): Promise<Buffer> {
  const { headers, body } = splitMessage(raw)
  const stream = await signer.signStreamed(headers, async function* () { yield body.subarray(0, 3); yield body.subarray(3) }, service.domain, new Date(), arc)
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
