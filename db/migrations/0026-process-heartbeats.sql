-- Each long-running process (web, mx, delivery, submission) beats here every few seconds, so
-- /api/health and `npm run ops -- health` show a dead worker. One row per running copy
-- (`instance` is host:pid); a clean stop deletes its row, a killed one simply goes stale.
create table process_heartbeats (
  process text not null,
  instance text not null,
  started_at timestamptz not null default now(),
  beat_at timestamptz not null default now(),
  primary key (process, instance)
);
