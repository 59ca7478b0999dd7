// Bounces (issue 30): what the dashboard shows and the setting it saves.
import * as v from 'valibot'

export const MAX_BOUNCE_THRESHOLD = 100

export const BounceSettingsSchema = v.object({
  threshold: v.pipe(v.number(), v.integer('A whole number, please'), v.minValue(1, 'At least 1'), v.maxValue(MAX_BOUNCE_THRESHOLD, `At most ${MAX_BOUNCE_THRESHOLD}`)),
})

export interface BounceEntryView {
  alias: string
  target: string
  code: number
  reason: string
  /** refusals of this (alias, target) the notice covers */
  count: number
  /** the target is marked: forwards to it are held */
  disabled: boolean
  /** a reply the user sent through a reverse alias (target: the contact), not a forward */
  reply?: boolean
}

export interface BounceNoticeView {
  id: string
  entries: BounceEntryView[]
  createdAt: string
}
