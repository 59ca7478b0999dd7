-- Archive and move (issue 26): the folder a message was moved to, written to the server by the
-- write-back (MOVE) after the same undo window as a delete; the row is hidden meanwhile.
alter table received_emails add column move_to text;
