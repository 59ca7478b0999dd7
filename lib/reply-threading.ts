// A reply's threading fields, RFC 5322 §3.6.4: In-Reply-To is the parent's Message-ID; References
// is the parent's References (or, without them, its In-Reply-To when that names one message)
// followed by the parent's Message-ID. The parent's ids come from a synced message, mail anyone
// could have written: only ids of the msg-id form (`<…>`, printable ASCII, no space or angle
// bracket inside) go into a header, so none can carry a line break or a second field.

export interface ParentIds {
  messageId: string | null
  inReplyTo: string | null
  references: readonly string[]
}

export interface ReplyThreading {
  inReplyTo?: string
  references: string[]
}

const MSG_ID = /^<[\x21-\x3b\x3d\x3f-\x7e]{1,995}>$/
/** References kept: the thread's first id and its newest ones (RFC 5322 leaves trimming to the writer; long lists break some readers). */
export const MAX_REFERENCES = 20

const valid = (id: string | null | undefined): id is string => typeof id === 'string' && MSG_ID.test(id)

export function replyThreading(parent: ParentIds): ReplyThreading {
  const own = valid(parent.messageId) ? parent.messageId : undefined
  const before = parent.references.length > 0 ? parent.references.filter(valid) : valid(parent.inReplyTo) ? [parent.inReplyTo] : []
  const all = [...new Set([...before, ...(own ? [own] : [])])]
  const references = all.length > MAX_REFERENCES ? [all[0], ...all.slice(all.length - MAX_REFERENCES + 1)] : all
  return { ...(own ? { inReplyTo: own } : {}), references }
}

