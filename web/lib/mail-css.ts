// The CSS of a sender's HTML mail (<style> elements and style attributes), read as the browser
// reads it, so that every URL it would fetch is found and decided (resourceUrl in mail-html.ts):
// tokens as CSS Syntax Level 3 §4 makes them, escapes decoded (@csstools/css-tokenizer; css-tree's
// tokenizer matches `url(` on the source text and reads `u\72l(x)` as some other function), then
// functions and blocks as §5 consumes them. What can fetch:
// - url tokens and url()/src() functions with a string (`url(x)`, `u\72l(x)`, `\75rl("x")`);
// - strings directly inside image-set(), -webkit-image-set() and image();
// - @import, in any spelling (`@\69mport`): always removed, styles from elsewhere are never loaded.
// A url()/src()/image-set() whose URL only a substitution (var(), attr(), env(), if(), a custom
// --function()) would supply cannot be decided here: it is removed, and counted as remote.
import { tokenize, TokenType, type CSSToken } from '@csstools/css-tokenizer'
import { resourceUrl, type SanitizeMailOptions } from './mail-html.ts'

interface Group { open: CSSToken; children: Node[]; close?: CSSToken }
type Node = CSSToken | Group

const CLOSES: Partial<Record<TokenType, TokenType>> = {
  [TokenType.Function]: TokenType.CloseParen, [TokenType.OpenParen]: TokenType.CloseParen,
  [TokenType.OpenSquare]: TokenType.CloseSquare, [TokenType.OpenCurly]: TokenType.CloseCurly,
}
/** Functions whose argument is one URL string. */
const URL_FUNCTIONS = new Set(['url', 'src'])
/** Functions whose direct string arguments are URLs (CSS Images 4 §2.2, §2.4). */
const IMAGE_FUNCTION = /^(-[a-z]+-)?image-set$|^image$/
/** Functions that may stand inside an image function without supplying a URL string there. */
const IMAGE_ARGUMENT = /^(url|src|image|(-[a-z]+-)?image-set|type|(-[a-z]+-)?cross-fade|(-[a-z]+-)?(repeating-)?(linear|radial|conic)-gradient|-webkit-gradient)$/

const isGroup = (node: Node): node is Group => !Array.isArray(node)
/** Names compare ASCII case-insensitively (CSS Syntax §2.1); toLowerCase would fold U+212A to "k". */
const asciiLower = (name: string) => name.replace(/[A-Z]/g, (c) => c.toLowerCase())
const nameOf = (token: CSSToken) => (token[0] === TokenType.Function || token[0] === TokenType.AtKeyword ? asciiLower(token[4].value) : '')
const meaningful = (nodes: Node[]) => nodes.filter((n) => isGroup(n) || (n[0] !== TokenType.Whitespace && n[0] !== TokenType.Comment))

/** §5.4.8/§5.4.9: a function or block runs to its own closing token (or the end of the input); other closers inside it are plain tokens. */
function group(tokens: CSSToken[]): Node[] {
  const root: Node[] = []
  const open: { children: Node[]; group?: Group; closes?: TokenType }[] = [{ children: root }]
  for (const token of tokens) {
    const top = open[open.length - 1]
    if (token[0] === TokenType.EOF) break
    if (top.group && token[0] === top.closes) {
      top.group.close = token
      open.pop()
    } else if (CLOSES[token[0]]) {
      const g: Group = { open: token, children: [] }
      top.children.push(g)
      open.push({ children: g.children, group: g, closes: CLOSES[token[0]] })
    } else top.children.push(token)
  }
  return root
}

/** A CSS string that reads back as `value`, with no `<` (the text of a <style> element must never hold `</style`). */
function cssString(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&').replace(/[\u0000-\u001f\u007f<]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`
}

class Rewriter {
  blocked = 0
  /** URL constructs taken out, remote or not */
  dropped = 0
  readonly options: SanitizeMailOptions
  /** the second reading: only the URLs the first one wrote are kept */
  readonly written: Set<string>
  readonly verify: boolean

  constructor(options: SanitizeMailOptions, written?: Set<string>) {
    this.options = options
    this.verify = written !== undefined
    this.written = written ?? new Set()
  }

  /** The URL to write for `value`, or undefined when it is left out (and counted if remote). */
  decide(value: string): string | undefined {
    if (this.verify) {
      if (this.written.has(value)) return value
      this.dropped++
      return undefined
    }
    const decision = resourceUrl(value, this.options)
    if (decision.keep) {
      this.written.add(decision.value)
      return decision.value
    }
    this.dropped++
    if (decision.remote) this.blocked++
    return undefined
  }

  /** A URL we cannot see (a substitution supplies it): left out, and remote as far as the reader knows. */
  undecidable(): string {
    this.dropped++
    if (!this.options.showRemote) this.blocked++
    return 'none'
  }

  write(nodes: Node[]): string {
    let out = ''
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]
      if (isGroup(node)) out += this.writeGroup(node)
      else if (node[0] === TokenType.AtKeyword && nameOf(node) === 'import') {
        // the rule runs to its ";" or through its {} block (§5.4.2)
        let end = i + 1
        while (end < nodes.length && !(isGroup(nodes[end]) ? (nodes[end] as Group).open[0] === TokenType.OpenCurly : (nodes[end] as CSSToken)[0] === TokenType.Semicolon)) end++
        this.importRule(nodes.slice(i + 1, end))
        i = end
        // a comment where the rule was, so that what stood around it does not join into one token
        out += '/**/'
      } else if (node[0] === TokenType.URL) out += this.url(node[4].value)
      else if (node[0] === TokenType.BadURL) {
        this.dropped++
        out += 'none'
      } else out += node[1]
    }
    return out
  }

  url(value: string, name = 'url'): string {
    const kept = this.decide(value)
    return kept === undefined ? 'none' : `${name}(${cssString(kept)})`
  }

  importRule(prelude: Node[]) {
    this.dropped++
    const first = meaningful(prelude)[0]
    if (!first || this.options.showRemote || this.verify) return
    const value = isGroup(first) ? (URL_FUNCTIONS.has(nameOf(first.open)) ? meaningful(first.children)[0] : undefined) : first
    if (!value || isGroup(value) || (value[0] !== TokenType.String && value[0] !== TokenType.URL)) return
    const decision = resourceUrl(value[4].value, { ...this.options, showRemote: false })
    if (!decision.keep && decision.remote) this.blocked++
  }

  writeGroup(g: Group): string {
    const name = nameOf(g.open)
    if (URL_FUNCTIONS.has(name)) {
      // url( <string> <url-modifier>* ): one string, modifiers (idents) dropped; anything else is not a URL we can read
      const [first, ...rest] = meaningful(g.children)
      if (!first || isGroup(first) || first[0] !== TokenType.String || rest.some((n) => isGroup(n) || n[0] !== TokenType.Ident)) return this.undecidable()
      return this.url(first[4].value, name)
    }
    if (IMAGE_FUNCTION.test(name)) {
      const args = meaningful(g.children)
      if (args.some((n) => isGroup(n) && !IMAGE_ARGUMENT.test(nameOf(n.open)))) return this.undecidable()
      // every URL in it kept, or the whole image left out: an image-set() of what remains may not parse
      const before = this.dropped
      let inner = ''
      for (const node of g.children) {
        if (!isGroup(node) && node[0] === TokenType.String) {
          const kept = this.decide(node[4].value)
          inner += kept === undefined ? 'none' : cssString(kept)
        } else inner += this.write([node])
      }
      return this.dropped > before ? 'none' : `${g.open[1]}${inner}${g.close?.[1] ?? ''}`
    }
    return `${g.open[1]}${this.write(g.children)}${g.close?.[1] ?? ''}`
  }
}

/**
 * `css` with every URL decided: remote ones removed and counted until the reader shows images,
 * cid: images replaced by their attachment, data: images kept, @import always removed. The result
 * is read once more; if that reading finds a URL the first did not write (tokens that came
 * together where something was removed), no CSS is kept at all.
 */
export function rewriteCss(css: string, options: SanitizeMailOptions): { css: string; blocked: number } {
  const first = new Rewriter(options)
  const out = first.write(group(tokenize({ css })))
  const again = new Rewriter(options, first.written)
  if (again.write(group(tokenize({ css: out }))) !== out || again.dropped > 0) return { css: '', blocked: first.blocked }
  return { css: out, blocked: first.blocked }
}
