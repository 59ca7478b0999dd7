// A failed send from the compose dialog: every queue failure under one title, with the
// server's message turned into advice the reader can act on.
import type { ToastInput } from '../../../components/ui/use-toast.ts'

export const SEND_ERROR_TITLE = 'Unable to send email'

const ADVICE: [RegExp, string][] = [
  [/block ?list|black ?list|blocked/i, 'Email delivery temporarily delayed due to server restrictions. Please try again in a few minutes.'],
  [/authenticat|credential/i, 'Email settings need updating. Please check your email configuration in Settings.'],
  [/invalid recipient|unknown user|user unknown/i, "Please check the recipient's email address and try again."],
]
const DEFAULT_ADVICE = 'Unable to process your email right now. Please try again in a moment.'

/** The advice for a send failure's message; the first matching rule above wins. */
export function sendErrorMessage(message: string | undefined | null): string {
  const text = message ?? ''
  return ADVICE.find(([pattern]) => pattern.test(text))?.[1] ?? DEFAULT_ADVICE
}

export function sendErrorToast(message: string | undefined | null): ToastInput {
  return { title: SEND_ERROR_TITLE, description: sendErrorMessage(message), variant: 'destructive' }
}
