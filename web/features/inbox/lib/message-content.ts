// A message's text split at armored age blocks (age's armor, C2SP
// age spec "ASCII armor"): each complete block becomes a decrypt widget, an unterminated one stays
// text. Quote markers in front of a block's lines are removed so a quoted block still opens.
export type ContentPart = { kind: 'text'; text: string } | { kind: 'age'; armored: string }

const BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----'
const END = '-----END AGE ENCRYPTED FILE-----'
const unquote = (line: string) => line.replace(/^(\s*>\s?)+/, '').trim()

export function splitContent(text: string): ContentPart[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const parts: ContentPart[] = []
  let plain: string[] = []
  const flush = () => {
    if (plain.join('\n').trim()) parts.push({ kind: 'text', text: plain.join('\n') })
    plain = []
  }
  for (let i = 0; i < lines.length; i++) {
    if (unquote(lines[i]) !== BEGIN) {
      plain.push(lines[i])
      continue
    }
    const end = lines.findIndex((line, j) => j > i && unquote(line) === END)
    if (end === -1) {
      plain.push(...lines.slice(i))
      break
    }
    flush()
    parts.push({ kind: 'age', armored: lines.slice(i, end + 1).map(unquote).join('\n') + '\n' })
    i = end
  }
  flush()
  return parts
}

export function hasEncryptedBlock(text: string): boolean {
  return splitContent(text).some((p) => p.kind === 'age')
}

export type TextSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string }

const LINK = /\bhttps?:\/\/[^\s<>"']+|\bwww\.[^\s<>"']+|\bmailto:[^\s<>"']+/gi

/** Plain text cut into text and links; React escapes both when it renders them. */
export function linkify(text: string): TextSegment[] {
  const out: TextSegment[] = []
  let last = 0
  for (const match of text.matchAll(LINK)) {
    let url = match[0]
    const trailing = /[.,;:!?)\]}]+$/.exec(url)
    if (trailing) url = url.slice(0, -trailing[0].length)
    const start = match.index
    if (start > last) out.push({ kind: 'text', text: text.slice(last, start) })
    out.push({ kind: 'link', text: url, href: /^www\./i.test(url) ? `https://${url}` : url })
    last = start + url.length
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) })
  return out
}
