// Names for aliases made by apps (issue 28): random words like `clever.otter42`, or random
// characters. Never a reserved name (shared/reserved-alias-names.ts applies as in the UI).
import { randomInt } from 'node:crypto'
import type { AliasNameForm } from '../../shared/app-alias-schemas.ts'
import { isReservedAliasName } from '../../shared/reserved-alias-names.ts'

const ADJECTIVES = [
  'amber', 'brave', 'brisk', 'calm', 'clever', 'cosy', 'crisp', 'curly', 'dapper', 'eager', 'fancy', 'fluffy',
  'gentle', 'glad', 'golden', 'happy', 'hazel', 'humble', 'jolly', 'keen', 'kind', 'lively', 'lucky', 'mellow',
  'merry', 'mighty', 'misty', 'nimble', 'noble', 'olive', 'plucky', 'polite', 'proud', 'quick', 'quiet', 'rapid',
  'rosy', 'rusty', 'sandy', 'shiny', 'silent', 'silver', 'sleepy', 'snowy', 'sparkly', 'spry', 'steady', 'sunny',
  'swift', 'tidy', 'tiny', 'velvet', 'vivid', 'warm', 'witty', 'zesty',
]
const NOUNS = [
  'badger', 'beaver', 'bison', 'crane', 'cricket', 'dolphin', 'falcon', 'ferret', 'finch', 'fox', 'gecko', 'heron',
  'ibis', 'koala', 'lark', 'lemur', 'lynx', 'magpie', 'marmot', 'meerkat', 'mole', 'moose', 'newt', 'ocelot',
  'otter', 'owl', 'panda', 'parrot', 'pelican', 'penguin', 'puffin', 'quail', 'rabbit', 'raven', 'robin', 'salmon',
  'seal', 'sparrow', 'squid', 'stork', 'swan', 'tapir', 'tern', 'thrush', 'toad', 'trout', 'turtle', 'walrus',
  'weasel', 'whale', 'wombat', 'wren', 'yak', 'zebra',
]
const CHARACTERS = 'abcdefghijklmnopqrstuvwxyz0123456789'

const pick = (list: readonly string[] | string) => list[randomInt(list.length)]

/** A fresh alias name of the given form. */
export function randomAliasName(form: AliasNameForm): string {
  for (;;) {
    const name = form === 'words'
      ? `${pick(ADJECTIVES)}.${pick(NOUNS)}${randomInt(10, 100)}`
      : Array.from({ length: 12 }, () => pick(CHARACTERS)).join('')
    if (!isReservedAliasName(name)) return name
  }
}
