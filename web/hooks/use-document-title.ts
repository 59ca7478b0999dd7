import { useEffect } from 'react'

export const SITE_NAME = 'Veilmail'

/** Sets document.title while the calling page is shown. Pass `exact` to skip the site suffix. */
export function useDocumentTitle(title: string, { exact = false }: { exact?: boolean } = {}) {
  useEffect(() => {
    document.title = exact ? title : `${title} | ${SITE_NAME}`
  }, [title, exact])
}
