-- A quote's winner and template are written once per quote and read whole, rarely (a prepare replay,
-- a submission, a listing): json keeps the text as inserted, where jsonb parses it into its binary form
-- on every insert, about a third of the insert's cost (docs/decisions.md). Readers put the keys back in
-- jsonb's order (inJsonbKeyOrder), and a text jsonb would refuse is inserted through a jsonb cast, so
-- every answer and every refusal is what it was.
ALTER TABLE quotes ALTER COLUMN winner TYPE json USING winner::json,
                   ALTER COLUMN template TYPE json USING template::json;
