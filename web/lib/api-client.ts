// The one way the browser talks to the API: same-origin cookie, JSON in and out,
// one error shape, and a redirect to /auth when the session has ended.
import { takeEarly } from './early-requests.ts'

export type FieldErrors = Record<string, string[]>

/** Thrown for every non-OK response. `body` keeps extra fields such as rateLimited and resetTime. */
export class ApiError extends Error {
  readonly status: number
  readonly errors?: FieldErrors
  readonly body: unknown

  constructor(message: string, status: number, body: unknown, errors?: FieldErrors) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.body = body
    this.errors = errors
  }

  get rateLimited(): boolean {
    return isRecord(this.body) && this.body.rateLimited === true
  }

  get resetTime(): string | undefined {
    return isRecord(this.body) && typeof this.body.resetTime === 'string' ? this.body.resetTime : undefined
  }
}

export const SESSION_URL = '/api/auth/session'
export const AUTH_REDIRECT_DELAY_MS = 1500

// A failed sign-in attempt or the session probe is not an expired session, and a visitor
// already on a sign-in page needs no redirect.
const NO_REDIRECT_URL_PREFIXES = ['/api/auth/']
const SIGN_IN_PATHS = ['/auth', '/register']

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function shouldRedirectToAuth(url: string, status: number, message: string): boolean {
  if (status !== 401 && !/authentication required/i.test(message)) return false
  if (NO_REDIRECT_URL_PREFIXES.some((prefix) => url.startsWith(prefix))) return false
  return !SIGN_IN_PATHS.includes(window.location.pathname)
}

async function toApiError(url: string, res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '')
  let error: ApiError
  try {
    const body: unknown = JSON.parse(text)
    const message =
      isRecord(body) && typeof body.message === 'string' && body.message
        ? body.message
        : `${res.status} ${res.statusText}`
    const errors = isRecord(body) && isRecord(body.errors) ? (body.errors as FieldErrors) : undefined
    error = new ApiError(message, res.status, body, errors)
  } catch {
    error = new ApiError(`${res.status}: ${res.statusText}`, res.status, text)
  }
  if (shouldRedirectToAuth(url, res.status, error.message)) {
    setTimeout(() => window.location.assign('/auth'), AUTH_REDIRECT_DELAY_MS)
  }
  return error
}

async function parseBody<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T
  const text = await res.text()
  return (text ? JSON.parse(text) : undefined) as T
}

/** Sends a request; `data` becomes a JSON body only when given. Throws ApiError when not OK. */
export async function apiRequest<T>(method: string, url: string, data?: unknown): Promise<T> {
  const hasBody = data !== undefined
  const early = method === 'GET' && !hasBody ? takeEarly(url) : undefined
  const res = await (early ?? fetch(url, {
    method,
    credentials: 'include',
    headers: hasBody ? { 'Content-Type': 'application/json' } : undefined,
    body: hasBody ? JSON.stringify(data) : undefined,
  }))
  if (!res.ok) throw await toApiError(url, res)
  return parseBody<T>(res)
}

export function apiGet<T>(url: string): Promise<T> {
  return apiRequest<T>('GET', url)
}

/** A read where 401 means "nobody is signed in": resolves to null instead of throwing. */
export async function apiGetOrNull<T>(url: string): Promise<T | null> {
  try {
    return await apiGet<T>(url)
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

/** The message to show for any thrown value, with a fallback for empty ones. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback
}
