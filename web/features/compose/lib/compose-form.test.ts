import { describe, expect, it } from 'vitest'
import type { AliasView } from '../../../../shared/alias-schemas.ts'
import { composeErrors, EMPTY_COMPOSE, initialShareChoice, MANUAL_KEY, senderAliases, validateCompose, type ComposeValues } from './compose-form.ts'

const ALIAS_ID = '6f1c2a4e-8b7d-4c3a-9e2f-1a2b3c4d5e6f'
const KEY = 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p'
const OTHER_KEY = 'age1lggyhqrw2nlhcxprm67z43rta597azn8gknawjehu9d9dl0jq3yqqvfafg'
const filled: ComposeValues = { ...EMPTY_COMPOSE, fromAlias: ALIAS_ID, to: ' friend@example.com ', subject: ' Hello ', body: 'Hi there\n' }

describe('validateCompose', () => {
  it('shows the form messages for every missing field at once', () => {
    expect(validateCompose({ ...EMPTY_COMPOSE, useEncryption: true, shareMyPublicKey: true })).toEqual({
      success: false,
      errors: {
        to: 'Please enter a valid email address',
        subject: 'Subject is required',
        body: 'Message body is required',
        fromAlias: 'Please select a sender alias',
        recipientPublicKey: "Recipient's public key is required when encryption is enabled",
        myPublicKeyToShare: 'Please select or enter your public key to share',
      },
    })
  })

  it('names the bad address of To or Cc, says "Please enter a valid email address" for a line break, and refuses a blank body', () => {
    const result = validateCompose({ ...filled, to: 'friend@example.com, not an address', cc: 'carol@example.com; bad@', body: '  \n ' })
    expect(result).toEqual({ success: false, errors: { to: '"not an address" is not a valid email address', cc: '"bad@" is not a valid email address', body: 'Message body is required' } })
    expect(validateCompose({ ...filled, cc: 'carol@example.com\nBcc: evil@example.org' })).toEqual({ success: false, errors: { cc: 'Please enter a valid email address' } })
    const many = Array.from({ length: 51 }, (_, i) => `p${i}@example.org`)
    expect(validateCompose({ ...filled, to: many.slice(0, 20).join(', '), cc: many.slice(20).join(', ') })).toEqual({ success: false, errors: { cc: 'A message can go to at most 50 recipients (To and Cc together)' } })
  })

  it('sends To and Cc as lists, each address once', () => {
    const result = validateCompose({ ...filled, to: 'ann@example.org, bob@example.net,', cc: ' carol@example.com ; ANN@example.org ' })
    expect(result).toMatchObject({ success: true, request: { to: ['ann@example.org', 'bob@example.net'], cc: ['carol@example.com'] } })
  })

  it('builds the trimmed request, sending no key when encryption is off', () => {
    const result = validateCompose({ ...filled, recipientPublicKey: KEY, shareMyPublicKey: true, myPublicKeyToShare: OTHER_KEY })
    expect(result).toEqual({
      success: true,
      request: {
        to: ['friend@example.com'], cc: [], subject: 'Hello', body: 'Hi there\n', fromAliasId: ALIAS_ID,
        useEncryption: false, recipientPublicKey: undefined, shareMyPublicKey: false, myPublicKeyToShare: undefined, priority: 0,
      },
    })
  })

  it('shares a saved key or the typed one', () => {
    const saved = validateCompose({ ...filled, useEncryption: true, recipientPublicKey: ` ${KEY} `, shareMyPublicKey: true, myPublicKeyToShare: OTHER_KEY })
    expect(saved.success && saved.request).toMatchObject({ useEncryption: true, recipientPublicKey: KEY, shareMyPublicKey: true, myPublicKeyToShare: OTHER_KEY })
    const typed = validateCompose({ ...filled, useEncryption: true, recipientPublicKey: KEY, shareMyPublicKey: true, myPublicKeyToShare: MANUAL_KEY, manualPublicKey: OTHER_KEY })
    expect(typed.success && typed.request).toMatchObject({ myPublicKeyToShare: OTHER_KEY })
  })

  it('puts the missing typed key under the textarea and checks the key format', () => {
    const result = validateCompose({ ...filled, useEncryption: true, recipientPublicKey: 'age1nope', shareMyPublicKey: true, myPublicKeyToShare: MANUAL_KEY })
    expect(result).toEqual({
      success: false,
      errors: { recipientPublicKey: 'Not a valid age public key (age1…)', manualPublicKey: 'Please select or enter your public key to share' },
    })
  })
})

describe('composeErrors', () => {
  it('maps a server errors map onto the form fields', () => {
    expect(composeErrors({ fromAliasId: ['Please select a sender alias'], to: ['Header values cannot contain line breaks'], body: ['Email body is required'] }, filled)).toEqual({
      fromAlias: 'Please select a sender alias', to: 'Please enter a valid email address', body: 'Message body is required',
    })
  })
})

describe('senderAliases', () => {
  const alias = (over: Partial<AliasView>): AliasView => ({
    id: ALIAS_ID, userId: 'u', alias: 'shop', domain: 'veilmail.test', forwardTo: 'me@example.com', lastForwardTo: null, active: true, encryptForwarded: true, spamHandling: 'tag', madeBy: null, hostname: null,
    notes: null, createdAt: '', updatedAt: '', counters: { forwarded: 0, replied: 0, dropped: 0, failed: 0, spam: 0 }, ...over,
  })

  it('offers the active aliases as alias@domain', () => {
    expect(senderAliases([alias({}), alias({ id: 'b', alias: 'off', active: false }), alias({ id: 'c', alias: 'paused', forwardTo: 'null' })])).toEqual([
      { id: ALIAS_ID, address: 'shop@veilmail.test' },
    ])
  })
})

describe('initialShareChoice', () => {
  const key = (publicKey: string, isDefault = false) => ({ id: publicKey, keyName: publicKey, publicKey, isDefault })

  it('picks the default key, else the newest, else typing one; nothing while the keys load', () => {
    expect(initialShareChoice([key(KEY), key(OTHER_KEY, true)])).toBe(OTHER_KEY)
    expect(initialShareChoice([key(KEY), key(OTHER_KEY)])).toBe(KEY)
    expect(initialShareChoice([])).toBe(MANUAL_KEY)
    expect(initialShareChoice(undefined)).toBe('')
  })
})
