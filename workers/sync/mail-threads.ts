// Conversations of synced mail (docs/mail-flow.md, the subject rule only for mail that names no other): a message joins the thread of any stored
// message it names in In-Reply-To/References (RFC 5322 §3.6.4), else the thread of a stored
// message that names it (a reply that arrived before its parent), else, only when it names no
// message at all, the newest thread with the same subject less Re:/Fw:/Fwd:. A message that
// links two threads (it names one and is named by another, or names messages of two) merges them,
// so a parent arriving after its replies gathers them, whatever order the folders are synced in.
import { randomUUID } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import { mergeThreads, threadsByMessageIds, threadsBySubject, threadsNamingMessageIds } from '../../db/received-emails.ts'

export interface ThreadInput {
  messageId: string | null
  /** In-Reply-To, then References */
  named: string[]
  /** the subject for the rule (threadSubject) */
  subjectKey: string
}

/** The thread of each message of a batch (in order, as the batch will be stored); merges stored threads it links. */
export async function assignThreads(db: Db, userId: string, messages: ThreadInput[]): Promise<string[]> {
  const named = [...new Set(messages.flatMap((m) => m.named))]
  const own = [...new Set(messages.flatMap((m) => (m.messageId ? [m.messageId] : [])))]
  const subjects = [...new Set(messages.filter((m) => m.named.length === 0 && m.subjectKey).map((m) => m.subjectKey))]
  // three reads sent together (in a transaction, postgres.js pipelines them): one round trip
  const [byMessageId, namers, bySubject] = await Promise.all([
    threadsByMessageIds(db, userId, named), threadsNamingMessageIds(db, userId, own), threadsBySubject(db, userId, subjects),
  ])
  const stored = new Set([...byMessageId.values(), ...namers.map((n) => n.threadId), ...bySubject.values()])

  // union-find over thread ids: a link between two threads points one's root at the other's
  const root = new Map<string, string>()
  const find = (t: string): string => {
    let r = t
    while (root.has(r)) r = root.get(r)!
    if (r !== t) root.set(t, r)
    return r
  }
  const join = (into: string, from: string) => {
    const a = find(into)
    const b = find(from)
    if (a !== b) root.set(b, a)
  }
  // Message-ID → the thread of a message naming it
  const namedBy = new Map<string, string>()
  const noteNamer = (id: string, thread: string) => {
    const known = namedBy.get(id)
    if (known) join(known, thread)
    else namedBy.set(id, thread)
  }
  const ownIds = new Set(own)
  for (const n of namers) for (const id of n.named) if (ownIds.has(id)) noteNamer(id, n.threadId)

  const threads: string[] = []
  for (const m of messages) {
    const parents = m.named.map((id) => byMessageId.get(id)).filter((t) => t !== undefined)
    const child = m.messageId ? namedBy.get(m.messageId) : undefined
    const bySubjectRule = m.named.length === 0 && m.subjectKey ? bySubject.get(m.subjectKey) : undefined
    const thread = parents[0] ?? child ?? bySubjectRule ?? randomUUID()
    for (const t of parents) join(thread, t)
    if (child) join(thread, child)
    if (m.messageId && !byMessageId.has(m.messageId)) byMessageId.set(m.messageId, thread)
    for (const id of m.named) noteNamer(id, thread)
    if (m.subjectKey) bySubject.set(m.subjectKey, thread)
    threads.push(thread)
  }

  // stored threads this batch linked to another are moved into it
  const moves = new Map<string, string[]>()
  for (const t of root.keys()) {
    if (!stored.has(t)) continue // a thread of this batch only: its rows are stored with the final id
    const into = find(t)
    if (into !== t) moves.set(into, [...(moves.get(into) ?? []), t])
  }
  for (const [into, from] of moves) await mergeThreads(db, userId, into, from)
  return threads.map(find)
}
