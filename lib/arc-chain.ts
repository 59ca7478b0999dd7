// ARC (RFC 8617) as a forwarder adds to it: the sets a message arrived with, and what the next set
// of ours is (its instance, its chain validation status cv=, the sets its ARC-Seal signs). The
// signatures themselves are made by the DKIM signer (dkim-signer.ts) with the service domain's key.
import { fieldValue, makeField, type HeaderField } from './raw-message.ts'

/** What the MX found of the message as it arrived: its Authentication-Results, and its ARC verdict. */
export interface ArcFacts {
  /** the Authentication-Results field(s) we computed (spool meta `auth.headers`) */
  authResults: string
  /** mailauth's verdict on the ARC chain the message arrived with: pass, fail, none, temperror... */
  verdict: string
}

/** One ARC set as it arrived, its three fields in the order an ARC-Seal signs them. */
export interface ArcSet { instance: number; fields: [aar: HeaderField, ams: HeaderField, seal: HeaderField] }

export interface ArcPlan {
  instance: number
  cv: 'none' | 'pass' | 'fail'
  /** the sets before ours the seal signs: all of them when they validated (cv=pass), none otherwise */
  signed: ArcSet[]
  /** ARC-Authentication-Results of our set */
  results: HeaderField
}

const MAX_INSTANCE = 50
const ARC_FIELDS = ['arc-authentication-results', 'arc-message-signature', 'arc-seal'] as const

/** The i= tag of an ARC field, NaN when there is none or it is not a number in range. */
function instanceOf(field: HeaderField): number {
  const match = /^\s*i\s*=\s*(\d{1,3})\s*(;|$)/.exec(fieldValue(field))
  const n = match ? Number(match[1]) : NaN
  return n >= 1 && n <= MAX_INSTANCE ? n : NaN
}

const tagOf = (field: HeaderField, tag: string) => new RegExp(`(?:^|;)\\s*${tag}\\s*=\\s*([^;\\s]*)`, 'i').exec(fieldValue(field))?.[1]?.toLowerCase()

/**
 * The sets in the header, by instance 1..n; 'broken' when the fields do not make a chain (a field
 * without an instance, a set missing a field or with one twice, a gap between instances).
 */
export function arcSets(headers: HeaderField[]): ArcSet[] | 'broken' {
  const byInstance = new Map<number, Partial<Record<(typeof ARC_FIELDS)[number], HeaderField>>>()
  for (const field of headers) {
    const kind = ARC_FIELDS.find((k) => k === field.key)
    if (!kind) continue
    const instance = instanceOf(field)
    if (Number.isNaN(instance)) return 'broken'
    const set = byInstance.get(instance) ?? {}
    if (set[kind]) return 'broken'
    set[kind] = field
    byInstance.set(instance, set)
  }
  const sets: ArcSet[] = []
  for (let i = 1; i <= byInstance.size; i++) {
    const set = byInstance.get(i)
    if (!set?.['arc-authentication-results'] || !set['arc-message-signature'] || !set['arc-seal']) return 'broken'
    sets.push({ instance: i, fields: [set['arc-authentication-results'], set['arc-message-signature'], set['arc-seal']] })
  }
  return sets
}

/**
 * Our set's instance, cv= and the sets it signs; undefined when no set may be added: the newest
 * seal already says cv=fail (RFC 8617 §5.1 step 2), or the chain has its 50 sets.
 */
export function planArcSet(headers: HeaderField[], facts: ArcFacts, mta: string): ArcPlan | undefined {
  const sets = arcSets(headers)
  // after every instance there is, whole or not
  const count = Math.max(0, ...headers.filter((h) => ARC_FIELDS.some((k) => k === h.key)).map(instanceOf).filter((n) => !Number.isNaN(n)))
  if (count >= MAX_INSTANCE) return undefined
  if (sets !== 'broken' && sets.length && tagOf(sets.at(-1)!.fields[2], 'cv') === 'fail') return undefined
  const instance = count + 1
  const cv = instance === 1 ? 'none' : sets !== 'broken' && facts.verdict === 'pass' ? 'pass' : 'fail'
  return { instance, cv, signed: cv === 'pass' && sets !== 'broken' ? sets : [], results: makeField('ARC-Authentication-Results', `i=${instance}; ${resultsValue(facts.authResults, mta)}`) }
}

/** The value of our Authentication-Results field (authserv-id; results), or a bare "none" one. */
function resultsValue(authResults: string, mta: string): string {
  const field = /(?:^|\r?\n)Authentication-Results:([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/i.exec(authResults)
  const value = field?.[1].replace(/\r?\n(?=[ \t])/g, '').replace(/\s+/g, ' ').trim()
  return value || `${mta}; none`
}
