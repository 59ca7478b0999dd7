// Keys this app keeps in localStorage about the signed-in user, removed at sign-out.
export const WALLET_ADDRESS_KEY = 'walletAddress'
const AUTH_STORAGE_KEYS = [WALLET_ADDRESS_KEY, 'user', 'authMethod'] as const

export function clearStoredAuth() {
  try {
    for (const key of AUTH_STORAGE_KEYS) localStorage.removeItem(key)
  } catch {
    // Storage disabled: nothing was stored either.
  }
}

export function storeWalletAddress(address: string) {
  try {
    localStorage.setItem(WALLET_ADDRESS_KEY, address)
  } catch {
    // Storage disabled: the session cookie is what keeps the user signed in.
  }
}
