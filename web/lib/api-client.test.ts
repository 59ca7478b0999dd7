import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, apiGetOrNull, apiRequest, AUTH_REDIRECT_DELAY_MS } from './api-client.ts'

function respond(status: number, body: string, statusText = 'Status') {
  return vi.fn(async () => new Response(body, { status, statusText }))
}

describe('apiRequest', () => {
  const assign = vi.fn()

  beforeEach(() => {
    vi.useFakeTimers()
    vi.stubGlobal('window', { location: { pathname: '/dashboard', assign } })
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
    assign.mockReset()
  })

  it('sends JSON with a content type only when there is a payload', async () => {
    const fetchMock = respond(200, '{"ok":true}')
    vi.stubGlobal('fetch', fetchMock)
    await apiRequest('POST', '/api/x', { a: 1 })
    await apiRequest('DELETE', '/api/y')
    const calls = fetchMock.mock.calls as unknown as Array<[string, RequestInit]>
    expect(calls[0][1]).toMatchObject({ credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' })
    expect(calls[1][1].headers).toBeUndefined()
    expect(calls[1][1].body).toBeUndefined()
  })

  it('uses the body message, field errors and keeps the raw body', async () => {
    vi.stubGlobal('fetch', respond(429, JSON.stringify({ rateLimited: true, message: 'Slow down', resetTime: '2026-01-01T00:00:00Z', errors: { email: ['bad'] } })))
    const error = (await apiRequest('POST', '/api/aliases/1', {}).catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.message).toBe('Slow down')
    expect(error.errors).toEqual({ email: ['bad'] })
    expect(error.rateLimited).toBe(true)
    expect(error.resetTime).toBe('2026-01-01T00:00:00Z')
  })

  it('falls back to "status statusText" and "status: statusText" for bodies without a message or JSON', async () => {
    vi.stubGlobal('fetch', respond(500, '{}', 'Internal Server Error'))
    await expect(apiRequest('GET', '/api/a')).rejects.toThrow('500 Internal Server Error')
    vi.stubGlobal('fetch', respond(502, '<html>', 'Bad Gateway'))
    await expect(apiRequest('GET', '/api/a')).rejects.toThrow('502: Bad Gateway')
  })

  it('redirects to /auth 1500 ms after a 401, but not for auth calls or on sign-in pages', async () => {
    vi.stubGlobal('fetch', respond(401, '{"message":"Session expired"}'))
    await apiRequest('GET', '/api/aliases/1').catch(() => {})
    vi.advanceTimersByTime(AUTH_REDIRECT_DELAY_MS - 1)
    expect(assign).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(assign).toHaveBeenCalledWith('/auth')

    assign.mockReset()
    await apiRequest('GET', '/api/auth/session').catch(() => {})
    window.location.pathname = '/register'
    await apiRequest('GET', '/api/aliases/1').catch(() => {})
    vi.runAllTimers()
    expect(assign).not.toHaveBeenCalled()
  })

  it('treats "authentication required" in any status as a signed-out session', async () => {
    vi.stubGlobal('fetch', respond(403, '{"message":"Authentication Required"}'))
    await apiRequest('GET', '/api/keys').catch(() => {})
    vi.runAllTimers()
    expect(assign).toHaveBeenCalledWith('/auth')
  })

  it('apiGetOrNull turns a 401 into null', async () => {
    vi.stubGlobal('fetch', respond(401, '{"message":"nope"}'))
    await expect(apiGetOrNull('/api/auth/session')).resolves.toBeNull()
    vi.stubGlobal('fetch', respond(500, '{"message":"boom"}'))
    await expect(apiGetOrNull('/api/auth/session')).rejects.toThrow('boom')
  })
})
