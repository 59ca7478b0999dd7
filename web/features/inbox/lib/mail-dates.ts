// Date formats: the list shows M/d on mobile and MMM d on desktop, the detail
// "MMM d, yyyy at h:mm a". Local time, as the reader's mail program would.
const pad = (n: number) => String(n).padStart(2, '0')
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

export function listDate(iso: string, mobile: boolean): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return mobile ? `${d.getMonth() + 1}/${d.getDate()}` : `${MONTHS[d.getMonth()]} ${d.getDate()}`
}

export function detailDate(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const hours = d.getHours() % 12 || 12
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()} at ${hours}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`
}

/** Storage card: real bytes of the stored mail. */
export function storageText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`
}
