import { Ban, Users } from 'lucide-react'
import type { ContactView } from '../../../../shared/sender-block-schemas.ts'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { toast } from '../../../components/ui/use-toast.ts'
import { errorMessage } from '../../../lib/api-client.ts'
import { useBlockContact } from '../api/block-contact.ts'
import { useAliasContacts } from '../api/get-alias-contacts.ts'

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '—')

/** The senders that wrote to this alias (issue 30), each with a block switch; a blocked one's mail to this alias is refused or dropped. */
export function ContactsPanel({ aliasId }: { aliasId: string }) {
  const contacts = useAliasContacts(aliasId)
  const block = useBlockContact(aliasId)

  function toggle(contact: ContactView) {
    const blocked = !contact.blockedAt
    block.mutate({ contactId: contact.id, blocked }, {
      onSuccess: () => toast({ title: blocked ? 'Sender Blocked' : 'Sender Unblocked', description: blocked ? `Mail from ${contact.address} to this alias is no longer forwarded.` : `Mail from ${contact.address} is forwarded again.` }),
      onError: (error) => toast({ title: 'Change Failed', description: errorMessage(error, 'Failed to change the sender'), variant: 'destructive' }),
    })
  }

  return (
    <section aria-labelledby={`contacts-${aliasId}`} className="grid gap-3 rounded-lg border border-border bg-muted/40 p-4" data-testid="contacts-panel">
      <div className="flex items-center gap-2">
        <Users aria-hidden="true" className="size-4 text-primary" />
        <h3 id={`contacts-${aliasId}`} className="text-sm font-semibold">Contacts</h3>
      </div>
      <p className="max-w-3xl text-xs text-muted-foreground">
        Everyone whose mail this alias forwarded, or who was copied on it. Block a sender and their mail to this alias is
        refused or dropped (Settings, Blocked senders), and counted here.
      </p>
      {contacts.isPending ? (
        <div className="flex items-center gap-2 text-xs text-muted-foreground"><Spinner decorative />Loading contacts...</div>
      ) : contacts.isError ? (
        <p role="alert" className="text-xs text-destructive">{errorMessage(contacts.error, 'Failed to load the contacts')}</p>
      ) : contacts.data.length === 0 ? (
        <p className="text-xs text-muted-foreground">No contacts yet: they appear once mail is forwarded.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-xs">
            <thead className="text-muted-foreground">
              <tr>
                <th scope="col" className="py-1.5 pr-3 font-medium">Sender</th>
                <th scope="col" className="py-1.5 pr-3 font-medium">First mail</th>
                <th scope="col" className="py-1.5 pr-3 font-medium">Last mail</th>
                <th scope="col" className="py-1.5 pr-3 text-right font-medium">Forwarded</th>
                <th scope="col" className="py-1.5 pr-3 text-right font-medium">Blocked</th>
                <th scope="col" className="py-1.5 font-medium"><span className="sr-only">Action</span></th>
              </tr>
            </thead>
            <tbody>
              {contacts.data.map((contact) => (
                <tr key={contact.id} className="border-t border-border" data-testid="contact-row">
                  <td className="py-2 pr-3">
                    <div className="font-medium break-all">{contact.address}</div>
                    {contact.name && <div className="text-muted-foreground">{contact.name}</div>}
                    {contact.blockedAt && <div className="font-medium text-destructive">Blocked since {day(contact.blockedAt)}</div>}
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap">{day(contact.firstMailAt)}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{day(contact.lastMailAt)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{contact.forwarded}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{contact.blocked}</td>
                  <td className="py-2 text-right">
                    <Button variant={contact.blockedAt ? 'outline' : 'destructive'} size="sm" onClick={() => toggle(contact)} disabled={block.isPending}
                      aria-label={`${contact.blockedAt ? 'Unblock' : 'Block'} ${contact.address}`}>
                      <Ban aria-hidden="true" />
                      {contact.blockedAt ? 'Unblock' : 'Block'}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
