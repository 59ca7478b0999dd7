/** Resolves after the browser has painted: lets a pending state show before synchronous heavy work (scrypt). */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}
