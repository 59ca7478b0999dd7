// Mail HTML as the browser shows it (the inbox and the Decrypt page). Senders' HTML is hostile:
// DOMPurify removes scripts, event handlers, javascript: links, forms, SVG and <meta refresh>;
// then every resource the message would fetch is decided here, because a remote image is a
// tracking pixel that tells the sender when and where the mail was read (CSS in mail-css.ts, read
// with a real tokenizer, escapes and all). The result is shown in a sandboxed frame (no scripts,
// forms or top navigation) whose own CSP blocks remote loads until the reader asks for images: a
// second wall behind the rewriting. What the frame loads never says where it was read: its
// document sends no Referer (mail-frame.tsx, mailFrameDocument).

export interface SanitizeMailOptions {
  /** cid (RFC 2392, without <>) → data: URL of the image the message carries itself */
  inline: ReadonlyMap<string, string>
  /** the reader pressed "Show images" for this message */
  showRemote: boolean
}

export interface SanitizedMail {
  html: string
  /** remote images and styles left out (0 once they are shown) */
  blockedRemote: number
}

/** Elements never kept: active content, forms, documents inside documents, head-only elements. */
export const FORBID_TAGS = ['script', 'form', 'input', 'button', 'select', 'textarea', 'iframe', 'frame', 'frameset', 'object', 'embed', 'link', 'meta', 'base', 'title']
/** Attributes that make the reader's browser fetch something. */
export const RESOURCE_ATTRIBUTES = ['src', 'srcset', 'background', 'poster', 'lowsrc', 'dynsrc', 'xlink:href']

/** http(s) with a host, or scheme-relative; the URL parser reads "\" as "/" in both (WHATWG URL, special schemes). */
const REMOTE = /^(https?:)?[/\\]{2}/i

export type ResourceDecision = { keep: true; value: string } | { keep: false; remote: boolean }

/** What happens to one resource URL: inline images from their attachment, data: images, remote only when shown. */
export function resourceUrl(value: string, options: SanitizeMailOptions): ResourceDecision {
  // as the URL parser reads it: C0 controls and spaces cut at both ends, tabs and newlines anywhere
  const url = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '')
  const cid = /^cid:(.+)$/i.exec(url)
  if (cid) {
    const inline = options.inline.get(cid[1].replace(/^<|>$/g, ''))
    return inline ? { keep: true, value: inline } : { keep: false, remote: false }
  }
  if (/^data:image\//i.test(url)) return { keep: true, value: url }
  if (REMOTE.test(url)) return options.showRemote ? { keep: true, value: url } : { keep: false, remote: true }
  return { keep: false, remote: false }
}

/** A link is kept only to the web or to mail; anything else (javascript:, data:, relative) is dropped. */
export function safeLink(href: string): boolean {
  return /^(https?:|mailto:)/i.test(href.trim())
}

/** The frame's own policy: nothing remote but images, and those only once shown. */
export function frameCsp(showRemote: boolean): string {
  return [
    "default-src 'none'", `img-src data:${showRemote ? ' https: http:' : ''}`, "style-src 'unsafe-inline'", 'font-src data:', "form-action 'none'",
  ].join('; ')
}

/**
 * The document of the message frame (MailFrame loads it from a blob: URL, which sends no Referer).
 * The referrer meta says the same for any other way of loading it: the frame's referrerpolicy
 * attribute covers only the frame's own navigation, not the requests of the mail in it.
 */
export function mailFrameDocument(html: string, showRemote: boolean): string {
  return '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${frameCsp(showRemote)}">` +
    '<meta name="referrer" content="no-referrer">' +
    '<style>html,body{margin:0}body{padding:12px;font-family:system-ui,sans-serif;font-size:14px;line-height:1.5;color:#111;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}table{max-width:100%}</style>' +
    `</head><body>${html}</body></html>`
}

type Sanitizer = [typeof import('dompurify'), typeof import('./mail-css.ts'), typeof import('./event-handler-attributes.ts')]
let loaded: Sanitizer | undefined
const loadSanitizer = () => Promise.all([import('dompurify'), import('./mail-css.ts'), import('./event-handler-attributes.ts')])
  .then((modules): Sanitizer => (loaded = modules))

/** DOMPurify and the CSS tokenizer fetched ahead, while an inbox page is idle, for the first HTML message. */
export function preloadMailSanitizer(): void {
  loadSanitizer().catch(() => {})
}

/** Sanitizes `html` for the frame. DOMPurify and the CSS tokenizer load on first use, not with the page. */
export async function sanitizeMailHtml(html: string, options: SanitizeMailOptions): Promise<SanitizedMail> {
  return sanitizeWith(loaded ?? (await loadSanitizer()), html, options)
}

/** The same, at once, when DOMPurify and the CSS tokenizer have come (preloadMailSanitizer); else undefined. */
export function sanitizeMailHtmlNow(html: string, options: SanitizeMailOptions): SanitizedMail | undefined {
  return loaded && sanitizeWith(loaded, html, options)
}

function sanitizeWith([{ default: DOMPurify }, { rewriteCss }, { withoutEventHandlers }]: Sanitizer, html: string, options: SanitizeMailOptions): SanitizedMail {
  const purify = DOMPurify(window)
  let blocked = 0
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && node.textContent) {
      const rewritten = rewriteCss(node.textContent, options)
      node.textContent = rewritten.css
      blocked += rewritten.blocked
    }
  })
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase()
    if (RESOURCE_ATTRIBUTES.includes(name)) {
      const decision = resourceUrl(data.attrValue, options)
      if (decision.keep) data.attrValue = decision.value
      else {
        data.keepAttr = false
        if (decision.remote) blocked++
      }
    } else if (name === 'style') {
      // every style attribute: no pattern tells which ones can fetch (`u\72l(…)`, `image-set("…")`)
      const rewritten = rewriteCss(data.attrValue, options)
      blocked += rewritten.blocked
      data.attrValue = rewritten.css
    }
  })
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A' && node.tagName !== 'AREA') return
    const href = node.getAttribute('href')
    if (href !== null && !safeLink(href)) node.removeAttribute('href')
    // Links open outside the frame, in a new tab that cannot reach back to this page.
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer')
  })
  // handlers cut before DOMPurify parses: parsing one in this page logs a CSP violation (event-handler-attributes.ts)
  const clean = purify.sanitize(withoutEventHandlers(html), { USE_PROFILES: { html: true }, FORBID_TAGS, ADD_ATTR: ['target'], FORCE_BODY: true })
  return { html: clean, blockedRemote: blocked }
}
