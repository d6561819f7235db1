-- The on-chain fill and refund views look a bridge transfer up by its deposit id alone (the id is
-- the transfer's on-chain id, and the views are not told its chain). Without these indexes every
-- read of an id that is not an escrow order scanned both bridge tables.
CREATE INDEX bridge_deposits_deposit_idx ON bridge_deposits (deposit_id);
CREATE INDEX bridge_releases_deposit_id_idx ON bridge_releases (deposit_id);
