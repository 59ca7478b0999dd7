-- What the mail pipeline needs on aliases (issue #4): a per-alias webhook signing secret
-- (Standard Webhooks "whsec_" + base64 of 32 random bytes; gen_random_uuid() draws from the
-- server's strong random source), per-alias counters, and the addresses of deleted aliases,
-- which keep answering 550 and can never be registered again (mail meant for the old owner
-- must not reach a new one).
alter table aliases add column webhook_secret text not null default
  ('whsec_' || encode(decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64'));

create table alias_counters (
  alias_id uuid primary key references aliases (id) on delete cascade,
  forwarded bigint not null default 0,
  replied bigint not null default 0,
  dropped bigint not null default 0,
  failed bigint not null default 0,
  updated_at timestamptz not null default now()
);

create table deleted_aliases (
  alias text not null,
  domain text not null,
  deleted_at timestamptz not null default now()
);
create unique index deleted_aliases_address_key on deleted_aliases (lower(alias), domain);

-- A deleted or renamed alias leaves its old address behind, whoever deletes it (API, account
-- deletion cascade, operator).
create function remember_deleted_alias() returns trigger language plpgsql as $$
begin
  insert into deleted_aliases (alias, domain) values (old.alias, old.domain) on conflict do nothing;
  return null;
end $$;
create trigger aliases_remember_deleted after delete on aliases
  for each row execute function remember_deleted_alias();
create trigger aliases_remember_renamed after update of alias, domain on aliases
  for each row when (lower(old.alias) is distinct from lower(new.alias) or old.domain is distinct from new.domain)
  execute function remember_deleted_alias();

-- Re-registering a deleted address fails like a duplicate would (unique_violation), so the API's
-- 409 handling covers it.
create function refuse_deleted_alias() returns trigger language plpgsql as $$
begin
  if exists (select 1 from deleted_aliases where lower(alias) = lower(new.alias) and domain = new.domain) then
    raise exception 'alias address was deleted and cannot be used again'
      using errcode = 'unique_violation', constraint = 'deleted_aliases_address_key';
  end if;
  return new;
end $$;
create trigger aliases_refuse_deleted before insert or update of alias, domain on aliases
  for each row execute function refuse_deleted_alias();
