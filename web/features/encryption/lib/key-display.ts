import { toast } from '../../../components/ui/use-toast.ts'

const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' })

export const formatKeyDate = (iso: string) => DATE.format(new Date(iso))

/** Spec §2: clicking the public key copies it and shows a Copied toast. */
export async function copyPublicKey(publicKey: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(publicKey)
    toast({ title: 'Copied', description: 'Public key copied to clipboard.' })
  } catch {
    toast({ title: 'Copy failed', description: 'Failed to copy text to clipboard.', variant: 'destructive' })
  }
}
