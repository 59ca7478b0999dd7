-- Sign-in limits that hold under concurrency (issue 11). An attempt is counted before its
-- password is checked; an account's failures space its next attempts out (`next_allowed_at`,
-- doubling waits) instead of locking the owner out for a whole window. `expires_at` is when a
-- row stops mattering (its window has passed), so the retention purge can delete it then.
alter table rate_limits add column next_allowed_at timestamptz;
alter table rate_limits add column expires_at timestamptz not null default now() + interval '1 day';
update rate_limits set expires_at = last_action + interval '1 day';
create index rate_limits_expires_at_idx on rate_limits (expires_at);
drop index rate_limits_last_action_idx;
