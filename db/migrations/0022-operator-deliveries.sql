-- Mail to postmaster@ and abuse@ each mail domain (RFC 5321 §4.5.1, RFC 2142) is forwarded to the
-- operator (OPERATOR_EMAIL): a delivery of kind 'operator', with no alias, whose target is the
-- role address the mail was sent to (the operator's own address is read at delivery time).
alter table deliveries drop constraint deliveries_kind_check;
alter table deliveries add constraint deliveries_kind_check check (kind in ('email', 'webhook', 'reply', 'operator'));
