-- Throughput of the mail pipeline (issue #4 benchmark).
-- Sealed messages are random bytes: never try to compress them.
alter table spool_messages alter column raw set storage external;
alter table spool_messages alter column meta set storage external;

-- Every delivery row of a busy alias share-locked the alias row (foreign key check), and those
-- shared locks queue up on one row. A delivery whose alias is gone fails on its own
-- (`alias-deleted`), so the reference needs no constraint.
alter table deliveries drop constraint deliveries_alias_id_fkey;
alter table deliveries drop constraint deliveries_reverse_alias_id_fkey;
