// A tiny toast store shared by the whole app (one toast at a time, each removed
// 1000 ms after it is dismissed). Components read it with useToasts(); anyone calls toast().
import { useSyncExternalStore } from 'react'

export const TOAST_LIMIT = 1
export const TOAST_REMOVE_DELAY_MS = 1000
export const TOAST_DURATION_MS = 5000
export const TOAST_DESTRUCTIVE_DURATION_MS = 7000

export type ToastVariant = 'default' | 'destructive'

/** One button on a toast (e.g. Undo); clicking it also closes the toast. */
export interface ToastAction {
  label: string
  /** What the button does, for screen readers that reach the toast by the F8 hotkey. */
  altText: string
  onClick: () => void
}

export interface ToastInput {
  title: string
  description?: string
  variant?: ToastVariant
  action?: ToastAction
}

export interface ToastItem extends ToastInput {
  id: string
  open: boolean
}

let toasts: ToastItem[] = []
let counter = 0
const listeners = new Set<() => void>()
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>()

function emit(next: ToastItem[]) {
  toasts = next
  for (const listener of listeners) listener()
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id)
      emit(toasts.filter((t) => t.id !== id))
    }, TOAST_REMOVE_DELAY_MS),
  )
}

export function dismissToast(id?: string) {
  for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id)
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)))
}

/** Shows a toast; the newest replaces any older one. Returns its id. */
export function toast(input: ToastInput): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER
  const id = String(counter)
  const next = [{ ...input, id, open: true }, ...toasts]
  for (const dropped of next.slice(TOAST_LIMIT)) removeTimers.delete(dropped.id)
  emit(next.slice(0, TOAST_LIMIT))
  return id
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => toasts, () => toasts)
}
