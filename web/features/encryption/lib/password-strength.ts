// Master password strength with zxcvbn-ts. Its dictionaries are large, so they load on first use
// (a chunk of their own), not with the page; the length rule needs nothing loaded.
import type { ZxcvbnFactory } from '@zxcvbn-ts/core'

/** zxcvbn's scores 0–4 with the names password meters commonly use. */
export const STRENGTH_LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const
export const LONG_PASSWORD = 12
/** "Fair" and up: zxcvbn guesses it in no fewer than 10^8 tries (its score 2). */
const ACCEPTED_SCORE = 2

export interface PasswordStrength {
  score: 0 | 1 | 2 | 3 | 4
  label: (typeof STRENGTH_LABELS)[number]
  /** zxcvbn's warning ("This is a commonly used password."), or empty */
  warning: string
  suggestions: string[]
  accepted: boolean
}

let estimator: Promise<ZxcvbnFactory> | undefined

export function loadPasswordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then(
    ([core, common, en]) =>
      new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
      }),
  )
  estimator.catch(() => (estimator = undefined)) // a failed chunk load is retried next time
  return estimator
}

/**
 * Accepted when zxcvbn rates it "Fair" or better, or when it has at least 12 characters and is not
 * "Very weak": a long passphrase passes even if rated "Weak", but "aaaaaaaaaaaa" or a leaked
 * password padded to length does not.
 */
export function judgePassword(zxcvbn: ZxcvbnFactory, password: string): PasswordStrength {
  const result = zxcvbn.check(password)
  const score = result.score
  const accepted = score >= ACCEPTED_SCORE || ([...password].length >= LONG_PASSWORD && score >= 1)
  return { score, label: STRENGTH_LABELS[score], warning: result.feedback.warning ?? '', suggestions: result.feedback.suggestions, accepted }
}

export async function checkPassword(password: string): Promise<PasswordStrength> {
  return judgePassword(await loadPasswordEstimator(), password)
}

/** The sentence shown when a password is refused. */
export function refusalMessage(strength: PasswordStrength): string {
  const why = strength.warning || strength.suggestions[0] || ''
  return `This master password is ${strength.label.toLowerCase()}. Use at least ${LONG_PASSWORD} characters, or a stronger password.${why ? ` ${why}` : ''}`
}
