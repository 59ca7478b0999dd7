// Blocked senders and one-click unsubscribe (issue 30): the Settings choices, a contact's block
// switch, and what the dashboard and the confirmation page show. No Node-only imports.
import * as v from 'valibot'

export const UNSUBSCRIBE_ACTIONS = ['pause', 'block'] as const
export const BLOCKED_REPLIES = ['refuse', 'drop'] as const

export const SenderBlockSettingsSchema = v.object({
  unsubscribeAction: v.picklist(UNSUBSCRIBE_ACTIONS, 'Choose whether Unsubscribe pauses the alias or blocks the sender'),
  blockedReply: v.picklist(BLOCKED_REPLIES, 'Choose whether a blocked sender is refused or dropped silently'),
  blockLink: v.boolean('Choose whether forwards carry the block link'),
})
export type SenderBlockSettingsView = v.InferOutput<typeof SenderBlockSettingsSchema>

export const ContactBlockSchema = v.object({ blocked: v.boolean('blocked must be true or false') })

export interface ContactView {
  id: string
  address: string
  name: string | null
  /** the first mail that named it */
  firstMailAt: string
  /** the last mail from it that was forwarded; null when it was only ever a To/Cc address */
  lastMailAt: string | null
  forwarded: number
  /** its mail refused or dropped since it was blocked */
  blocked: number
  blockedAt: string | null
}

export interface UnsubscribeEventView {
  id: string
  aliasId: string
  alias: string
  /** the blocked sender; null when the alias was paused */
  contact: string | null
  action: (typeof UNSUBSCRIBE_ACTIONS)[number]
  /** a mail client's Unsubscribe (one-click POST), the link in a browser, or the unsubscribe mailto */
  via: 'one-click' | 'link' | 'mailto'
  createdAt: string
}

/** What a link token does, for the confirmation page; `status` other than ok: why it would be refused. */
export type LinkDetailsView =
  | { status: 'ok'; action: 'pause' | 'block'; alias: string; contact: string | null }
  | { status: 'invalid' | 'expired' | 'used' | 'gone' }
