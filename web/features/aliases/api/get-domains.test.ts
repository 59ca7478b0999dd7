import { expect, it } from 'vitest'
import { sortDomains } from './get-domains.ts'

it('keeps the two preferred domains first, then sorts the rest', () => {
  expect(sortDomains(['veilmail.test', 'veil.test', 'zeta.example', 'alias.example', 'veil.test'])).toEqual([
    'veilmail.test', 'veil.test', 'alias.example', 'zeta.example',
  ])
})
