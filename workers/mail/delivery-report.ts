// Delivery status notifications (RFC 3464) that come back to the SRS address of a forward (issue
// 30): only the delivery-status part of a multipart/report is read, from the first
// MAX_REPORT_BYTES of the message, and only its failed recipients with a 5.x.x status. A report is
// input like any other: what it says is believed only for the (alias, target) its SRS address was
// issued for (srs.ts bounceTag), and its text is cleaned and cut before anyone sees it.
export const MAX_REPORT_BYTES = 128 * 1024
const MAX_RECIPIENTS = 10
const MAX_REASON = 300

export interface ReportedFailure {
  /** Final-Recipient's address, lower-cased */
  recipient: string
  /** the reply code of Diagnostic-Code when it is a 5xx, else 550 (the report gave only its Status) */
  code: number
  /** Status and Diagnostic-Code, cleaned and cut */
  reason: string
}

const clean = (s: string) => s.replace(/[\x00-\x1f\x7f]+/g, ' ').replace(/\s+/g, ' ').trim()

/** The fields of a header block, unfolded, keys lower-cased (the first of each). */
function fieldsOf(block: string): Map<string, string> {
  const fields = new Map<string, string>()
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const key = line.slice(0, colon).trim().toLowerCase()
    if (!fields.has(key)) fields.set(key, line.slice(colon + 1).trim())
  }
  return fields
}

function splitHead(part: string): [string, string] {
  const m = /\r?\n\r?\n/.exec(part)
  return m ? [part.slice(0, m.index), part.slice(m.index + m[0].length)] : [part, '']
}

/** A Content-Type's parameter (quoted or a token). */
function param(contentType: string, name: string): string | undefined {
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]{1,200})"|([^;\\s"]{1,200}))`, 'i').exec(contentType)
  return m ? (m[1] ?? m[2]) : undefined
}

/** The permanent failures a delivery report states; [] for anything that is not one. */
export function parseDeliveryReport(raw: Buffer): ReportedFailure[] {
  const text = raw.subarray(0, MAX_REPORT_BYTES).toString('latin1')
  const [head, body] = splitHead(text)
  const type = fieldsOf(head).get('content-type') ?? ''
  if (!/^multipart\/report\s*;/i.test(type) || param(type, 'report-type')?.toLowerCase() !== 'delivery-status') return []
  const boundary = param(type, 'boundary')
  if (!boundary || boundary.length > 70) return []
  for (const part of body.split(`--${boundary}`).slice(1)) {
    const [partHead, partBody] = splitHead(part.replace(/^\r?\n/, ''))
    if (!/^message\/delivery-status\b/i.test(fieldsOf(partHead).get('content-type') ?? '')) continue
    const failures: ReportedFailure[] = []
    // the per-message block, then one block per recipient (RFC 3464 §2.1)
    for (const block of partBody.split(/\r?\n\s*\r?\n/).slice(1)) {
      const f = fieldsOf(block)
      const recipient = /^rfc822\s*;\s*<?([^\s<>;]{3,254})>?$/i.exec(f.get('final-recipient') ?? '')?.[1]?.toLowerCase()
      const status = /^5\.\d{1,3}\.\d{1,3}$/.exec(f.get('status') ?? '')?.[0]
      if (!recipient || !recipient.includes('@') || !status || f.get('action')?.toLowerCase() !== 'failed') continue
      const diagnostic = clean((f.get('diagnostic-code') ?? '').replace(/^smtp\s*;/i, ''))
      const code = /^5\d\d\b/.exec(diagnostic)?.[0]
      failures.push({ recipient, code: code ? Number(code) : 550, reason: (diagnostic || `Status ${status}`).slice(0, MAX_REASON) })
      if (failures.length === MAX_RECIPIENTS) break
    }
    return failures
  }
  return []
}
