// The signed links every forward carries (issue 30). List-Unsubscribe (RFC 2369) with an https URL
// and a mailto, and List-Unsubscribe-Post (RFC 8058) so a mail client's Unsubscribe is one POST
// with no sign-in: it pauses the alias or blocks the sender, as the owner chose. The block link
// is a header of ours (the body is never touched), on unless the owner turned it off. Each link's
// token is single-purpose and bound to the contact (or the alias): lib/link-token.ts. The fields
// are in the DKIM signature's h= (lib/dkim-signer.ts), as RFC 8058 §4 requires.
import { signLinkToken } from '../../lib/link-token.ts'
import { makeField, type HeaderField } from '../../lib/raw-message.ts'

export const BLOCK_HEADER = 'X-Veilmail-Block-Sender'

/** Fields of ours that an upstream message's copies of would contradict: dropped from it (one List-Unsubscribe, RFC 2369 §2). */
export const LINK_FIELDS = ['list-unsubscribe', 'list-unsubscribe-post', BLOCK_HEADER.toLowerCase()]

export interface ForwardLinks {
  unsubscribeUrl: string
  unsubscribeMailto: string
  /** absent: no sender to block, or the owner turned the link off */
  blockUrl?: string
}

/** Where a token is used: POST acts (RFC 8058), GET shows what it would do (link scanners prefetch). */
export const linkUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/api/unsubscribe/${token}`

/** The mailto of RFC 2369: an address the MX acts on (workers/mail/mx-recipients.ts). */
export const unsubscribeAddress = (token: string, domain: string) => `unsubscribe+${token}@${domain}`

export function forwardLinks(o: { secretKey: string; publicUrl: string; mailDomain: string; aliasId: string; contactId?: string; blockLink: boolean }): ForwardLinks {
  const subject = o.contactId ? { kind: 'contact' as const, id: o.contactId } : { kind: 'alias' as const, id: o.aliasId }
  const unsubscribe = signLinkToken(o.secretKey, { purpose: 'unsubscribe', ...subject })
  return {
    unsubscribeUrl: linkUrl(o.publicUrl, unsubscribe),
    unsubscribeMailto: `mailto:${unsubscribeAddress(unsubscribe, o.mailDomain)}?subject=unsubscribe`,
    ...(o.contactId && o.blockLink ? { blockUrl: linkUrl(o.publicUrl, signLinkToken(o.secretKey, { purpose: 'block', kind: 'contact', id: o.contactId })) } : {}),
  }
}

export function linkFields(links: ForwardLinks): HeaderField[] {
  return [
    makeField('List-Unsubscribe', `<${links.unsubscribeUrl}>, <${links.unsubscribeMailto}>`),
    makeField('List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'),
    ...(links.blockUrl ? [makeField(BLOCK_HEADER, `<${links.blockUrl}>`)] : []),
  ]
}
