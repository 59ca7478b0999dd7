/** A seeded generator of numbers in [0, 1) (a linear congruential one): a failure can be run again from its seed. */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x80000000
  }
}

/**
 * A random text of up to `tokens` pieces of `alphabet`, and its bytes cut at random places into
 * pieces of at most `pieceBytes`, so any byte can fall at either side of a cut: for the tests that
 * check a stream parser against a reference whatever its input and however it arrives.
 */
export function randomPieces(next: () => number, alphabet: string[], tokens: number, pieceBytes: number): { text: string; pieces: Buffer[] } {
  const text = Array.from({ length: Math.floor(next() * tokens) + 1 }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
  const bytes = Buffer.from(text, 'latin1')
  const pieces: Buffer[] = []
  for (let at = 0; at < bytes.length;) {
    const len = Math.max(1, Math.floor(next() * pieceBytes))
    pieces.push(bytes.subarray(at, at + len))
    at += len
  }
  return { text, pieces }
}
