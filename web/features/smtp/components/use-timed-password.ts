import { useEffect, useState } from 'react'

interface Shown {
  password: string
  hideAt: number
}

/**
 * A password on screen for a fixed time (30 s), then gone, with the seconds left for a
 * countdown. Timed from a deadline, not by counting ticks, so a throttled background tab still
 * hides it on time; both timers are cleared on unmount.
 */
export function useTimedPassword(displayMs: number) {
  const [shown, setShown] = useState<Shown | null>(null)
  const [now, setNow] = useState(() => Date.now())

  useEffect(() => {
    if (!shown) return
    const tick = setInterval(() => setNow(Date.now()), 1000)
    const hide = setTimeout(() => setShown(null), Math.max(0, shown.hideAt - Date.now()))
    return () => {
      clearInterval(tick)
      clearTimeout(hide)
    }
  }, [shown])

  function show(password: string) {
    const at = Date.now()
    setNow(at)
    setShown({ password, hideAt: at + displayMs })
  }

  return {
    password: shown?.password,
    secondsLeft: shown ? Math.max(0, Math.ceil((shown.hideAt - now) / 1000)) : 0,
    show,
    hide: () => setShown(null),
  }
}
