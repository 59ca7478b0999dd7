// Signed link tokens (issue 30) against hostile input: a token verifies only as issued (the same
// letters, any case), for its purpose and id, until it expires; altered, truncated, padded,
// re-spelled (the last letter's spare bits) or signed with another key, it is not ours.
import { describe, expect, it } from 'vitest'
import { LINK_TOKEN_DAYS, linkTokenHash, signLinkToken, verifyLinkToken } from './link-token.ts'

const KEY = 'a secret key for these tests only'
const id = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d'

describe('link tokens', () => {
  it('verify as issued: purpose, subject and expiry; upper case is the same token', () => {
    const now = new Date('2026-11-27T12:00:00Z')
    const token = signLinkToken(KEY, { purpose: 'block', kind: 'contact', id }, now)
    expect(token).toMatch(/^[a-z2-7]{50}$/)
    const subject = verifyLinkToken(KEY, token, now)
    expect(subject).toEqual({ purpose: 'block', kind: 'contact', id, expiresAt: new Date(now.getTime() + LINK_TOKEN_DAYS * 86_400_000) })
    expect(verifyLinkToken(KEY, token.toUpperCase(), now)).toEqual(subject)
    expect(linkTokenHash(token.toUpperCase())).toEqual(linkTokenHash(token))
    expect(verifyLinkToken(KEY, signLinkToken(KEY, { purpose: 'unsubscribe', kind: 'alias', id }, now), now)).toMatchObject({ purpose: 'unsubscribe', kind: 'alias', id })
  })

  it('refuses altered, re-spelled, cut, padded, foreign and expired tokens', () => {
    const now = new Date('2026-11-27T12:00:00Z')
    const token = signLinkToken(KEY, { purpose: 'unsubscribe', kind: 'contact', id }, now)
    const flip = (at: number) => token.slice(0, at) + (token[at] === 'a' ? 'b' : 'a') + token.slice(at + 1)
    for (const at of [0, 1, 20, 35, 48]) expect(verifyLinkToken(KEY, flip(at), now)).toBeUndefined()
    // 31 bytes are 248 bits: the last letter carries 2 spare bits; another spelling of the same bytes is refused
    const last = 'abcdefghijklmnopqrstuvwxyz234567'
    const index = last.indexOf(token[49])
    const respelled = token.slice(0, 49) + last[index ^ 1]
    expect(respelled).not.toBe(token)
    expect(verifyLinkToken(KEY, respelled, now)).toBeUndefined()
    for (const bad of [token.slice(0, 49), token + 'a', ` ${token}`, `${token}=`, token.replace(/a/g, '0'), '', 'x'.repeat(5000), token.slice(0, 25) + '/' + token.slice(26)]) {
      expect(verifyLinkToken(KEY, bad, now)).toBeUndefined()
    }
    expect(verifyLinkToken('another key', token, now)).toBeUndefined()
    expect(verifyLinkToken(KEY, token, new Date(now.getTime() + LINK_TOKEN_DAYS * 86_400_000))).toBe('expired')
  })
})
