#!/usr/bin/env bash
# Plays one whole game between two seats with random legal moves, using nothing but
# `trinchera --json` and `jq`. Both seats live in one config directory, so every command
# names its seat with --as.
#
#   docs/play-random.sh [RULESET]        # default: frente; needs a running server
#
# TRINCHERA_SERVER (or --server) says where the server is; TRINCHERA_BIN which binary
# to run (default: trinchera on PATH).
set -euo pipefail

ruleset="${1:-frente}"
t() { "${TRINCHERA_BIN:-trinchera}" --json "$@"; }

game=$(t new "$ruleset" --name Ana | jq -r '.game_id')
t join "$game" --name Beto > /dev/null
echo "game $game ($ruleset)"

# Seats with a setup zone set up at random; the others have nothing to do.
for seat in 0 1; do
  if [ "$(t --as "$seat" show "$game" | jq ".view.players[$seat].setup_done")" = false ]; then
    t --as "$seat" setup "$game" --random > /dev/null
  fi
done

moves=0
while :; do
  state=$(t --as 0 show "$game")
  [ "$(jq -r '.view.phase' <<< "$state")" = PHASE_FINISHED ] && break
  seat=$(jq -r '.view.to_move' <<< "$state")
  legal=$(t --as "$seat" moves "$game")
  count=$(jq '.legal_moves | length' <<< "$legal")
  pick=$(jq -r --argjson i $((RANDOM % count)) '.legal_moves[$i].notation' <<< "$legal")
  version=$(jq -r '.version' <<< "$legal")
  t --as "$seat" move --expect-version "$version" "$game" "$pick" > /dev/null
  moves=$((moves + 1))
  if [ -n "${MAX_MOVES:-}" ] && [ "$moves" -ge "$MAX_MOVES" ]; then
    t --as "$seat" resign --yes "$game" > /dev/null
  fi
done

jq -r '.view.result | "result: \(.reason), winner: \(.winner // "none")"' <<< "$(t show "$game")"
echo "moves: $moves"
t verify "$game" | jq -r '.verdict'
