-- age encryption keys (spec §3). The private key is stored only as an armored age file locked by
-- the owner's master password (scrypt stanza); the server cannot open it without that password.
-- One default key per user: a deferred exclusion constraint, so moving the default from one key to
-- another (or promoting a key when the default is deleted) can be one statement in any row order.
create table encryption_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  public_key text not null,
  encrypted_private_key text not null,
  key_name text not null check (char_length(key_name) between 1 and 100),
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  constraint encryption_keys_one_default exclude using btree (user_id with =) where (is_default) deferrable initially deferred
);
create index encryption_keys_user_id_idx on encryption_keys (user_id, created_at desc);
