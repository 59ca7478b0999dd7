import { describe, expect, it } from 'vitest'
import { FORBID_TAGS, frameCsp, mailFrameDocument, resourceUrl, safeLink } from './mail-html.ts'

const LOGO = 'data:image/png;base64,iVBORw0KGgo='
const blocked = { inline: new Map([['logo@shop', LOGO]]), showRemote: false }
const shown = { ...blocked, showRemote: true }

describe('the mail sanitizer config', () => {
  it('never keeps active content, forms or head elements', () => {
    for (const tag of ['script', 'form', 'input', 'button', 'iframe', 'object', 'embed', 'meta', 'base', 'link']) expect(FORBID_TAGS).toContain(tag)
  })

  it('keeps a remote image only once the reader shows images, and inline ones from their attachment', () => {
    expect(resourceUrl('https://tracker.example/p.gif', blocked)).toEqual({ keep: false, remote: true })
    expect(resourceUrl('  //tracker.example/p.gif', blocked)).toEqual({ keep: false, remote: true })
    expect(resourceUrl('https://tracker.example/p.gif', shown)).toEqual({ keep: true, value: 'https://tracker.example/p.gif' })
    expect(resourceUrl('cid:logo@shop', blocked)).toEqual({ keep: true, value: LOGO })
    expect(resourceUrl('CID:<logo@shop>', blocked)).toEqual({ keep: true, value: LOGO })
    expect(resourceUrl('cid:missing@shop', shown)).toEqual({ keep: false, remote: false })
    expect(resourceUrl(LOGO, blocked)).toEqual({ keep: true, value: LOGO })
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>x</script>', '/api/account', 'file:///etc/passwd', 'http:p.gif', 'https:/p.gif']) {
      expect(resourceUrl(url, shown)).toEqual({ keep: false, remote: false })
    }
  })

  it('reads a URL as the URL parser does: backslashes, tabs and newlines do not hide a remote one', () => {
    for (const url of ['\\\\tracker.example/p.gif', 'https:\\\\tracker.example/p.gif', 'HTTPS:/\\tracker.example/p.gif', 'ht\ttps://tracker.example/p.gif', '\n //tracker.example/p.gif\u0001']) {
      expect(resourceUrl(url, blocked)).toEqual({ keep: false, remote: true })
    }
    expect(resourceUrl('ht\ttps://tracker.example/p.gif', shown)).toEqual({ keep: true, value: 'https://tracker.example/p.gif' })
  })

  it('keeps links to the web and to mail only', () => {
    expect(safeLink('https://shop.example/track')).toBe(true)
    expect(safeLink('mailto:a@b.example')).toBe(true)
    for (const href of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'data:text/html,x', 'vbscript:x', '/inbox/settings', '#top']) expect(safeLink(href)).toBe(false)
  })

  it('puts a policy in the frame that blocks every remote load until images are shown', () => {
    expect(frameCsp(false)).toBe("default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; form-action 'none'")
    expect(frameCsp(true)).toContain('img-src data: https: http:')
    const doc = mailFrameDocument('<p>hi</p>', false)
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<p>hi</p>'))
    expect(doc).toContain(`content="${frameCsp(false)}"`)
    // the mail's own requests (images once shown, CSS backgrounds) name no page of the app
    expect(doc.indexOf('<meta name="referrer" content="no-referrer">')).toBeGreaterThan(0)
    expect(doc.indexOf('<meta name="referrer"')).toBeLessThan(doc.indexOf('<p>hi</p>'))
  })
})
