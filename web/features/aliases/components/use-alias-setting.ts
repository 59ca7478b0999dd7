import type { AliasView, UpdateAliasInput } from '../../../../shared/alias-schemas.ts'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useUpdateAlias } from '../api/update-alias.ts'

/** A setting of one alias saved from its details: a toast says what it does now, or why it was not saved. */
export function useAliasSetting(alias: AliasView) {
  const update = useUpdateAlias(alias.userId)
  return {
    update,
    save(changes: UpdateAliasInput, saved: { title: string; description: string }) {
      update.mutate(
        { aliasId: alias.id, changes },
        {
          onSuccess: () => toast(saved),
          onError: (error) => toast({ title: 'Update Failed', description: errorMessage(error, 'Failed to update the alias'), variant: 'destructive' }),
        },
      )
    },
  }
}
