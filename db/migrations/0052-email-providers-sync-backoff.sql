-- An account whose syncs keep failing (a server that is down, or one that goes over the sync's
-- limits every time) is synced less often: the schedule waits SYNC_INTERVAL_SECONDS doubled for
-- each sync in a row that gave up, at most six hours. A sync that succeeds clears the count.
alter table email_providers add column sync_failures integer not null default 0;
alter table email_providers add column sync_failed_at timestamptz;
