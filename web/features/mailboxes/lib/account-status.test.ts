import { describe, expect, it } from 'vitest'
import { OUTLOOK_EXPIRED_MESSAGE } from '../../../../shared/outlook-connection.ts'
import { accountStatus, folderLines, providersPollInterval, syncCompletedText, syncJobPollInterval, syncJobToast } from './account-status.ts'

const base = { progressDone: 0, progressTotal: 0, lastError: null }

describe('account status', () => {
  it('says connecting, syncing with done of total, up to date, or the error as a sentence', () => {
    expect(accountStatus({ ...base, state: 'connecting' })).toEqual({ kind: 'connecting', text: 'Connecting…' })
    expect(accountStatus({ ...base, state: 'syncing', progressDone: 50, progressTotal: 200 })).toEqual({ kind: 'syncing', text: 'Syncing… 50 of 200', done: 50, total: 200, percent: 25 })
    expect(accountStatus({ ...base, state: 'syncing' })).toMatchObject({ text: 'Syncing…', percent: 0 })
    expect(accountStatus({ ...base, state: 'idle' })).toEqual({ kind: 'idle', text: 'Up to date' })
    // a sync whose process stopped: said so, not a frozen "Syncing… 3000 of 5000"
    expect(accountStatus({ ...base, state: 'syncing', progressDone: 3000, progressTotal: 5000, stalled: true })).toEqual({ kind: 'stalled', text: 'Sync interrupted at 3000 of 5000. It starts again by itself within a minute.' })
    expect(accountStatus({ ...base, state: 'syncing', stalled: true })).toEqual({ kind: 'stalled', text: 'Sync interrupted. It starts again by itself within a minute.' })
    expect(accountStatus({ ...base, state: 'syncing', progressDone: 1, progressTotal: 2, stalled: false }).kind).toBe('syncing')
    const reason = 'The mail server refused the e-mail address or password. Check them (Gmail and Yahoo need an app password).'
    expect(accountStatus({ ...base, state: 'error', lastError: reason })).toEqual({ kind: 'error', text: `Error: ${reason}` })
  })

  it('shows an Outlook account whose sign-in expired as "Outlook Authentication Expired", not the marker', () => {
    expect(accountStatus({ ...base, state: 'error', lastError: OUTLOOK_EXPIRED_MESSAGE })).toEqual({ kind: 'outlook-expired', text: 'Outlook Authentication Expired' })
    // the marker must start the error: a server sentence that merely quotes it is an ordinary error
    expect(accountStatus({ ...base, state: 'error', lastError: 'Error OUTLOOK_TOKEN_EXPIRED' }).kind).toBe('error')
  })

  it('polls a sync job every 10 s until it is done or failed, and the list only while an account is busy', () => {
    expect(syncJobPollInterval(undefined)).toBe(10_000)
    expect(syncJobPollInterval({ status: 'queued' })).toBe(10_000)
    expect(syncJobPollInterval({ status: 'running' })).toBe(10_000)
    expect(syncJobPollInterval({ status: 'done' })).toBe(false)
    expect(syncJobPollInterval({ status: 'failed' })).toBe(false)
    expect(providersPollInterval([{ state: 'idle' }, { state: 'error' }])).toBe(false)
    expect(providersPollInterval([{ state: 'idle' }, { state: 'syncing' }])).toBe(10_000)
    expect(providersPollInterval([{ state: 'connecting' }])).toBe(10_000)
    expect(providersPollInterval(undefined)).toBe(false)
  })

  it('lists Inbox first with stored and unread counts, listed folders with the server\'s count', () => {
    const lines = folderLines([
      { id: 'f1', path: 'Sent', specialUse: '\\Sent', enabled: false, messageCount: 1, unseenCount: 0, stored: 0, unread: 0 },
      { id: 'f2', path: 'INBOX', specialUse: null, enabled: true, messageCount: 1200, unseenCount: 1, stored: 1200, unread: 1 },
      { id: 'f3', path: 'Archive', specialUse: '\\Archive', enabled: false, messageCount: 0, unseenCount: 0, stored: 0, unread: 0 },
    ])
    expect(lines).toEqual([
      { path: 'INBOX', name: 'Inbox', counts: '1,200 messages, 1 unread', enabled: true },
      { path: 'Archive', name: 'Archive', counts: 'Not synced', enabled: false },
      { path: 'Sent', name: 'Sent', counts: '1 message, not synced', enabled: false },
    ])
  })

  it('words the sync result as the spec does', () => {
    expect(syncCompletedText(3)).toBe('3 new emails synced successfully.')
    expect(syncCompletedText(0)).toBe('Email data refreshed successfully.')
  })

  it('announces a finished job with the spec toasts and the server\'s reason', () => {
    const done = { status: 'done' as const, error: null, syncResult: { newEmailsCount: 2 } }
    const failed = { status: 'failed' as const, error: 'The mail server did not answer in time. It will be tried again.', syncResult: { newEmailsCount: 0 } }
    expect(syncJobToast('connect', done)).toEqual({ title: 'Email account added', description: 'Your email account has been connected successfully.' })
    expect(syncJobToast('connect', failed)).toEqual({ title: 'Failed to add email account', description: failed.error, variant: 'destructive' })
    expect(syncJobToast('sync', done)).toEqual({ title: 'Sync completed', description: '2 new emails synced successfully.' })
    expect(syncJobToast('sync', failed)).toEqual({ title: 'Sync failed', description: failed.error, variant: 'destructive' })
    expect(syncJobToast('sync', { ...done, status: 'running' })).toBeUndefined()
    expect(syncJobToast('sync', { ...done, status: 'queued' })).toBeUndefined()
  })
})
