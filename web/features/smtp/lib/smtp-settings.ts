// What a mail app needs besides the username and password. The host and the ports come
// from the server, which knows its public name and the ports mail clients reach it on.
export const SMTP_PASSWORD_DISPLAY_MS = 30_000

export interface SmtpPort {
  id: keyof SmtpPublicPorts
  port: number
  /** The label next to the port: TLS (STARTTLS) or SSL (implicit TLS). */
  security: 'TLS' | 'SSL'
  /** How mail apps name the setting (Thunderbird, Apple Mail). */
  hint: string
}

export interface SmtpPublicPorts { starttls: number; tls: number }

// Usually 587: submission with STARTTLS (RFC 6409, RFC 3207); usually 465: submission over
// implicit TLS (RFC 8314). The numbers are whatever the server is reachable on.
export function smtpPorts(ports: SmtpPublicPorts): readonly SmtpPort[] {
  return [
    { id: 'starttls', port: ports.starttls, security: 'TLS', hint: 'STARTTLS' },
    { id: 'tls', port: ports.tls, security: 'SSL', hint: 'SSL/TLS' },
  ]
}

export const SMTP_SETUP_GUIDE_URL = 'https://github.com/veilmail/veilmail#sending-from-an-alias'
