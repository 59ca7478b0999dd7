// A draft whose sending was undone goes back into the compose form, as in Gmail: if the form is
// on screen it takes the draft at once, otherwise the next compose form that opens takes it.
import type { ComposeValues } from './compose-form.ts'

let waiting: ComposeValues | undefined
const listeners = new Set<() => void>()

export function restoreUndoneDraft(draft: ComposeValues) {
  waiting = draft
  for (const listener of listeners) listener()
}

/** Hands the waiting draft to exactly one taker. */
export function takeUndoneDraft(): ComposeValues | undefined {
  const draft = waiting
  waiting = undefined
  return draft
}

export function onUndoneDraft(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
