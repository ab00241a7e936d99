-- Trinchera's schema, version 3: player accounts, their tokens, and the games in which each
-- account holds a seat. Only SQL that CockroachDB and YugabyteDB accept as well.

-- Account ids: as game_ids, short, increasing, never handed out twice.
CREATE SEQUENCE account_ids START WITH 1 INCREMENT BY 1 CACHE 1;

-- One row per account ever registered (a deleted one stays: its games name it), with its
-- encoded AccountRecord.
CREATE TABLE accounts (
    id INT8 NOT NULL PRIMARY KEY,
    record BYTEA NOT NULL
);

-- Which account holds each folded name now: the primary key makes a name one account's.
CREATE TABLE account_names (
    folded TEXT NOT NULL PRIMARY KEY,
    account_id INT8 NOT NULL REFERENCES accounts (id)
);

-- Accounts' tokens (sessions and personal ones): SHA-256 of the token, never the token.
CREATE TABLE account_tokens (
    token_hash BYTEA NOT NULL PRIMARY KEY,
    account_id INT8 NOT NULL,
    record BYTEA NOT NULL
);
CREATE INDEX account_tokens_by_account ON account_tokens (account_id, token_hash);

-- The games in which each account holds a seat (seats are taken, never given back), for
-- the listing of an account's games.
CREATE TABLE game_players (
    account_id INT8 NOT NULL,
    game_id INT8 NOT NULL REFERENCES games (id),
    PRIMARY KEY (account_id, game_id)
);
