-- One hub order per on-chain order: an on-chain id recorded for a submission (from the upstream's ack,
-- recomputed, or set by an operator's reconciliation) can never be recorded for a second quote.
DROP INDEX submissions_onchain_idx;
CREATE UNIQUE INDEX submissions_onchain_unique ON submissions (onchain_order_id)
  WHERE onchain_order_id IS NOT NULL;
