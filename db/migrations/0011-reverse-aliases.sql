-- Reverse aliases (anonymous replies): an address on the alias domain bound to one (alias,
-- outside contact). The local part carries 160 random bits; mail to it from one of the alias's
-- own recipients is re-sent from the alias to the contact.
create table reverse_aliases (
  id uuid primary key default gen_random_uuid(),
  alias_id uuid not null references aliases (id) on delete cascade,
  local_part text not null unique,
  domain text not null,
  contact_address text not null,
  contact_name text,
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now()
);
create unique index reverse_aliases_contact_key on reverse_aliases (alias_id, lower(contact_address));
