-- Webhook failures the owner can see (issue 15). When a delivery was last tried, for the list of
-- webhook deliveries that keep failing; and webhook deliveries that failed for good join the
-- undelivered list, as reports (a webhook's message is never kept: the spool row goes with it).
alter table deliveries add column last_attempt_at timestamptz;
alter table undelivered_messages add column kind text not null default 'email' check (kind in ('email', 'webhook'));
