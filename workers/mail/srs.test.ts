import { describe, expect, it } from 'vitest'
import { parseEnvelopeAddress } from '../../lib/mail-address.ts'
import { Srs } from './srs.ts'

const srs = new Srs('test-secret-key-that-is-long-enough-0123456789')
const day = 86_400_000

describe('SRS', () => {
  it('rewrites a sender onto the alias domain and recognises its own addresses', () => {
    const rewritten = srs.forward('Ada.L@Outside.example', 'veilmail.test')
    expect(rewritten).toMatch(/^SRS0=[a-z2-7]{8}=[a-z2-7]{2}=Outside\.example=Ada\.L@veilmail\.test$/)
    const local = parseEnvelopeAddress(rewritten)!.localPart
    expect(srs.verify(local)).toBe(true)
    expect(srs.verify(local.toLowerCase())).toBe(true)
  })

  it('keeps the null sender null', () => {
    expect(srs.forward('', 'veilmail.test')).toBe('')
  })

  it('refuses forged, altered, foreign-keyed and expired addresses', () => {
    const now = Date.now()
    const local = srs.forward('a@outside.example', 'veilmail.test', now).split('@')[0]
    expect(srs.verify(local.replace('=outside.example=', '=other.example='))).toBe(false)
    expect(srs.verify(local.replace(/^SRS0=[a-z2-7]{8}/, 'SRS0=aaaaaaaa'))).toBe(false)
    expect(new Srs('another-secret-key-that-is-long-enough-012345').verify(local)).toBe(false)
    expect(srs.verify(local, now + 20 * day)).toBe(true)
    expect(srs.verify(local, now + 30 * day)).toBe(false)
    expect(srs.verify('SRS0=nonsense')).toBe(false)
  })

  it('carries a bounce tag for the forward\'s (alias, target) under the hash; addresses without one still verify', () => {
    const aliasId = crypto.randomUUID()
    const tag = srs.bounceTag(aliasId, 'Me@Mailbox.example')
    expect(tag).toMatch(/^[a-z2-7]{10}$/)
    expect(srs.bounceTag(aliasId, 'me@mailbox.example')).toBe(tag)
    expect(srs.bounceTag(aliasId, 'other@mailbox.example')).not.toBe(tag)
    expect(srs.bounceTag(crypto.randomUUID(), 'me@mailbox.example')).not.toBe(tag)
    const local = srs.forward('a@outside.example', 'veilmail.test', Date.now(), tag).split('@')[0]
    expect(srs.parse(local)).toEqual({ tag })
    expect(srs.parse(local.toUpperCase())).toEqual({ tag })
    // another tag under the same hash, or the tag cut off, does not verify
    const other = srs.bounceTag(crypto.randomUUID(), 'me@mailbox.example')
    expect(srs.parse(local.replace(tag, other))).toBeUndefined()
    expect(srs.parse(local.replace(tag, ''))).toBeUndefined()
    expect(srs.parse(srs.forward('a@outside.example', 'veilmail.test').split('@')[0])).toEqual({ tag: '' })
  })

  it("names its subject's id range (the id's first 25 bits), and a test mail's tag differs from an alias's", () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', '0000007f-ffff-4fff-bfff-ffffffffffff', 'ffffff80-0000-4000-8000-000000000000', 'ffffffff-ffff-4fff-bfff-ffffffffffff', ...Array.from({ length: 50 }, () => crypto.randomUUID())]) {
      const { from, to } = Srs.tagIdRange(srs.bounceTag(id, 'me@mailbox.example'))
      expect(from <= id && id <= to, `${id} in ${from}..${to}`).toBe(true)
    }
    expect(Srs.tagIdRange(srs.bounceTag('0000007f-ffff-4fff-bfff-ffffffffffff', 'x@y.example'))).toEqual({ from: '00000000-0000-0000-0000-000000000000', to: '0000007f-ffff-ffff-ffff-ffffffffffff' })
    expect(Srs.tagIdRange(srs.bounceTag('00000080-0000-4000-8000-000000000000', 'x@y.example')).from).toBe('00000080-0000-0000-0000-000000000000')
    const id = crypto.randomUUID()
    expect(srs.bounceTag(id, 'me@mailbox.example', 'test')).not.toBe(srs.bounceTag(id, 'me@mailbox.example'))
    expect(srs.bounceTag(id, 'me@mailbox.example', 'test').slice(0, 5)).toBe(srs.bounceTag(id, 'me@mailbox.example').slice(0, 5))
  })
})
