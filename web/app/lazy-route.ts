import { lazy, type ComponentType } from 'react'

const loaded = new WeakMap<() => Promise<unknown>, unknown>()

/**
 * A page's code as a loader that is asked once and remembers its module when it has come
 * (page-preload.ts starts the inbox's at start-up, a pressed row the message's).
 */
export function moduleLoader<M>(importer: () => Promise<M>): () => Promise<M> {
  let promise: Promise<M> | undefined
  const load = (): Promise<M> => (promise ??= importer().then(
    (module) => {
      loaded.set(load, module)
      return module
    },
    (error: unknown) => {
      promise = undefined // a failed chunk is asked again next time
      throw error
    },
  ))
  return load
}

/**
 * A page whose code loads on its first visit (its module's export `pick` names). When its
 * moduleLoader already has the module, React.lazy is handed a thenable that settles at once, so
 * the page renders in the same pass instead of suspending: a suspended page shows the fallback,
 * and React then holds the page back until the fallback has been up 300 ms (its throttle of
 * Suspense reveals), which was most of a warm /inbox's wait for its rows (npm run bench -- web).
 */
export function lazyRoute<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazy(() => {
    if (loaded.has(load)) {
      const page = { default: pick(loaded.get(load) as M) }
      return { then: (resolve: (value: typeof page) => void) => resolve(page) } as unknown as Promise<typeof page>
    }
    return load().then((module) => ({ default: pick(module) }))
  })
}
