import { lazy, type ComponentType } from 'react'

/** A page whose code loads on its first visit (its module's export `pick` names). */
export function lazyRoute<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazy(() => load().then((module) => ({ default: pick(module) })))
}
