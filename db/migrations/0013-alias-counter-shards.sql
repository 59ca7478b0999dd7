-- Counters of a busy alias are bumped by many deliveries at once; one row per alias made them
-- wait on each other's commits. Each alias now has up to 8 rows (shards), read as their sum.
alter table alias_counters drop constraint alias_counters_pkey;
alter table alias_counters add column shard smallint not null default 0;
alter table alias_counters add primary key (alias_id, shard);
