// Sign-In-With-Solana style message (modelled on EIP-4361 / CAIP-122): the wallet signs text
// naming our domain, its own address and a single-use nonce, so a signature cannot be replayed
// elsewhere or later.
export interface WalletMessage {
  domain: string
  address: string
  uri: string
  nonce: string
  issuedAt: string
  expirationTime: string
}

const STATEMENT = 'Sign in to Veilmail. This request will not trigger a blockchain transaction or cost any fees.'

export function formatWalletMessage(m: WalletMessage): string {
  return [
    `${m.domain} wants you to sign in with your Solana account:`,
    m.address,
    '',
    STATEMENT,
    '',
    `URI: ${m.uri}`,
    'Version: 1',
    'Chain ID: mainnet',
    `Nonce: ${m.nonce}`,
    `Issued At: ${m.issuedAt}`,
    `Expiration Time: ${m.expirationTime}`,
  ].join('\n')
}

/** Parses a message we issued; anything else (other layout, extra lines) is undefined. */
export function parseWalletMessage(text: string): WalletMessage | undefined {
  const lines = text.split('\n')
  if (lines.length !== 11) return undefined
  const head = /^(.+) wants you to sign in with your Solana account:$/.exec(lines[0])
  const field = (line: string, name: string) => (line.startsWith(`${name}: `) ? line.slice(name.length + 2) : undefined)
  const parsed = {
    domain: head?.[1],
    address: lines[1],
    uri: field(lines[5], 'URI'),
    nonce: field(lines[8], 'Nonce'),
    issuedAt: field(lines[9], 'Issued At'),
    expirationTime: field(lines[10], 'Expiration Time'),
  }
  if (Object.values(parsed).some((v) => !v)) return undefined
  if (lines[2] !== '' || lines[3] !== STATEMENT || lines[4] !== '' || lines[6] !== 'Version: 1' || lines[7] !== 'Chain ID: mainnet') return undefined
  return parsed as WalletMessage
}
