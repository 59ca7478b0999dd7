-- Accepted mail is stored as it streams in (issue #12 §3): the message in chunks of at most
-- 64 KiB, each sealed on its own (SecretBox purpose 'spool', associated data naming the row,
-- the chunk's place and whether it is the last), so neither the MX nor a delivery holds a whole
-- large message. `chunks` is how many a message has; null = the single sealed blob in `raw` of
-- rows spooled before this migration, still read as they are.
alter table spool_messages alter column raw drop not null;
alter table spool_messages add column chunks integer;
alter table spool_messages add constraint spool_messages_one_format check ((raw is null) = (chunks is not null));

-- The MX writes a large message's chunks before its row, in the same transaction: the reference
-- is checked at commit.
create table spool_chunks (
  spool_id uuid not null references spool_messages (id) on delete cascade deferrable initially deferred,
  seq integer not null,
  sealed bytea not null,
  primary key (spool_id, seq)
);
-- Sealed bytes are random: never try to compress them.
alter table spool_chunks alter column sealed set storage external;
