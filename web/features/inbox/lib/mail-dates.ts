// Date formats: the list shows M/d on mobile and MMM d on desktop (today's mail its time, another
// year's mail with the year), the detail
// "MMM d, yyyy at h:mm a". Local time, as the reader's mail program would.
const pad = (n: number) => String(n).padStart(2, '0')
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** The list's date, as mail programs show it: today's mail its time, this year's M/d or MMM d, older mail with its year. */
export function listDate(iso: string, mobile: boolean, now = new Date()): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  if (d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()) return clockTime(d)
  if (d.getFullYear() !== now.getFullYear()) {
    return mobile ? `${d.getMonth() + 1}/${d.getDate()}/${String(d.getFullYear() % 100).padStart(2, '0')}` : `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`
  }
  return mobile ? `${d.getMonth() + 1}/${d.getDate()}` : `${MONTHS[d.getMonth()]} ${d.getDate()}`
}

const clockTime = (d: Date) => `${d.getHours() % 12 || 12}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`

export function detailDate(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()} at ${clockTime(d)}`
}

/** The specification's storage estimate: about 5.2 KB an e-mail. */
export const KB_PER_EMAIL = 5.2

/** Storage card: the estimate for `emails` messages (the specification's, not the stored bytes), rounded: "~57 KB", "~1.2 MB". */
export function storageText(emails: number): string {
  const kb = emails * KB_PER_EMAIL
  if (kb === 0) return '0 KB'
  if (kb < 1024) return `~${Math.max(1, Math.round(kb))} KB`
  if (kb < 1024 ** 2) return `~${(kb / 1024).toFixed(1)} MB`
  return `~${(kb / 1024 ** 2).toFixed(1)} GB`
}
