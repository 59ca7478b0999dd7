// Where we replace a step inside a library (a prototype method; docs/decisions/0012-mx-greeting.md
// says why not a patch or a fork), the replacement relies on the shape of the library's own code.
// That shape is checked when our module loads: an upgrade that changes it stops the process (and
// its tests) with a message naming the file to review, instead of silently running other code.

/**
 * Throws unless `fn`'s source holds every one of `parts` and `methods` are functions of `target`.
 * `member` names what is replaced, as "smtp-server's SMTPConnection.init"; `file` our replacement.
 */
export function expectLibraryShape(member: string, fn: (...args: never[]) => unknown, parts: readonly string[], file: string, methods: { target?: object; names?: readonly string[] } = {}): void {
  const source = fn.toString()
  const target = (methods.target ?? {}) as Record<string, unknown>
  const missing = parts.filter((part) => !source.includes(part))
    .concat((methods.names ?? []).filter((name) => typeof target[name] !== 'function'))
  if (missing.length) throw new Error(`${member} changed (${missing.join(', ')} not found): review ${file} before upgrading`)
}
