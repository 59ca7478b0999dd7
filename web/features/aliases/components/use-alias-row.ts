import { useState, type KeyboardEvent } from 'react'
import * as v from 'valibot'
import { UpdateAliasSchema, type AliasView } from '../../../../shared/alias-schemas.ts'
import { isReservedAliasName } from '../../../../shared/reserved-alias-names.ts'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useDeleteAlias } from '../api/delete-alias.ts'
import { useToggleAlias } from '../api/toggle-alias.ts'
import { useUpdateAlias } from '../api/update-alias.ts'
import { canSaveDraft, draftChanges, draftFromAlias, type AliasDraft } from '../lib/alias-edit.ts'
import { describeUpdateError, RESERVED_TOAST } from '../lib/alias-errors.ts'
import { isAliasOn } from '../lib/alias-state.ts'

/** One alias row's state, shared by the desktop table row and the mobile card. */
export function useAliasRow(alias: AliasView, userId: string) {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState<AliasDraft>(() => draftFromAlias(alias))
  const [invalid, setInvalid] = useState(false)
  const [expanded, setExpanded] = useState(false)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const update = useUpdateAlias(userId)
  const toggle = useToggleAlias(userId)
  const removal = useDeleteAlias(userId)

  function startEdit() {
    setDraft(draftFromAlias(alias))
    setInvalid(false)
    setEditing(true)
  }

  function cancelEdit() {
    setEditing(false)
    setInvalid(false)
  }

  function changeDraft(field: keyof AliasDraft, value: string) {
    setDraft((prev) => ({ ...prev, [field]: value }))
    setInvalid(false)
  }

  function save() {
    if (update.isPending) return
    if (!canSaveDraft(draft)) return setInvalid(true)
    const changes = draftChanges(alias, draft)
    if (Object.keys(changes).length === 0) return cancelEdit()
    if (changes.alias !== undefined && isReservedAliasName(changes.alias)) {
      return void toast({ ...RESERVED_TOAST, variant: 'destructive' })
    }
    const parsed = v.safeParse(UpdateAliasSchema, changes, { abortPipeEarly: true })
    if (!parsed.success) {
      return void toast({ title: 'Update Failed', description: parsed.issues[0].message, variant: 'destructive' })
    }
    update.mutate(
      { aliasId: alias.id, changes: parsed.output },
      {
        onSuccess: () => {
          setEditing(false)
          toast({ title: 'Alias Updated', description: 'Your changes have been saved.' })
        },
        onError: (error) => toast({ ...describeUpdateError(error), variant: 'destructive' }),
      },
    )
  }

  /** Enter saves, Escape cancels. */
  function handleEditKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault()
      save()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      cancelEdit()
    }
  }

  /** Sends the opposite of what the switch shows (on only when active and not paused). */
  function toggleActive() {
    toggle.mutate(
      { aliasId: alias.id, active: !isAliasOn(alias) },
      {
        onSuccess: ({ message }) =>
          /activated/i.test(message)
            ? toast({ title: 'Alias Activated', description: 'Mail to this alias is forwarded again.' })
            : toast({ title: 'Alias Paused', description: 'Mail to this alias is now silently dropped.' }),
        onError: (error) =>
          toast({ title: 'Toggle Failed', description: errorMessage(error, 'Failed to toggle alias'), variant: 'destructive' }),
      },
    )
  }

  // Awaited rather than per-call callbacks: the refetch that follows a delete removes this row,
  // and TanStack Query skips a mutate() callback once its component has unmounted.
  async function confirmDelete() {
    try {
      await removal.mutateAsync(alias.id)
    } catch (error) {
      toast({ title: 'Deletion Failed', description: errorMessage(error, 'Failed to delete alias'), variant: 'destructive' })
      return
    }
    setConfirmingDelete(false)
    toast({ title: 'Alias Deleted', description: 'Mail to this address is refused from now on.' })
  }

  return {
    editing, draft, invalid, saving: update.isPending, startEdit, cancelEdit, changeDraft, save, handleEditKey,
    on: isAliasOn(alias), toggling: toggle.isPending, toggleActive,
    expanded, toggleExpanded: () => setExpanded((open) => !open),
    confirmingDelete, setConfirmingDelete, deleting: removal.isPending, confirmDelete,
  }
}

export type AliasRowState = ReturnType<typeof useAliasRow>
