// A delivery report (RFC 3464) as a receiving server sends one back to an SRS address (issue 30):
// multipart/report with its message/delivery-status part for one recipient, for tests that send it
// through the real MX.

/** The report's bytes; `filler` pads its text part (for an oversized report). */
export function deliveryReport(srs: string, recipient: string, status = '5.1.1', diagnostic = `smtp; 550 5.1.1 <${recipient}>: user unknown`, filler = ''): string {
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mailbox.example>', `To: ${srs}`, 'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0', 'Content-Type: multipart/report; report-type=delivery-status;\r\n boundary="b0und"', '',
    '--b0und', 'Content-Type: text/plain', '', `Your message could not be delivered.${filler}`, '',
    '--b0und', 'Content-Type: message/delivery-status', '',
    'Reporting-MTA: dns; mx.mailbox.example', '',
    `Final-Recipient: rfc822; ${recipient}`, 'Action: failed', `Status: ${status}`, `Diagnostic-Code: ${diagnostic}`, '',
    '--b0und', 'Content-Type: text/rfc822-headers', '', 'Subject: the forwarded message', '', '--b0und--', '',
  ].join('\r\n')
}
