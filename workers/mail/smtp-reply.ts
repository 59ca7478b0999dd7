// An SMTP answer raised from a handler: smtp-server sends `responseCode message`. Messages carry
// their enhanced status code (RFC 3463) and never echo an address.
export class SmtpReply extends Error {
  readonly responseCode: number

  constructor(responseCode: number, message: string) {
    super(message)
    this.name = 'SmtpReply'
    this.responseCode = responseCode
  }
}

export const replies = {
  relayDenied: () => new SmtpReply(550, '5.7.1 Relaying denied'),
  unknownMailbox: () => new SmtpReply(550, '5.1.1 No such mailbox here'),
  badMailbox: () => new SmtpReply(553, '5.1.3 Bad destination mailbox address syntax'),
  badSender: () => new SmtpReply(553, '5.1.7 Bad sender mailbox address syntax'),
  notARecipient: () => new SmtpReply(550, '5.7.1 Only the alias owner may write to this reply address'),
  replyNotAuthenticated: () => new SmtpReply(550, '5.7.1 Reply not authenticated: it must come from the alias owner\'s mailbox with SPF or DKIM passing'),
  dmarcReject: () => new SmtpReply(550, '5.7.1 Message rejected by the sender domain\'s DMARC policy'),
  tooBig: (max: number) => new SmtpReply(552, `5.3.4 Message exceeds fixed maximum message size of ${max} bytes`),
  lineTooLong: (max: number) => new SmtpReply(554, `5.6.0 Message has a line longer than ${max} bytes`),
  headerTooLong: (max: number) => new SmtpReply(552, `5.3.4 Message header exceeds ${max} bytes`),
  loop: () => new SmtpReply(554, '5.4.6 Routing loop detected'),
  tryLater: () => new SmtpReply(451, '4.3.0 Temporary failure, please try again later'),
  busy: () => new SmtpReply(451, '4.3.2 Too many large messages arriving at once, please try again later'),
  /** at the greeting, so it names the host (RFC 5321 §4.2: "421 <domain> Service not available") */
  tooManyFromYou: (host: string) => new SmtpReply(421, `${host} 4.7.0 Too many connections from your address, try again later`),
  /** the MX's total cap, in smtp-server's words for the same cap */
  tooManyClients: (host: string) => new SmtpReply(421, `${host} Too many connected clients, try again in a moment`),
  authTempFail: () => new SmtpReply(451, '4.7.0 Temporary authentication failure, please try again later'),
  /** rspamd's action `reject` (workers/mx/spam-check.ts) */
  spam: () => new SmtpReply(550, '5.7.1 Message refused as spam'),
  /** rspamd's `soft reject` or `greylist` */
  spamTryLater: () => new SmtpReply(451, '4.7.1 Message deferred by the spam filter, please try again later'),
}
