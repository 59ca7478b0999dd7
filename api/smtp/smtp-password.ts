// SMTP passwords: 192 random bits, sealed for reveal (the credential id as associated data) and
// hashed with argon2id for SMTP AUTH. A new password replaces both at once.
import { randomBytes } from 'node:crypto'
import { hashPassword } from '../../lib/password.ts'
import { SecretBox } from '../../lib/secret-box.ts'

export const smtpPasswordBox = (secretKey: string) => new SecretBox(secretKey, 'smtp-password')

export function generateSmtpPassword(): string {
  return randomBytes(24).toString('base64url')
}

export async function protectSmtpPassword(secretKey: string, credentialId: string, password: string) {
  return {
    encryptedPassword: smtpPasswordBox(secretKey).seal(password, credentialId),
    passwordVerifier: await hashPassword(password),
  }
}
