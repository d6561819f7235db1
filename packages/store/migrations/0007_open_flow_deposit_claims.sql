-- The bridge deposit an open-flow registration's status view has claimed: a Deposited log
-- (chain_domain, tx_hash, log_index) belongs to at most one registration. The status read sets the claim
-- once, by a conditional UPDATE, the first time it finds a matching unclaimed log; the UNIQUE constraint
-- settles a race between two registrations (any replica) for the same log. All four are null until then.
ALTER TABLE open_flow_registrations
  ADD COLUMN deposit_chain_domain text,
  ADD COLUMN deposit_tx_hash text CHECK (deposit_tx_hash ~ '^0x[0-9a-f]{64}$'),
  ADD COLUMN deposit_log_index integer,
  ADD COLUMN deposit_claimed_at timestamptz,
  ADD CONSTRAINT open_flow_registrations_deposit_claim_whole CHECK (
    (deposit_tx_hash IS NULL) = (deposit_chain_domain IS NULL)
    AND (deposit_tx_hash IS NULL) = (deposit_log_index IS NULL)
    AND (deposit_tx_hash IS NULL) = (deposit_claimed_at IS NULL)
  ),
  ADD CONSTRAINT open_flow_registrations_deposit_claim_once
    UNIQUE (deposit_chain_domain, deposit_tx_hash, deposit_log_index);
