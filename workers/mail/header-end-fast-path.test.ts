import { describe, expect, it } from 'vitest'
import { dkimSign, dkimVerify } from 'mailauth'
import { generateKeyPairSync } from 'node:crypto'
import { Readable } from 'node:stream'
import { headerEnd, mailauthHeaderScan, MessageParser as MailauthParser } from './header-end-fast-path.ts'
import { randomPieces, seededRandom } from '../../scripts/testing/seeded-random.ts'

const MessageParser = MailauthParser as unknown as new () => { processChunk(chunk: Buffer): Promise<void>; finish(): Promise<void>; headerBytes: number; stateBytes: number[]; state: string }

/** What a MessageParser hands on for these pieces: the header section it parsed and the body bytes, with its scan or mailauth's. */
async function split(pieces: Buffer[], own: boolean) {
  const seen = { header: '', body: '', headerBytes: 0, lastBytes: [] as number[] }
  const parser = new (class extends MessageParser {
    async messageHeaders(headers: { original: Buffer }) {
      seen.header = headers.original.toString('latin1')
    }
    async nextChunk(chunk: Buffer) {
      seen.body += chunk.toString('latin1')
    }
  })()
  if (!own) parser.processChunk = mailauthHeaderScan as typeof parser.processChunk
  for (const piece of pieces) await parser.processChunk(piece)
  // what it remembers of a header section that has not ended: its last four bytes, as mailauth
  if (parser.state === 'header') seen.lastBytes = [...parser.stateBytes]
  await parser.finish()
  seen.headerBytes = parser.headerBytes
  return seen
}

describe('finding the end of the header section in a checked message', () => {
  it('splits header and body where mailauth does, byte for byte, whatever the line ends and cuts between pieces', async () => {
    // the forms an attacker would use to make two readers disagree on where the body starts
    const alphabet = ['a', 'X: y', ' ', '\t', '\r', '\n', '\r\n', '\n\r', '\r\r\n', '\n\n', '\r\n\r\n', '\n\r\n', ':', '.']
    for (let seed = 1; seed <= 800; seed++) {
      const { text, pieces } = randomPieces(seededRandom(seed), alphabet, 60, 8)
      expect(await split(pieces, true), `seed ${seed}: ${JSON.stringify(text)}`).toEqual(await split(pieces, false))
    }
  })

  it('ends the header section at the first empty line, an empty first line included', () => {
    const at = (text: string, before = '', seen = 0) => headerEnd(Buffer.from(text, 'latin1'), [...Buffer.from(before, 'latin1')], seen)
    expect(at('A: b\r\nC: d\r\n\r\nbody\r\n\r\n')).toBe(13)
    expect(at('A: b\n\nbody')).toBe(5)
    expect(at('\r\nA: b\r\n')).toBe(1)
    expect(at('\nA: b\r\n')).toBe(0)
    expect(at('A: b\r\n')).toBe(-1)
    // the empty line cut between two pieces
    expect(at('\n', '\r\n\r', 8)).toBe(0)
    expect(at('\r\nbody', 'A: b\r\n', 6)).toBe(1)
    // a CR LF at the start of a later piece is not an empty first line
    expect(at('\r\nB: c', 'A: b', 4)).toBe(-1)
  })

  it('verifies a signed message cut into pieces anywhere', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const message = Buffer.from('From: a@example.com\r\nTo: b@example.net\r\nSubject: pieces\r\n\r\nfirst line\r\n\r\nlast line\r\n')
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    const signed = await dkimSign(message, { signatureData: [{ signingDomain: 'example.com', selector: 's', privateKey: pem }] } as unknown as Parameters<typeof dkimSign>[1])
    expect(signed.signatures).toMatch(/^DKIM-Signature: /)
    const field = Buffer.from(signed.signatures)
    const whole = Buffer.concat([field, message])
    const dns = publicKey.export({ type: 'spki', format: 'der' }).toString('base64')
    const resolver = async (name: string, type: string) => {
      if (name === 's._domainkey.example.com' && type === 'TXT') return [[`v=DKIM1; k=rsa; p=${dns}`]]
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    }
    for (let cut = 1; cut < whole.length; cut += 7) {
      const result = await dkimVerify(Readable.from([whole.subarray(0, cut), whole.subarray(cut)]), { resolver })
      expect(result.results.map((r) => r.status.result), `cut at ${cut}`).toEqual(['pass'])
    }
    // a changed body does not verify (mailauth calls a body hash that differs neutral)
    const tampered = Buffer.from(whole.toString('latin1').replace('last line', 'last lime'), 'latin1')
    const [result] = (await dkimVerify(Readable.from([tampered.subarray(0, 90), tampered.subarray(90)]), { resolver })).results
    expect(result.status).toMatchObject({ result: 'neutral', comment: 'body hash did not verify' })
  })
})
