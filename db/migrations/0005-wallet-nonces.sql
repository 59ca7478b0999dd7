-- Single-use sign-in nonces for Solana wallets (Sign-In-With-Solana style messages).
create table wallet_nonces (
  nonce text primary key,
  wallet_address text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index wallet_nonces_expires_at_idx on wallet_nonces (expires_at);
