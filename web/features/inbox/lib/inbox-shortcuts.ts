// The inbox's keyboard shortcuts (README "Inbox"), as mail programs have them: one key, no
// modifier, never while the reader is typing in a field or a dialog is open. The "?" dialog lists
// this table, so it names exactly the keys that are bound.

export type ShortcutAction =
  | 'next' | 'previous' | 'open' | 'back' | 'reply' | 'replyAll' | 'forward' | 'compose' | 'archive' | 'delete' | 'star' | 'search' | 'help'

/** key (KeyboardEvent.key) → action; Enter opens like "o". */
const KEYS: Record<string, ShortcutAction> = {
  j: 'next', k: 'previous', o: 'open', Enter: 'open', u: 'back', r: 'reply', a: 'replyAll', f: 'forward', c: 'compose',
  e: 'archive', '#': 'delete', s: 'star', '/': 'search', '?': 'help',
}

export interface ShortcutHelp {
  keys: string[]
  text: string
}

/** What the "?" dialog lists, by where the keys work. "/" only while the inbox shows a search box. */
export function shortcutHelp(searchBox: boolean): { title: string; shortcuts: ShortcutHelp[] }[] {
  return [
    {
      title: 'Anywhere in the inbox',
      shortcuts: [
        { keys: ['c'], text: 'Compose a new email' },
        ...(searchBox ? [{ keys: ['/'], text: 'Search' }] : []),
        { keys: ['?'], text: 'Show these shortcuts' },
      ],
    },
    {
      title: 'In the list',
      shortcuts: [
        { keys: ['j'], text: 'Next conversation' },
        { keys: ['k'], text: 'Previous conversation' },
        { keys: ['o', 'Enter'], text: 'Open the conversation' },
        { keys: ['s'], text: 'Star or unstar' },
        { keys: ['e'], text: 'Archive (selected conversations, else the current one)' },
        { keys: ['#'], text: 'Delete (selected conversations, else the current one)' },
      ],
    },
    {
      title: 'In a message',
      shortcuts: [
        { keys: ['j'], text: 'Next conversation of the list' },
        { keys: ['k'], text: 'Previous conversation of the list' },
        { keys: ['u'], text: 'Back to the list' },
        { keys: ['r'], text: 'Reply' },
        { keys: ['a'], text: 'Reply all' },
        { keys: ['f'], text: 'Forward' },
        { keys: ['s'], text: 'Star or unstar' },
        { keys: ['e'], text: 'Archive' },
        { keys: ['#'], text: 'Delete' },
      ],
    },
  ]
}

/** The part of a keydown the table reads (a KeyboardEvent, or a test's plain object). */
export interface KeyPress {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  /** the focused element: typing there is text, not a shortcut */
  target: FocusedElement | null
}

type FocusedElement = { tagName?: string; type?: string; isContentEditable?: boolean }

/** Inputs that take no text: a key pressed on a row's checkbox is still a shortcut. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image'])

/** The reader is typing there (a text field, a select, an editable element): keys are text, and the focus stays. */
export function isTypingTarget(target: FocusedElement | null): boolean {
  if (!target) return false
  const tag = target.tagName?.toUpperCase() ?? ''
  if (tag === 'INPUT') return !NOT_TEXT.has((target.type ?? 'text').toLowerCase())
  return tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable === true
}

/**
 * The action of a key press, or undefined: with Ctrl, Cmd or Alt (the browser's and the system's
 * keys), in a field, or a key that is not bound. Shift is allowed: "?" and "#" need it.
 */
export function shortcutAction(press: KeyPress): ShortcutAction | undefined {
  if (press.ctrlKey || press.metaKey || press.altKey) return undefined
  if (isTypingTarget(press.target)) return undefined
  return Object.hasOwn(KEYS, press.key) ? KEYS[press.key] : undefined
}
