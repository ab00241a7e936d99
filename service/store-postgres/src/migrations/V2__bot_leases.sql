-- Trinchera's schema, version 2: bot leases, so that one server at a time thinks and acts
-- for a game's bot (store::BotLease). The append that hands the turn to a bot writes its
-- row in the same transaction; the one that hands it back deletes it. A row whose
-- until_ms has passed belongs to a server that died (or stopped): another takes it over.
CREATE TABLE bot_leases (
    game_id INT8 NOT NULL PRIMARY KEY REFERENCES games (id),
    -- The server holding the turn: a random number it drew at start.
    holder INT8 NOT NULL,
    -- When the lease runs out unless renewed, ms since the Unix epoch.
    until_ms INT8 NOT NULL
);
CREATE INDEX bot_leases_by_expiry ON bot_leases (until_ms);
