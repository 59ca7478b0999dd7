// Event-handler attributes (onload, onerror, …) cut out of mail HTML before the browser parses it.
// Not a security step: DOMPurify drops them anyway and the page's CSP would refuse to run them.
// But Chromium reports a CSP violation for every inline handler it merely parses in this page
// (DOMParser, createHTMLDocument and <template> alike: their documents share this page's policy),
// so every HTML message with one filled the console with "Executing inline event handler violates
// … script-src 'self'". Read by htmlparser2's HTML tokenizer, so an "on…=" in text, a comment or a
// <style> stays; where it reads a tag differently from the browser, the worst is a violation logged.
import { Tokenizer } from 'htmlparser2'

const noop = () => {}

/** `html` with every attribute whose name starts with "on" (HTML has no other) removed from its tags. */
export function withoutEventHandlers(html: string): string {
  const cuts: [number, number][] = []
  let start = -1
  let handler = false
  const tokenizer = new Tokenizer({ decodeEntities: true }, {
    onattribname(from, to) {
      start = from
      handler = /^on/i.test(html.slice(from, to))
    },
    onattribend(_quote, to) {
      if (handler) cuts.push([start, to])
      handler = false
    },
    onattribdata: noop, onattribentity: noop, oncdata: noop, onclosetag: noop, oncomment: noop, ondeclaration: noop, onend: noop,
    onopentagend: noop, onopentagname: noop, onprocessinginstruction: noop, onselfclosingtag: noop, ontext: noop, ontextentity: noop,
  })
  tokenizer.write(html)
  tokenizer.end()
  if (cuts.length === 0) return html
  let out = ''
  let at = 0
  for (const [from, to] of cuts) {
    out += html.slice(at, from)
    at = to
  }
  return out + html.slice(at)
}
