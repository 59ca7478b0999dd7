// An X25519 age recipient (public key): "age1" and 58 Bech32 characters. Free of Node-only
// imports: the compose and settings forms check keys with it too.
export const AGE_RECIPIENT_RE = /^age1[02-9ac-hj-np-z]{58}$/

export const isAgeRecipient = (key: string) => AGE_RECIPIENT_RE.test(key.trim())
