// The messages between the page and the age worker (age-worker.ts): each request names an
// operation and carries an id that its one response repeats. Types only, so importing this
// file pulls nothing into a bundle.
import type { AgeFailureKind, NewKeyPair } from '../../../shared/age-core.ts'

/** Every operation the worker runs: what it takes and what it gives back. */
export interface AgeOps {
  /** A fresh key pair whose private key is locked with the master password (scrypt). */
  createKeyPair: { args: { masterPassword: string }; result: NewKeyPair }
  /** The private key inside a stored key, checked against its public key (scrypt). */
  unlockPrivateKey: { args: { encryptedPrivateKey: string; masterPassword: string; publicKey: string }; result: string }
  /** Fails unless the text holds a complete armored age message. */
  checkArmored: { args: { encryptedText: string }; result: null }
  /** An armored message opened with a pasted private key (bare, identity file or key file). */
  decryptWithPrivateKey: { args: { encryptedText: string; privateKey: string }; result: string }
  /** An armored message opened with a stored key and its master password (scrypt). */
  decryptWithKeyMaterial: { args: { encryptedText: string; encryptedPrivateKey: string; masterPassword: string; publicKey: string }; result: string }
}

export type AgeOp = keyof AgeOps

export interface AgeRequest<K extends AgeOp = AgeOp> {
  id: number
  op: K
  args: AgeOps[K]['args']
}

/** `kind` is set when the worker threw an AgeFailure; `message` is then its user-facing text. */
export type AgeResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; kind?: AgeFailureKind; message: string }
