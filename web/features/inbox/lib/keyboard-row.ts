// The conversation the reader last opened (from the list, or with j/k in a message): back in the
// list ("u"), the keyboard's row is that one, so j and k go on from it. One per page load.
let lastOpened: string | undefined

export const rememberOpened = (threadId: string) => {
  lastOpened = threadId
}

export const lastOpenedThread = () => lastOpened
