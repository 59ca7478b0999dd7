-- The lists read received_emails through index-only scans, newest first (db/received-emails.ts),
-- and an index-only scan reads the table for every row on a page the visibility map does not yet
-- mark all-visible: the newest rows, the very ones every list starts with, until a vacuum has seen
-- them. Postgres vacuums a table for its inserts after 1,000 + 20% of its rows (and for dead rows,
-- here flag changes and deletes, after 50 + 20%): 2 million new messages on a table of 10 million.
-- At 1% (2% for dead rows) the newest mail is vacuumed after a first sync or a day's mail, not
-- after weeks. Measured with 110,100 messages of one user (npm run bench -- sync, API part), right
-- after they were stored and once vacuumed: a page at offset 4,950 p95 7.3 → 3.5 ms, a page of 200
-- unread 7.0 → 4.7 ms.
alter table received_emails set (
  autovacuum_vacuum_insert_scale_factor = 0.01,
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02
);
