-- Delete moves to Trash with Undo (issue 26 item 4): when the user deleted the message, so the
-- write-back leaves it where it is for the undo window and Undo can still bring the row back.
alter table received_emails add column deleted_at timestamptz;
