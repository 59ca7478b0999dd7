// mailparser on a stored message. Parsing is pure: a message it cannot read now (a header block
// over its 1 MiB limit, EMAXLEN, and the like) will not read on any retry either, so the failure
// is raised as UnparseableMessageError, which delivery-step.ts turns into a permanent failure
// instead of a retry (issue 11).
import { simpleParser, type ParsedMail } from 'mailparser'

export class UnparseableMessageError extends Error {
  override name = 'UnparseableMessageError'
}

export async function parseStoredMessage(raw: Buffer, options: Parameters<typeof simpleParser>[1]): Promise<ParsedMail> {
  try {
    return await simpleParser(raw, options)
  } catch (error) {
    throw new UnparseableMessageError((error as { code?: string }).code ?? 'unreadable message', { cause: error })
  }
}
