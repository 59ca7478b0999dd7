-- One account's Unread and Starred lists (GET /api/emails?providerId={id}&category=unread|starred,
-- what the inbox shows when an account is picked): the user's partial indexes of migration 0030 hold
-- every account's unread (starred) mail, so a page for one account walked past the other accounts'
-- newer ones (18.7 ms for 200 unread of a 100,000-message account under 10,100 newer). These hold
-- only unread (starred) mail, so they cost an insert only for such a message.
create index received_emails_provider_unread_idx on received_emails (provider_id, received_at desc, id desc) where not is_read and not deleted;
create index received_emails_provider_starred_idx on received_emails (provider_id, received_at desc, id desc) where is_starred and not deleted;
