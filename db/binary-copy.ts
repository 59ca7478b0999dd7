// Rows in Postgres's binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html,
// "Binary Format"): a header, one tuple per row (a field count, then each field as an int32 length,
// -1 for NULL, and its type's binary form as its `recv` function reads it), and a trailer. Each
// tuple is one buffer of its exact size: a sealed body is copied once, never grown into or turned
// into text, and Postgres parses no per-batch statement.

export type CopyType = 'uuid' | 'text' | 'text[]' | 'bigint' | 'integer' | 'boolean' | 'timestamptz' | 'bytea'

interface CopyValues {
  uuid: string
  text: string
  'text[]': readonly string[]
  bigint: number | bigint
  integer: number
  boolean: boolean
  timestamptz: Date
  bytea: Uint8Array
}

/** A column of a COPY: its name in the statement, its type, and its value in a row (null for NULL). */
export type CopyColumn<Row> = { [T in CopyType]: { name: string; type: T; value: (row: Row) => CopyValues[T] | null } }[CopyType]

interface Encoder<V> {
  size(value: V): number
  /** writes `value` at `at`, answers the offset after it */
  write(buffer: Buffer, at: number, value: V): number
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TEXT_OID = 25
const MS_2000 = BigInt(Date.UTC(2000, 0, 1))

const encoders: { [T in CopyType]: Encoder<CopyValues[T]> } = {
  uuid: {
    size: () => 16,
    write(buffer, at, value) {
      if (!UUID.test(value)) throw new TypeError(`not a UUID: ${value}`)
      return at + buffer.write(value.replaceAll('-', ''), at, 16, 'hex')
    },
  },
  // Postgres checks the bytes as the database's encoding (UTF-8) and refuses U+0000 (22021), as
  // it does a text parameter
  text: {
    size: (value) => Buffer.byteLength(value),
    write: (buffer, at, value) => at + buffer.write(value, at),
  },
  // array_recv: dimensions, a has-NULLs flag, the element type, each dimension's size and lower
  // bound, then the elements; an empty array has no dimensions
  'text[]': {
    size(value) {
      let size = value.length === 0 ? 12 : 20
      for (const element of value) size += 4 + Buffer.byteLength(element)
      return size
    },
    write(buffer, at, value) {
      at = buffer.writeInt32BE(value.length === 0 ? 0 : 1, at)
      at = buffer.writeInt32BE(0, at)
      at = buffer.writeInt32BE(TEXT_OID, at)
      if (value.length === 0) return at
      at = buffer.writeInt32BE(value.length, at)
      at = buffer.writeInt32BE(1, at)
      for (const element of value) {
        const length = buffer.write(element, at + 4)
        buffer.writeInt32BE(length, at)
        at += 4 + length
      }
      return at
    },
  },
  // BigInt() refuses a fraction and writeBigInt64BE a value past int64, as Postgres would refuse the text
  bigint: {
    size: () => 8,
    write: (buffer, at, value) => buffer.writeBigInt64BE(BigInt(value), at),
  },
  integer: {
    size: () => 4,
    write(buffer, at, value) {
      if (!Number.isInteger(value)) throw new RangeError(`not an integer: ${value}`)
      return buffer.writeInt32BE(value, at)
    },
  },
  boolean: {
    size: () => 1,
    write: (buffer, at, value) => buffer.writeUInt8(value ? 1 : 0, at),
  },
  // microseconds since 2000-01-01 UTC, in BigInt: milliseconds × 1000 past about 285 years from
  // 2000 are beyond a double's exact integers. An invalid Date throws (BigInt(NaN)).
  timestamptz: {
    size: () => 8,
    write: (buffer, at, value) => buffer.writeBigInt64BE((BigInt(value.getTime()) - MS_2000) * 1000n, at),
  },
  bytea: {
    size: (value) => value.byteLength,
    write(buffer, at, value) {
      buffer.set(value, at)
      return at + value.byteLength
    },
  },
}

/** "PGCOPY\n\377\r\n\0", no flags (no OIDs), no header extension. */
const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)])
/** A field count of -1. */
const COPY_TRAILER = Buffer.from([0xff, 0xff])

export function copyStatement<Row>(table: string, columns: readonly CopyColumn<Row>[]): string {
  return `copy ${table} (${columns.map((c) => c.name).join(', ')}) from stdin (format binary)`
}

/**
 * The data of a COPY of `rows`: the header, a tuple per row, the trailer. Every row is encoded
 * before any is sent, so a value that cannot be encoded never leaves a COPY half sent.
 */
export function copyData<Row>(columns: readonly CopyColumn<Row>[], rows: readonly Row[]): Buffer[] {
  return [COPY_HEADER, ...rows.map((row) => encodeTuple(columns, row)), COPY_TRAILER]
}

/** One row as a tuple, in a buffer of its exact size (measured first, then written). */
export function encodeTuple<Row>(columns: readonly CopyColumn<Row>[], row: Row): Buffer {
  let size = 2
  for (const column of columns) {
    const value = column.value(row)
    size += 4 + (value === null ? 0 : (encoders[column.type] as Encoder<typeof value>).size(value))
  }
  const buffer = Buffer.allocUnsafe(size)
  let at = buffer.writeInt16BE(columns.length, 0)
  for (const column of columns) {
    const value = column.value(row)
    if (value === null) {
      at = buffer.writeInt32BE(-1, at)
      continue
    }
    const start = at + 4
    at = (encoders[column.type] as Encoder<typeof value>).write(buffer, start, value)
    buffer.writeInt32BE(at - start, start - 4)
  }
  // a measure that disagreed with the writing would leave bytes of old memory in the tuple
  if (at !== size) throw new Error(`binary COPY tuple measured ${size} bytes, wrote ${at}`)
  return buffer
}
