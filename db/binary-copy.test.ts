// The binary COPY encoder against Postgres's own binary output of each type (its `send`
// functions, which COPY … TO (FORMAT binary) writes and COPY … FROM reads back).
import { afterAll, expect, inject, it } from 'vitest'
import { createSql } from './client.ts'
import { encodeTuple, type CopyColumn } from './binary-copy.ts'

const sql = createSql(inject('databaseUrl'), { max: 1, name: 'veilmail-test' })
afterAll(() => sql.end({ timeout: 5 }))

interface Row {
  id: string; text: string; none: string | null; tags: string[]; noTags: string[]; big: bigint; uid: number; int: number
  yes: boolean; no: boolean; before2000: Date; after2000: Date; bytes: Buffer; noBytes: Buffer
}

const row: Row = {
  id: '6F1C1B0E-2f43-4b8e-9a57-0c2d7e7f0a11', text: 'Zürich 東京 👋 "x" \\ {y}', none: null,
  tags: ['<a@example.test>', 'a "quoted" one', 'back\\slash', 'comma, {braces}', '', 'NULL'], noTags: [],
  big: -(2n ** 63n), uid: 2 ** 32 - 1, int: -(2 ** 31), yes: true, no: false,
  before2000: new Date('1969-07-20T20:17:40.123Z'), after2000: new Date('2262-04-11T23:47:16.854Z'),
  bytes: Buffer.from([0, 1, 0x5c, 0x27, 0xff]), noBytes: Buffer.alloc(0),
}

const columns: CopyColumn<Row>[] = [
  { name: 'id', type: 'uuid', value: (r) => r.id }, { name: 'text', type: 'text', value: (r) => r.text },
  { name: 'none', type: 'text', value: (r) => r.none }, { name: 'tags', type: 'text[]', value: (r) => r.tags },
  { name: 'no_tags', type: 'text[]', value: (r) => r.noTags }, { name: 'big', type: 'bigint', value: (r) => r.big },
  { name: 'uid', type: 'bigint', value: (r) => r.uid }, { name: 'int', type: 'integer', value: (r) => r.int },
  { name: 'yes', type: 'boolean', value: (r) => r.yes }, { name: 'no', type: 'boolean', value: (r) => r.no },
  { name: 'before2000', type: 'timestamptz', value: (r) => r.before2000 }, { name: 'after2000', type: 'timestamptz', value: (r) => r.after2000 },
  { name: 'bytes', type: 'bytea', value: (r) => r.bytes }, { name: 'no_bytes', type: 'bytea', value: (r) => r.noBytes },
]

/** A tuple from fields already in their binary form. */
function tuple(fields: (Buffer | null)[]): Buffer {
  const count = Buffer.alloc(2)
  count.writeInt16BE(fields.length)
  return Buffer.concat([count, ...fields.flatMap((f) => {
    const length = Buffer.alloc(4)
    length.writeInt32BE(f === null ? -1 : f.length)
    return f === null ? [length] : [length, f]
  })])
}

it('encodes a row field for field as Postgres sends each type', async () => {
  const [fields] = await sql`
    select uuid_send(${row.id}::uuid), textsend(${row.text}::text), textsend(null::text), array_send(${row.tags}::text[]),
      array_send('{}'::text[]), int8send(${String(row.big)}::int8), int8send(${String(row.uid)}::int8), int4send(${row.int}::int4),
      boolsend(true), boolsend(false), timestamptz_send(${row.before2000}::timestamptz), timestamptz_send(${row.after2000}::timestamptz),
      byteasend(${row.bytes}::bytea), byteasend(''::bytea)`.values() as unknown as (Buffer | null)[][]
  expect(encodeTuple(columns, row)).toEqual(tuple(fields))
})

it('refuses what the column cannot hold instead of writing something else', () => {
  const one = <T extends CopyColumn<Row>>(column: T) => (r: Row) => encodeTuple([column], r)
  expect(() => one({ name: 'id', type: 'uuid', value: (r) => r.id })({ ...row, id: 'not-a-uuid' })).toThrow(TypeError)
  expect(() => one({ name: 'int', type: 'integer', value: (r) => r.int })({ ...row, int: 1.5 })).toThrow(RangeError)
  expect(() => one({ name: 'int', type: 'integer', value: (r) => r.int })({ ...row, int: 2 ** 31 })).toThrow(RangeError)
  expect(() => one({ name: 'uid', type: 'bigint', value: (r) => r.uid })({ ...row, uid: 0.5 })).toThrow(RangeError)
  expect(() => one({ name: 'after2000', type: 'timestamptz', value: (r) => r.after2000 })({ ...row, after2000: new Date(Number.NaN) })).toThrow(RangeError)
})
