-- A milestone's decisions by milestone and round (every round's state reads them). The unique key of 0031 leaves
-- voided decisions out, so a query that does not say "voided_at IS NULL" can no longer use it: without this index
-- each approval read the whole table (measured: an approval's PostgreSQL CPU rose by about 1 ms at 20,000 decisions).
CREATE INDEX "verification_decisions_milestone_idx" ON "verification_decisions" ("milestone_id", "round");
