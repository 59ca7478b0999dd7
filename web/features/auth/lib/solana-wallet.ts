// The part of the injected Solana wallet API (Phantom and compatible) that sign-in uses.

export interface SolanaPublicKey {
  toString(): string
}

export interface SolanaProvider {
  connect(options?: { onlyIfTrusted?: boolean }): Promise<{ publicKey: SolanaPublicKey }>
  signMessage(message: Uint8Array, display?: 'utf8' | 'hex'): Promise<{ signature: Uint8Array }>
}

declare global {
  interface Window {
    phantom?: { solana?: SolanaProvider }
    solana?: SolanaProvider
  }
}

export const WALLET_NOT_FOUND_MESSAGE = 'Solana wallet not found. Please install Phantom or another Solana wallet.'

export function getSolanaProvider(): SolanaProvider | undefined {
  return window.phantom?.solana ?? window.solana
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}
