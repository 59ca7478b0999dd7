// What a mail app needs besides the username and password (spec §9). The host comes from the
// server, which knows its public name; the ports are those the submission server listens on.
export const SMTP_PASSWORD_DISPLAY_MS = 30_000

export interface SmtpPort {
  port: number
  /** The label spec §2 and §9 give the port. */
  security: 'TLS' | 'SSL'
  /** How mail apps name the setting (Thunderbird, Apple Mail). */
  hint: string
}

// 587: submission with STARTTLS (RFC 6409, RFC 3207); 465: submission over implicit TLS (RFC 8314).
export const SMTP_PORTS: readonly SmtpPort[] = [
  { port: 587, security: 'TLS', hint: 'STARTTLS' },
  { port: 465, security: 'SSL', hint: 'SSL/TLS' },
]

export const SMTP_SETUP_GUIDE_URL = 'https://github.com/veilmail/veilmail#sending-from-an-alias'
