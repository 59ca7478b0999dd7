-- Message-IDs on an alias's threads (issue 11): those of messages forwarded to the alias (their
-- Message-ID, In-Reply-To and References). A reply through a reverse alias keeps only these in
-- its References / In-Reply-To (and the ids Veilmail makes itself), so ids from the user's other
-- correspondence never reach the contact. Only a SHA-256 of each id is kept; rows go with the
-- alias and after a year (housekeeping).
create table thread_message_ids (
  alias_id uuid not null references aliases (id) on delete cascade,
  id_hash bytea not null,
  created_at timestamptz not null default now(),
  primary key (alias_id, id_hash)
);
create index thread_message_ids_created_at_idx on thread_message_ids (created_at);
