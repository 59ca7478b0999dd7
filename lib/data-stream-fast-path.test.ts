import DataStream from 'nodemailer/lib/smtp-connection/data-stream'
import { describe, expect, it } from 'vitest'
import { needsNoEscaping, nodemailerEnd, nodemailerEscaping } from './data-stream-fast-path.ts'
import { randomPieces, seededRandom } from '../scripts/testing/seeded-random.ts'

/** What a DataStream sends for these pieces, with its _transform and _flush or nodemailer's own. */
async function escape(pieces: Buffer[], own: boolean) {
  const stream = new DataStream() as InstanceType<typeof DataStream> & { inByteCount: number; outByteCount: number; _transform: unknown; _flush: unknown }
  if (own) {
    stream._transform = nodemailerEscaping
    stream._flush = nodemailerEnd
  }
  const out: Buffer[] = []
  stream.on('data', (b: Buffer) => out.push(b))
  const ended = new Promise((resolve) => stream.on('end', resolve))
  for (const piece of pieces) stream.write(piece)
  stream.end()
  await ended
  return { bytes: Buffer.concat(out).toString('latin1'), inBytes: stream.inByteCount, outBytes: stream.outByteCount, writes: out.length }
}

const sent = async (pieces: Buffer[], own: boolean) => {
  const { writes: _, ...rest } = await escape(pieces, own)
  return rest
}

describe('escaping the data of a message sent to the relay', () => {
  it('sends what nodemailer would, byte for byte, whatever the line ends, dots and cuts between pieces', async () => {
    const alphabet = ['a', 'b', ' ', '.', '\r', '\n', '\r\n', '\r\n.', '\r\n..', '\r.\r', '\n.\n', '\r\n.\r\n']
    for (let seed = 1; seed <= 600; seed++) {
      // cut at random places, so a CR, an LF or a dot falls at either side of a cut
      const { text, pieces } = randomPieces(seededRandom(seed), alphabet, 80, 12)
      expect(await sent(pieces, false), `seed ${seed}: ${JSON.stringify(text)}`).toEqual(await sent(pieces, true))
    }
  })

  it('sends a well-formed message as it is, and escapes the forms a smuggling attempt uses', async () => {
    const clean = Buffer.from('From: a@example.com\r\nSubject: hi\r\n\r\nline one\r\nline. two\r\n')
    expect(needsNoEscaping(clean, false)).toBe(true)
    expect((await escape([clean], false)).bytes).toBe(clean.toString('latin1') + '.\r\n')
    // the last piece and the terminating dot are one write to the relay; nodemailer's own makes two
    expect((await escape([clean], false)).writes).toBe(1)
    expect((await escape([clean], true)).writes).toBe(2)
    expect(await escape([clean.subarray(0, 20), clean.subarray(20)], false)).toMatchObject({ bytes: clean.toString('latin1') + '.\r\n', writes: 2 })
    for (const [ending, end] of [['no line end', '\r\n.\r\n'], ['a bare CR\r', '\n.\r\n']]) {
      expect((await escape([Buffer.from('x\r\n'), Buffer.from(ending, 'latin1')], false)).bytes, ending).toBe(`x\r\n${ending}${end}`)
    }
    for (const [text, after] of [
      ['.starts with a dot\r\n', false], ['a\r\n.\r\nMAIL FROM:<x>\r\n', false], ['a\r.\rb', false], ['a\n.\nb', false],
      ['bare\nlf', false], ['bare\rcr', false], ['\nafter an LF', 0x0a], ['x', 0x0d], ['.after a line end', 0x0a],
    ] as const) {
      expect(needsNoEscaping(Buffer.from(text, 'latin1'), after), JSON.stringify(text)).toBe(false)
    }
    expect((await escape([Buffer.from('a\r\n.\r\nMAIL FROM:<x>\r\n')], false)).bytes).toBe('a\r\n..\r\nMAIL FROM:<x>\r\n.\r\n')
    expect((await escape([Buffer.from('a\r.\rb')], false)).bytes).toBe('a\r\n..\r\nb\r\n.\r\n')
    expect((await escape([Buffer.from('line\r'), Buffer.from('\n.dot\r\n')], false)).bytes).toBe('line\r\n..dot\r\n.\r\n')
  })

  it('is the transform and end every DataStream uses', () => {
    const proto = DataStream.prototype as unknown as { _transform: unknown; _flush: unknown }
    expect(proto._transform).not.toBe(nodemailerEscaping)
    expect(proto._flush).not.toBe(nodemailerEnd)
  })
})
