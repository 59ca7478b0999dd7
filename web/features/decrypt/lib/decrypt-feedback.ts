// What a failed attempt on the Decrypt page says.
import type { ToastInput } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { AgeError } from '../../../lib/age/age-client.ts'

export function decryptFailureToast(error: unknown, { manual = false } = {}): ToastInput {
  if (error instanceof AgeError) {
    if (error.kind === 'needs-recreation') {
      return { title: 'Encryption key needs update', description: 'This key was created with an older method. Please delete it and create a new one in Settings.', variant: 'destructive' }
    }
    return { title: 'Decryption failed', description: error.message || 'Failed to decrypt the message.', variant: 'destructive' }
  }
  const message = errorMessage(error, '')
  if (!manual && /master password protection/i.test(message)) {
    return { title: 'Key Compatibility Issue', description: 'This encryption key uses master password protection. Create a new key in Settings for auto-decrypt, or use manual decrypt below.', variant: 'destructive' }
  }
  return { title: 'Decryption failed', description: message || 'An error occurred while decrypting the message.', variant: 'destructive' }
}
