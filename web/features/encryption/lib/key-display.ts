import { copyToClipboard } from '../../../lib/copy-text.ts'

const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' })

export const formatKeyDate = (iso: string) => DATE.format(new Date(iso))

/** Clicking the public key (or Copy Public Key) copies it and shows a Copied toast. */
export const copyPublicKey = (publicKey: string): Promise<void> =>
  copyToClipboard(publicKey, { title: 'Copied', description: 'Public key copied to clipboard.' })
