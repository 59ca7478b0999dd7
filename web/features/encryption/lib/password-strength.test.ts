import { describe, expect, it } from 'vitest'
import { checkPassword, refusalMessage } from './password-strength.ts'

describe('master password strength', () => {
  it('refuses short and common passwords, with the reason zxcvbn gives', async () => {
    for (const password of ['pw', 'password1', 'summer2024', 'aaaaaaaaaaaa']) {
      expect((await checkPassword(password)).accepted, password).toBe(false)
    }
    const common = await checkPassword('password1')
    expect(common.label).toBe('Very weak')
    expect(refusalMessage(common)).toBe('This master password is very weak. Use at least 12 characters, or a stronger password. This is a commonly used password.')
  })

  it('accepts a "Fair" or stronger password, or a long passphrase', async () => {
    for (const password of ['kj8#Lq2!', 'correct horse', 'Tr0ub4dor&3', 'work master pässword 1']) {
      expect((await checkPassword(password)).accepted, password).toBe(true)
    }
    expect((await checkPassword('Tr0ub4dor&3')).label).toBe('Very strong')
  })
})
