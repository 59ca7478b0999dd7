import { keyFileJson, keyFileName, type KeyFile } from '../../../../shared/encryption-schemas.ts'

/** Saves `{keyName}-encryption-keys.json` through the browser's download. */
export function saveKeyFile(file: KeyFile): string {
  const name = keyFileName(file.keyName)
  const url = URL.createObjectURL(new Blob([keyFileJson(file)], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its own copy once click() returns; revoke after the event loop turns.
  setTimeout(() => URL.revokeObjectURL(url), 0)
  return name
}
