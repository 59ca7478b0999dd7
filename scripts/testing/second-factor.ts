// Tests' side of a second factor: an authenticator app made from the otpauth:// URI the server
// hands out, by an independent implementation (the otpauth package), never by our lib/totp.ts.
import * as OTPAuth from 'otpauth'
import type { ApiClient } from './api-client.ts'

export interface Authenticator {
  /** the code `offset` time steps from now (0: the current one) */
  code(offset?: number): string
  /** the current step number, to tell whether a step boundary passed during a request */
  step(): number
}

export function authenticatorFor(otpauthUri: string): Authenticator {
  const totp = OTPAuth.URI.parse(otpauthUri)
  if (!(totp instanceof OTPAuth.TOTP)) throw new Error('not a TOTP URI')
  return {
    code: (offset = 0) => totp.generate({ timestamp: Date.now() + offset * totp.period * 1000 }),
    step: () => Math.floor(Date.now() / 1000 / totp.period),
  }
}

/** Turns TOTP on for the client's account through the API; the code confirming it is of `confirmOffset` steps. */
export async function enableTotp(client: ApiClient, confirmOffset = 0): Promise<{ authenticator: Authenticator; recoveryCodes: string[]; otpauthUri: string; secret: string }> {
  const started = await client.json(client.post('/api/account/totp'))
  if (started.status !== 201) throw new Error(`enrolment failed: ${started.status} ${JSON.stringify(started.body)}`)
  const authenticator = authenticatorFor(started.body.otpauthUri)
  const confirmed = await client.json(client.post('/api/account/totp/confirm', { code: authenticator.code(confirmOffset) }))
  if (confirmed.status !== 200) throw new Error(`confirmation failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`)
  return { authenticator, recoveryCodes: confirmed.body.recoveryCodes, ...started.body }
}

/**
 * Sends what `send(code)` sends with the code of `offset` steps from now, again if a step boundary
 * passed meanwhile (the code's distance from "now" would not be what the test meant).
 */
export async function withCodeAt<T>(authenticator: Authenticator, offset: number, send: (code: string) => Promise<T>): Promise<T> {
  for (;;) {
    const before = authenticator.step()
    const result = await send(authenticator.code(offset))
    if (authenticator.step() === before) return result
  }
}
