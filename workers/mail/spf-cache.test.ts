// The authentication check with SPF results remembered across messages (spf-cache.ts): a second
// message with the same envelope evaluates no policy and asks no DNS for it, anything else does,
// a result lives no longer than the DNS answers it was made of, and what comes out is what
// mailauth's authenticate() makes of the same message.
import { generateKeyPairSync } from 'node:crypto'
import { authenticate, dkimSign } from 'mailauth'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createDnsResolver, type CachingResolver } from '../../lib/dns-resolver.ts'
import { startDnsStandIn, type DnsStandIn } from '../../scripts/testing/dns-stand-in.ts'
import { fakeResolver } from '../../scripts/testing/mail-stand-ins.ts'
import { checkAuthentication, outcomeOf, type AuthInput, type AuthOutcome } from './message-auth.ts'
import { SpfCache } from './spf-cache.ts'

const message = (from: string, body = 'Hello there.\r\n') =>
  Buffer.from(`From: ${from}\r\nTo: someone@veilmail.test\r\nSubject: hi\r\nMessage-ID: <${crypto.randomUUID()}@x.example>\r\n\r\n${body}`)

/** What checkAuthentication made of mailauth's authenticate() before SPF was taken apart, through the same mapping. */
async function viaMailauth(raw: Buffer, input: AuthInput): Promise<AuthOutcome> {
  const result = await authenticate(raw, { ip: input.ip, helo: input.helo, sender: input.sender, mta: input.mta, resolver: input.resolver, disableBimi: true })
  return outcomeOf(result as unknown as Parameters<typeof outcomeOf>[0])
}

describe('the check with SPF taken apart', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const dkimRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`
  const resolver = fakeResolver({
    'pass.example TXT': [['v=spf1 ip4:192.0.2.1 -all']],
    '_dmarc.pass.example TXT': [['v=DMARC1; p=reject']],
    'sel._domainkey.pass.example TXT': [[dkimRecord]],
    'soft.example TXT': [['v=spf1 ~all']],
    '_dmarc.soft.example TXT': [['v=DMARC1; p=quarantine']],
  })
  const signed = async (raw: Buffer) => {
    // mailauth's types say signingDomain/selector/privateKey; the signer reads signatureData
    const { signatures } = await dkimSign(raw, { signatureData: [{ signingDomain: 'pass.example', selector: 'sel', privateKey: pem }] } as unknown as Parameters<typeof dkimSign>[1])
    return Buffer.concat([Buffer.from(signatures), raw])
  }

  it('says what mailauth authenticate() says: SPF pass, fail, softfail, none; DKIM pass and fail; DMARC pass, reject, none', async () => {
    const good = await signed(message('Ada <ada@pass.example>'))
    const cases: [Buffer, Partial<AuthInput>][] = [
      [message('Ada <ada@pass.example>'), { ip: '192.0.2.1', helo: 'mx.pass.example', sender: 'ada@pass.example' }],
      [message('Ada <ada@pass.example>'), { ip: '198.51.100.7', helo: 'forged.example', sender: 'ada@pass.example' }],
      [good, { ip: '198.51.100.7', helo: 'relay.example', sender: 'ada@pass.example' }],
      // altered after signing: the body (DKIM neutral, body hash), a signed field (DKIM fail)
      [Buffer.from(good.toString('latin1').replace('Hello there.', 'Hello theRe.'), 'latin1'), { ip: '198.51.100.7', helo: 'x', sender: '' }],
      [Buffer.from(good.toString('latin1').replace('Subject: hi', 'Subject: ho'), 'latin1'), { ip: '198.51.100.7', helo: 'relay.example', sender: '' }],
      [message('Bob <bob@soft.example>'), { ip: '203.0.113.9', helo: '203.0.113.9', sender: 'bob@soft.example' }],
      [message('Eve <eve@nowhere.example>'), { ip: '2001:db8::5', helo: '', sender: 'eve@nowhere.example' }],
      [message('Ada <ada@pass.example>, Bob <bob@soft.example>'), { ip: '192.0.2.1', helo: 'mx.pass.example', sender: 'ada@pass.example' }],
    ]
    const outcomes = new Set<string>()
    for (const [raw, envelope] of cases) {
      const input: AuthInput = { ip: '', helo: '', sender: '', mta: 'mx.veilmail.test', resolver, timeoutMs: 5000, ...envelope }
      const expected = await viaMailauth(raw, input)
      expect(await checkAuthentication(raw, input)).toEqual(expected)
      expect(await checkAuthentication(raw, { ...input, spfCache: new SpfCache(resolver) })).toEqual(expected)
      outcomes.add(`${expected.spf} ${expected.dkim} ${expected.dmarc}`)
    }
    // the cases cover what they say they do
    expect([...outcomes].sort()).toEqual(['fail none fail', 'fail pass pass', 'none fail fail', 'none neutral fail', 'none none none', 'pass none none', 'pass none pass', 'softfail none fail'].sort())
  })
})

describe('SPF results remembered', () => {
  let dns: DnsStandIn
  beforeAll(async () => {
    dns = await startDnsStandIn()
  })
  afterAll(async () => {
    await dns?.close()
  })
  beforeEach(() => {
    dns.records = {
      'a.example TXT': { ttl: 300, data: [{ type: 'TXT', value: ['v=spf1 ip4:192.0.2.1 -all'] }] },
      'b.example TXT': { ttl: 60, data: [{ type: 'TXT', value: ['v=spf1 include:spf.c.example -all'] }] },
      'spf.c.example TXT': { ttl: 30, data: [{ type: 'TXT', value: ['v=spf1 ip4:192.0.2.2 -all'] }] },
    }
    dns.silent.clear()
    dns.queries.clear()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** The real resolver against the stand-in, with the questions put to it counted (cache hits included). */
  function counted(timeoutMs = 2000) {
    const real = createDnsResolver({ timeoutMs, servers: [dns.server] })
    const asked = new Map<string, number>()
    const resolver = Object.assign((name: string, type: string) => {
      asked.set(`${name.toLowerCase()} ${type}`, (asked.get(`${name.toLowerCase()} ${type}`) ?? 0) + 1)
      return real(name, type)
    }, { expiresAt: (name: string, type: string) => real.expiresAt(name, type) }) as unknown as CachingResolver
    return { resolver, asked }
  }

  const input = (resolver: CachingResolver, envelope: Partial<AuthInput>, spfCache?: SpfCache): AuthInput =>
    ({ ip: '192.0.2.1', helo: 'mx.a.example', sender: 'ada@a.example', mta: 'mx.veilmail.test', resolver, timeoutMs: 5000, spfCache, ...envelope })

  it('a second message from the same IP, HELO and sender evaluates no SPF policy; another IP does, and gets its own result', async () => {
    const { resolver, asked } = counted()
    const cache = new SpfCache(resolver)
    const first = await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, {}, cache))
    expect(first.spf).toBe('pass')
    expect(asked.get('a.example TXT')).toBe(1)
    const second = await checkAuthentication(message('Ada <ada@a.example>', 'Another body.\r\n'), input(resolver, {}, cache))
    expect(asked.get('a.example TXT')).toBe(1)
    expect(second.spf).toBe('pass')
    // the same as a check that remembers nothing
    expect(second.headers).toBe((await checkAuthentication(message('Ada <ada@a.example>'), input(counted().resolver, {}))).headers)

    const other = await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, { ip: '198.51.100.7' }, cache))
    expect(asked.get('a.example TXT')).toBe(2)
    expect(other.spf).toBe('fail')
    expect(other.headers).toBe((await checkAuthentication(message('Ada <ada@a.example>'), input(counted().resolver, { ip: '198.51.100.7' }))).headers)
    // another sender at the same domain: its own evaluation (a policy may use the local part)
    await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, { sender: 'bob@a.example' }, cache))
    expect(asked.get('a.example TXT')).toBe(3)
  })

  it('concurrent messages with one envelope share one evaluation', async () => {
    const { resolver, asked } = counted()
    const cache = new SpfCache(resolver)
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => checkAuthentication(message('Ada <ada@a.example>'), input(resolver, {}, cache))))
    expect(asked.get('a.example TXT')).toBe(1)
    expect(new Set(outcomes.map((o) => o.headers)).size).toBe(1)
  })

  it('keeps at most `max` envelopes, the oldest going first, also when they come at once', async () => {
    const { resolver, asked } = counted()
    const cache = new SpfCache(resolver, 2)
    const senders = ['one@a.example', 'two@a.example', 'three@a.example']
    await Promise.all(senders.map((sender) => checkAuthentication(message('Ada <ada@a.example>'), input(resolver, { sender }, cache))))
    expect(asked.get('a.example TXT')).toBe(3)
    // the newest two are remembered, the first is not
    await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, { sender: 'three@a.example' }, cache))
    await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, { sender: 'two@a.example' }, cache))
    expect(asked.get('a.example TXT')).toBe(3)
    await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, { sender: 'one@a.example' }, cache))
    expect(asked.get('a.example TXT')).toBe(4)
  })

  it('a HELO or address with odd characters can not take the place of another envelope', async () => {
    const { resolver, asked } = counted()
    const cache = new SpfCache(resolver)
    // pairs that read the same when glued with a separator: the second must get its own result,
    // naming its own HELO and sender, not the first's text
    const pairs: [Partial<AuthInput>, Partial<AuthInput>][] = [
      [{ helo: 'mx.a.example|bob', sender: 'x@a.example' }, { helo: 'mx.a.example', sender: 'bob|x@a.example' }],
      [{ helo: 'mx.a.example bob', sender: 'x@a.example' }, { helo: 'mx.a.example', sender: 'bob x@a.example' }],
      [{ helo: 'mx.a.example\r\nbob', sender: 'x@a.example' }, { helo: 'mx.a.example', sender: 'bob\r\nx@a.example' }],
      [{ helo: 'mx.a.example","bob', sender: 'x@a.example' }, { helo: 'mx.a.example', sender: 'bob","x@a.example' }],
    ]
    let questions = 0
    for (const [hostile, other] of pairs) {
      await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, hostile, cache))
      const got = await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, other, cache))
      questions += 2
      expect(asked.get('a.example TXT')).toBe(questions)
      expect(got).toEqual(await checkAuthentication(message('Ada <ada@a.example>'), input(counted().resolver, other)))
    }
  })

  it('a result lives no longer than the shortest TTL of the answers it read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { resolver, asked } = counted()
    const cache = new SpfCache(resolver)
    const check = () => checkAuthentication(message('Bob <bob@b.example>'), input(resolver, { ip: '192.0.2.2', helo: 'mx.b.example', sender: 'bob@b.example' }, cache))
    expect((await check()).spf).toBe('pass')
    expect(asked.get('spf.c.example TXT')).toBe(1)
    // the include's answer (30 s) expires first: until then nothing is asked
    vi.setSystemTime(Date.now() + 29_000)
    await check()
    expect(asked.get('b.example TXT')).toBe(1)
    vi.setSystemTime(Date.now() + 2_000)
    dns.records['spf.c.example TXT'] = { ttl: 30, data: [{ type: 'TXT', value: ['v=spf1 -all'] }] }
    expect((await check()).spf).toBe('fail')
    expect(asked.get('spf.c.example TXT')).toBe(2)
    expect(dns.queries.get('spf.c.example TXT')).toBe(2)
  })

  it('a temperror (a DNS server that does not answer) is not kept', async () => {
    dns.silent.add('a.example')
    const { resolver, asked } = counted(200)
    const cache = new SpfCache(resolver)
    expect((await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, {}, cache))).spf).toBe('temperror')
    dns.silent.clear()
    expect((await checkAuthentication(message('Ada <ada@a.example>'), input(resolver, {}, cache))).spf).toBe('pass')
    expect(asked.get('a.example TXT')).toBe(2)
  })
})
