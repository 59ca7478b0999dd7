import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, launchBrowser } from '../../scripts/testing/browser.ts'
import { startImageTracker, type ImageTracker } from '../../scripts/testing/image-tracker.ts'
import { rewriteCss } from './mail-css.ts'

const LOGO = 'data:image/png;base64,iVBORw0KGgo='
const hidden = { inline: new Map([['logo@shop', LOGO]]), showRemote: false }
const shown = { ...hidden, showRemote: true }

interface HostileCss {
  name: string
  /** the sheet, with `t` the sender's server (http(s)://host/path) and `s` the selector of the element it styles */
  css: (t: string, s: string) => string
  /** remote references counted while images are hidden */
  blocked: number
  /** Chromium fetches from the sheet as the sender wrote it (what the browser reads as a URL) */
  fetches: boolean
  /** Chromium fetches from the rewritten sheet once images are shown (images only: never @import, never a URL we cannot see) */
  shown: boolean
}

const noScheme = (t: string) => t.replace(/^https?:/, '')
const escapedScheme = (t: string) => t.replace(/^http/, String.raw`h\74tp`)

// Every form a sheet can name a remote resource in, spelled the ways CSS Syntax allows.
const HOSTILE: HostileCss[] = [
  { name: 'plain url()', css: (t, s) => `${s}{background:url(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'URL() in capitals', css: (t, s) => `${s}{background:URL(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'escaped r: u\\72l()', css: (t, s) => String.raw`${s}{background:u\72l(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'escaped u: \\75rl()', css: (t, s) => String.raw`${s}{background:\75rl(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'escaped letter that is no hex digit: u\\rl()', css: (t, s) => String.raw`${s}{background:u\rl(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'six-digit escape: \\000075rl()', css: (t, s) => String.raw`${s}{background:\000075rl(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'escape with its space: \\55 RL("…")', css: (t, s) => String.raw`${s}{background:\55 RL("${t}/a.png")}`, blocked: 1, fetches: true, shown: true },
  { name: 'escaped scheme in a url token', css: (t, s) => `${s}{background:url(${escapedScheme(t)}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'escaped scheme in a string', css: (t, s) => `${s}{background:url("${escapedScheme(t)}/a.png")}`, blocked: 1, fetches: true, shown: true },
  { name: 'single quotes and spaces', css: (t, s) => `${s}{background:url(  '${t}/a.png'  )}`, blocked: 1, fetches: true, shown: true },
  { name: 'escaped newline in the string', css: (t, s) => `${s}{background:url("${t}/a\\\n.png")}`, blocked: 1, fetches: true, shown: true },
  { name: 'escaped quote in the string', css: (t, s) => `${s}{background:url("${t}/a\\".png")}`, blocked: 1, fetches: true, shown: true },
  { name: 'tab inside the scheme (the URL parser drops it)', css: (t, s) => `${s}{background:url("${t.slice(0, 2)}\t${t.slice(2)}/a.png")}`, blocked: 1, fetches: true, shown: true },
  { name: 'spaces before the URL in a string', css: (t, s) => `${s}{background:url("  ${t}/a.png")}`, blocked: 1, fetches: true, shown: true },
  { name: 'scheme-relative', css: (t, s) => `${s}{background:url(${noScheme(t)}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'scheme-relative with backslashes', css: (t, s) => `${s}{background:url(${noScheme(t).replace('//', '\\\\\\\\')}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'url token running to the end of the sheet', css: (t, s) => `${s}{background:url(${t}/a.png`, blocked: 1, fetches: true, shown: true },
  { name: 'url() function running to the end of the sheet', css: (t, s) => `${s}{background:url("${t}/a.png"`, blocked: 1, fetches: true, shown: true },
  { name: 'image-set("…")', css: (t, s) => `${s}{background-image:image-set("${t}/a.png" 1x)}`, blocked: 1, fetches: true, shown: true },
  { name: '-webkit-image-set with a string and a url()', css: (t, s) => `${s}{background-image:-webkit-image-set("${t}/a.png" 1x, url(${t}/b.png) 2x)}`, blocked: 2, fetches: true, shown: true },
  { name: 'IMAGE-SET in capitals', css: (t, s) => `${s}{background-image:IMAGE-SET("${t}/a.png" 1x)}`, blocked: 1, fetches: true, shown: true },
  { name: 'escaped image-set name', css: (t, s) => String.raw`${s}{background-image:im\61ge-set("${t}/a.png" 1x)}`, blocked: 1, fetches: true, shown: true },
  { name: 'image-set with type()', css: (t, s) => `${s}{background-image:image-set(url("${t}/a.png") type("image/png") 1x)}`, blocked: 1, fetches: true, shown: true },
  { name: 'image-set with an inline image beside a remote one', css: (t, s) => `${s}{background-image:image-set("${t}/a.png" 1x, "cid:logo@shop" 2x)}`, blocked: 1, fetches: true, shown: true },
  { name: 'cross-fade of two', css: (t, s) => `${s}{background-image:-webkit-cross-fade(url(${t}/a.png), url(${t}/b.png), 50%)}`, blocked: 2, fetches: true, shown: true },
  { name: 'string through var() into image-set', css: (t, s) => `${s}{--u:"${t}/a.png";background-image:image-set(var(--u) 1x)}`, blocked: 1, fetches: true, shown: false },
  { name: 'attr() in image-set', css: (_t, s) => `${s}{background-image:image-set(attr(data-u) 1x)}`, blocked: 1, fetches: false, shown: false },
  { name: 'a custom --function() in image-set', css: (_t, s) => `${s}{background-image:image-set(--u() 1x)}`, blocked: 1, fetches: false, shown: false },
  { name: 'url() through var()', css: (t, s) => `${s}{--bg:url(${t}/a.png);background:var(--bg)}`, blocked: 1, fetches: true, shown: true },
  { name: 'image-set through var()', css: (t, s) => `${s}{--bg:image-set("${t}/a.png" 1x);background-image:var(--bg)}`, blocked: 1, fetches: true, shown: true },
  { name: 'src("…") (CSS Values 4)', css: (t, s) => `${s}{background:src("${t}/a.png")}`, blocked: 1, fetches: false, shown: false },
  { name: 'image("…") (CSS Images 4)', css: (t, s) => `${s}{background-image:image("${t}/a.png")}`, blocked: 1, fetches: false, shown: false },
  { name: 'content: url()', css: (t, s) => `${s}::before{content:url(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'list-style-image', css: (t, s) => `${s} li{list-style-image:url(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'border-image', css: (t, s) => `${s}{border:10px solid;border-image:url("${t}/a.png") 30}`, blocked: 1, fetches: true, shown: true },
  { name: 'mask-image', css: (t, s) => `${s}{mask-image:url(${t}/a.png)}`, blocked: 1, fetches: true, shown: true },
  { name: 'inside @media and @supports', css: (t, s) => `@media screen{@supports (display:block){${s}{background:url(${t}/a.png)}}}`, blocked: 1, fetches: true, shown: true },
  { name: 'font-face src: url()', css: (t, s) => `@font-face{font-family:f${s.slice(2)};src:url(${t}/a.woff2) format("woff2")}${s}{font-family:f${s.slice(2)}}`, blocked: 1, fetches: true, shown: true },
  { name: '@import "…"', css: (t, s) => `@import "${t}/a.css";${s}{color:red}`, blocked: 1, fetches: true, shown: false },
  { name: '@import url() with media', css: (t, s) => `@import url(${t}/a.css) screen;${s}{color:red}`, blocked: 1, fetches: true, shown: false },
  { name: 'escaped @\\69mport', css: (t, s) => String.raw`@\69mport "${t}/a.css";${s}{color:red}`, blocked: 1, fetches: true, shown: false },
  { name: '@IMPORT without its semicolon, last', css: (t) => `@IMPORT '${t}/a.css'`, blocked: 1, fetches: true, shown: false },
  // not URLs to CSS Syntax, and not to Chromium either: nothing to count (and nothing fetched)
  { name: 'a comment inside the name: u/**/rl()', css: (t, s) => `${s}{background:u/**/rl(${t}/a.png)}`, blocked: 0, fetches: false, shown: false },
  { name: 'a quote inside a url token (bad url)', css: (t, s) => `${s}{background:url(${t}/a'b.png)}`, blocked: 0, fetches: false, shown: false },
  { name: 'a removed @import between the halves of a name', css: (t, s) => `${s}{background:u@import"x";rl(${t}/a.png)}`, blocked: 0, fetches: false, shown: false },
]

const SENDER = 'https://t.example/p'

describe('the mail CSS rewrite', () => {
  it.each(HOSTILE)('counts and removes $name', ({ css, blocked }) => {
    const sheet = css(SENDER, '.t')
    const out = rewriteCss(sheet, hidden)
    expect(out.blocked).toBe(blocked)
    // nothing names the sender's server as a URL any more: a second reading finds nothing to take out
    expect(rewriteCss(out.css, hidden)).toEqual({ css: out.css, blocked: 0 })
    if (blocked > 0) expect(rewriteCss(sheet, shown).blocked).toBe(0)
  })

  it('keeps inline and data: images, and remote ones once shown, in one canonical form', () => {
    const css = `@import url(https://x.example/a.css); body{background:url( "https://x.example/bg.png" )} .logo{background:url(cid:logo@shop)} p{color:red}`
    const out = rewriteCss(css, hidden)
    expect(out).toEqual({ css: `/**/ body{background:none} .logo{background:url("${LOGO}")} p{color:red}`, blocked: 2 })
    expect(rewriteCss('div{background:url(https://x.example/bg.png)}', shown)).toEqual({ css: 'div{background:url("https://x.example/bg.png")}', blocked: 0 })
    expect(rewriteCss(String.raw`div{background:u\72l(https://x.example/bg.png)}`, shown).css).toBe('div{background:url("https://x.example/bg.png")}')
    expect(rewriteCss('div{background-image:image-set("https://x.example/a.png" 1x, url(cid:logo@shop) 2x)}', shown).css)
      .toBe(`div{background-image:image-set("https://x.example/a.png" 1x, url("${LOGO}") 2x)}`)
    expect(rewriteCss('div{background:url(data:image/gif;base64,R0lGOD)}', hidden)).toEqual({ css: 'div{background:url("data:image/gif;base64,R0lGOD")}', blocked: 0 })
  })

  it('drops what is no image of the message without counting it, and writes no "<" into a sheet', () => {
    for (const url of ['javascript:alert(1)', '/api/account', 'http:x.png', 'cid:missing@shop', 'data:text/html,x']) {
      expect(rewriteCss(`a{background:url("${url}")}`, shown)).toEqual({ css: 'a{background:none}', blocked: 0 })
    }
    const svg = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"></style><img src=x>'
    const out = rewriteCss(`a{background:url('${svg}')}`, hidden).css
    expect(out).not.toContain('<')
    expect(rewriteCss(out, hidden).css).toBe(out)
  })

  it('leaves CSS without URLs as it was', () => {
    const css = '/* hi */ @media (max-width:600px){.a>b[href^="x"]{color:#fff!important;font:12px/1.5 "Helvetica Neue",sans-serif}} .c::after{content:"\\201C"}'
    expect(rewriteCss(css, hidden)).toEqual({ css, blocked: 0 })
  })
})

// What Chromium makes of each form: the sheet as written (that the form is real, or is not), the
// rewritten sheet while images are hidden (never a request) and once they are shown.
describe.skipIf(!browserAvailable())('the mail CSS rewrite in Chromium', () => {
  let browser: Browser
  let page: Page
  let tracker: ImageTracker
  beforeAll(async () => {
    tracker = await startImageTracker()
    browser = await launchBrowser()
    page = await browser.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    tracker?.close()
  })

  async function load(phase: string, write: (css: string) => string) {
    const sheets = HOSTILE.map((row, i) => `<style>${write(row.css(`${tracker.url}/${phase}/${i}`, `.t${i}`))}</style>`).join('')
    const elements = HOSTILE.map((_row, i) => `<div class="t${i}" data-u="${tracker.url}/${phase}/${i}/attr.png" style="width:40px;height:40px">Aa<ul><li>x</li></ul></div>`).join('')
    // a page on an http origin, as the app is (scheme-relative URLs take its scheme); the tracker's,
    // as Chromium lets no other origin's page reach a loopback address
    const PAGE = `${tracker.url}/message`
    const html = `<!doctype html><html><head>${sheets}</head><body>${elements}</body></html>`
    await page.route(PAGE, (route) => route.fulfill({ contentType: 'text/html', body: html }))
    await page.goto(PAGE, { waitUntil: 'networkidle' })
    await page.unroute(PAGE)
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
  }
  const fetched = (phase: string) => HOSTILE.map((_row, i) => tracker.hits.some((hit) => hit.startsWith(`/${phase}/${i}/`)))

  it('fetches nothing from a rewritten sheet until images are shown, then the images', async () => {
    await load('hidden', (css) => rewriteCss(css, hidden).css)
    await load('shown', (css) => rewriteCss(css, shown).css)
    await load('original', (css) => css)
    const rows = HOSTILE.map((row, i) => ({ name: row.name, original: fetched('original')[i], hidden: fetched('hidden')[i], shown: fetched('shown')[i] }))
    expect(rows).toEqual(HOSTILE.map((row) => ({ name: row.name, original: row.fetches, hidden: false, shown: row.shown })))
  })
})
