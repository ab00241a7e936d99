-- Trinchera's schema, version 1. Only SQL that CockroachDB and YugabyteDB accept as well
-- (docs/sql-subset.md): explicit INT8/INT4, no SERIAL, no extensions, no triggers.

-- Game ids: short decimal numbers, increasing, never handed out twice (see the module
-- documentation of store/postgres). CACHE 1 keeps them in the order they were taken on
-- every engine (YugabyteDB caches 100 per connection otherwise).
CREATE SEQUENCE game_ids START WITH 1 INCREMENT BY 1 CACHE 1;

-- One row per game: the traits listings and the queries of unfinished games filter on,
-- beside the encoded SummaryRecord they show (records::encode), so that nothing is decoded
-- to filter.
CREATE TABLE games (
    id INT8 NOT NULL PRIMARY KEY,
    -- The ruleset's id ("frente"): stable, unlike its index in a build's catalog.
    ruleset TEXT NOT NULL,
    -- trinchera.v1.Phase number; NULL for a number the writing build did not know.
    phase INT4,
    -- trinchera.v1.Speed number.
    speed INT4 NOT NULL,
    -- Seats played by the server's bots (0, 1 or 2).
    bots INT4 NOT NULL,
    -- When the game entered its phase, ms since the Unix epoch.
    since_ms INT8 NOT NULL,
    summary BYTEA NOT NULL
);
-- Listings (newest first, by id below a cursor) with one filter each; the queries of
-- unfinished and unstarted games read ranges of phase.
CREATE INDEX games_by_phase ON games (phase, id);
CREATE INDEX games_by_ruleset ON games (ruleset, id);
CREATE INDEX games_by_speed ON games (speed, id);

-- Each game's append-only log: one row per entry, keyed by (game, version), so that the
-- primary key refuses a second append of one version.
CREATE TABLE events (
    game_id INT8 NOT NULL REFERENCES games (id),
    version INT8 NOT NULL,
    -- records::encode(EventRecord).
    record BYTEA NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- Which game a player token belongs to: SHA-256 of the token, never the token.
CREATE TABLE tokens (
    token_hash BYTEA NOT NULL PRIMARY KEY,
    game_id INT8 NOT NULL REFERENCES games (id)
);

-- The server's last sign of life (one row), and the intervals it was down.
CREATE TABLE liveness (
    id INT4 NOT NULL PRIMARY KEY CHECK (id = 1),
    alive_ms INT8
);
INSERT INTO liveness (id, alive_ms) VALUES (1, NULL);

CREATE TABLE downtime (
    from_ms INT8 NOT NULL,
    to_ms INT8 NOT NULL,
    PRIMARY KEY (from_ms, to_ms)
);
