-- Forward targets must be confirmed before mail is forwarded there (issue 11 item 5), per
-- (user, address): one confirmation covers every alias of the user. Targets that existed before
-- this migration were in use already and are kept working (confirmed at migration time).
create table forward_targets (
  user_id uuid not null references users (id) on delete cascade,
  email text not null,
  confirmed_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (user_id, email)
);
insert into forward_targets (user_id, email, confirmed_at)
select distinct a.user_id, lower(trim(t)), now()
from aliases a, regexp_split_to_table(a.forward_to || ',' || coalesce(a.last_forward_to, ''), ',') t
where trim(t) like '%@%' and trim(t) not like '%://%'
on conflict do nothing;

-- A forward to an unconfirmed target waits as `held` (its spooled message is kept) until the
-- target is confirmed, or fails once the hold ends.
alter table deliveries drop constraint deliveries_status_check;
alter table deliveries add constraint deliveries_status_check check (status in ('pending', 'held', 'sent', 'failed'));
create index deliveries_held_idx on deliveries (created_at) where status = 'held';
