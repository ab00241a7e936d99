#!/usr/bin/env python3
"""Plays one whole Trinchera game over gRPC, both seats making random legal moves, then
checks from GetHistory that the hidden setups and the dice were fair.

    python play.py [RULESET] [--server URL] [--max-moves N]
    python play.py --list            # the rulesets the server hosts, one per line

Needs stubs generated from ../../proto into ./gen (./generate.sh). Exits 0 when the game
ended and verified, non-zero with a message on stderr otherwise.
"""

import argparse
import collections
import hashlib
import os
import random
import sys
import time
from pathlib import Path

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

sys.path.insert(0, str(Path(__file__).resolve().parent / "gen"))
try:
    from trinchera.v1 import game_pb2 as pb
    from trinchera.v1 import game_service_pb2 as api
    from trinchera.v1 import game_service_pb2_grpc as api_grpc
except ImportError as err:
    sys.exit(f"no generated stubs ({err}): run ./generate.sh first")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", nargs="?", default="frente")
    parser.add_argument(
        "--server",
        default=os.environ.get("TRINCHERA_SERVER", "http://127.0.0.1:50051"),
        help="http://HOST:PORT or https://HOST:PORT (default: $TRINCHERA_SERVER or %(default)s)",
    )
    parser.add_argument("--max-moves", type=int, default=2000, help="resign after this many moves")
    parser.add_argument("--list", action="store_true", help="list the hosted rulesets and exit")
    args = parser.parse_args()

    scheme, _, target = args.server.partition("://")
    if scheme == "https":
        channel = grpc.secure_channel(target, grpc.ssl_channel_credentials())
    else:
        channel = grpc.insecure_channel(target)
    with channel:
        stub = Patient(api_grpc.GameServiceStub(channel))
        rulesets = {r.id: r for r in stub.ListRulesets(api.ListRulesetsRequest()).rulesets}
        if args.list:
            print("\n".join(rulesets))
            return
        if args.ruleset not in rulesets:
            sys.exit(f"unknown ruleset {args.ruleset!r}; the server hosts {', '.join(rulesets)}")
        play(stub, rulesets[args.ruleset], args.max_moves)


class Patient:
    """A stub whose calls wait out the server's rate limits. A refusal with RESOURCE_EXHAUSTED
    that carries google.rpc.RetryInfo (a rate limit) changed nothing: the call is sent again
    after the delay the server names. A refusal without it (a cap) is final, as is every other
    error."""

    ATTEMPTS = 20

    def __init__(self, stub):
        self._stub = stub
        self.waits = 0  # refusals waited out

    def __getattr__(self, name):
        method = getattr(self._stub, name)

        def call(request, **kwargs):
            for _ in range(self.ATTEMPTS - 1):
                try:
                    return method(request, **kwargs)
                except grpc.RpcError as err:
                    delay = retry_delay(err)
                    if delay is None:
                        raise
                    self.waits += 1
                    time.sleep(delay)
            return method(request, **kwargs)

        return call


def retry_delay(err: grpc.RpcError):
    """The seconds a RESOURCE_EXHAUSTED refusal asks to wait (its RetryInfo), or None."""
    if err.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    status = rpc_status.from_call(err)
    for detail in status.details if status else []:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info.retry_delay.ToTimedelta().total_seconds()
    return None


def play(stub, ruleset, max_moves: int) -> None:
    # Both seats are ours: create the game, then join its free seat. Each reply carries
    # that seat's secret token, sent back as "authorization: Bearer <token>".
    created = stub.CreateGame(api.CreateGameRequest(ruleset=ruleset.id, player_name="Ana"))
    game_id = created.game_id
    joined = stub.JoinGame(api.JoinGameRequest(game_id=game_id, player_name="Beto"))
    auth = {r.seat: [("authorization", f"Bearer {r.player_token}")] for r in (created, joined)}

    # Seats with a setup zone place their pieces: one lets the server choose, the other asks
    # for a suggestion first (as a client would that lets a person adjust it) and sends it.
    for zone in ruleset.setup_zones:
        if zone.seat == 0:
            request = api.SubmitSetupRequest(game_id=game_id, random=True)
        else:
            suggestion = stub.SuggestSetup(
                api.SuggestSetupRequest(game_id=game_id), metadata=auth[zone.seat]
            )
            request = api.SubmitSetupRequest(game_id=game_id, placements=suggestion.placements)
        stub.SubmitSetup(request, metadata=auth[zone.seat])

    view = stub.GetView(api.GetViewRequest(game_id=game_id), metadata=auth[0]).view
    if view.phase != pb.PHASE_PLAYING:
        sys.exit(f"play did not start: {pb.Phase.Name(view.phase)}")
    # The commitments as published: the dice from the first view, the setups once play
    # starts. The reveal after the end must open exactly these.
    first = created.view
    seen_dice = first.tanks.dice_commitment if first.HasField("tanks") else ""
    seen_setups = {p.seat: p.setup_commitment for p in view.players if p.setup_commitment}

    moves = 0
    while view.phase == pb.PHASE_PLAYING:
        seat = view.to_move
        if moves >= max_moves:
            view = stub.Resign(api.ResignRequest(game_id=game_id), metadata=auth[seat]).view
            break
        if view.viewer_seat != seat:  # legal_moves are only ever the caller's own
            view = stub.GetView(api.GetViewRequest(game_id=game_id), metadata=auth[seat]).view
        if not view.legal_moves:
            sys.exit(f"seat {seat} is to move but has no legal moves (version {view.version})")
        choice = random.choice(view.legal_moves)
        reply = stub.MakeMove(
            api.MakeMoveRequest(game_id=game_id, move=choice.move, expected_version=view.version),
            metadata=auth[seat],
        )
        view = reply.view
        moves += 1
    if view.phase != pb.PHASE_FINISHED:
        sys.exit(f"the game stopped in {pb.Phase.Name(view.phase)}")

    # Anybody may audit a finished game: GetHistory without a token.
    history = stub.GetHistory(api.GetHistoryRequest(game_id=game_id))
    problems, checked = verify(ruleset, history, seen_setups, seen_dice)
    if problems:
        sys.exit(f"{ruleset.id} game {game_id} is NOT fair:\n  " + "\n  ".join(problems))

    result = history.view.result
    if result.HasField("winner"):
        outcome = f"seat {result.winner} wins"
    else:
        outcome = "draw" if result.draw else "no winner"
    waited = f"; waited out {stub.waits} rate limits" if stub.waits else ""
    print(f"{ruleset.id}: {moves} moves, {outcome} ({result.reason}); fair: {checked}{waited}")


def verify(ruleset, history, seen_setups, seen_dice):
    """Checks the fairness reveal as game.proto describes it (FairnessReveal, SetupReveal,
    TanksStatus.dice_commitment, DiceRoll). Returns (problems, what was checked)."""
    reveal, final = history.reveal, history.view
    problems = []
    if not history.HasField("reveal"):
        return ["GetHistory has no fairness reveal after the end"], ""

    # Setups: each opens the commitment published during play and is a legal placement.
    labels = {(c.cell.x, c.cell.y): c.label for c in ruleset.board.cells}
    zones = {z.seat: z for z in ruleset.setup_zones}
    pieces_per_seat = collections.Counter(p.owner for p in [*final.pieces, *final.captured])
    kind_of = {}  # Piece.id -> kind, from the revealed setups
    for setup in reveal.setups:
        who = f"seat {setup.seat}"
        opened = hashlib.sha256(bytes.fromhex(setup.salt) + setup.canonical_setup.encode())
        if opened.hexdigest() != setup.commitment:
            problems.append(f"{who}: SHA-256(salt || setup) is not its commitment")
        if setup.commitment != seen_setups.get(setup.seat):
            problems.append(f"{who}: the commitment differs from the one published in play")
        ordered = sorted(setup.placements, key=lambda p: (p.cell.y, p.cell.x))
        text = " ".join(f"{labels.get((p.cell.x, p.cell.y))}={p.kind}" for p in ordered)
        if text != setup.canonical_setup:
            problems.append(f"{who}: the placements do not spell the canonical setup")
        zone = zones.get(setup.seat)
        cells = [(p.cell.x, p.cell.y) for p in setup.placements]
        zone_cells = {(c.x, c.y) for c in zone.cells} if zone else set()
        wanted = {pc.kind: pc.count for pc in zone.pieces} if zone else {}
        if not set(cells) <= zone_cells or len(set(cells)) != len(cells):
            problems.append(f"{who}: pieces outside the setup zone or two on one cell")
        if collections.Counter(p.kind for p in setup.placements) != wanted:
            problems.append(f"{who}: the setup does not have the ruleset's piece counts")
        first_id = sum(pieces_per_seat[seat] for seat in range(setup.seat))
        for index, placement in enumerate(setup.placements):
            kind_of[first_id + index] = placement.kind
    revealed = {s.seat for s in reveal.setups}
    if revealed != set(seen_setups):
        problems.append(
            f"setups committed by seats {sorted(seen_setups)}, revealed {sorted(revealed)}"
        )
    for zone in ruleset.setup_zones:
        if zone.hidden and zone.seat not in seen_setups:
            problems.append(f"seat {zone.seat} set up in secret without a commitment")

    # Every kind shown in a battle, a reveal or the final position is the one set up.
    shown = [(p.id, p.kind) for p in [*final.pieces, *final.captured] if p.kind]
    for event in history.events:
        for effect in event.effects:
            if effect.HasField("battle"):
                b = effect.battle
                shown += [(b.attacker_id, b.attacker_kind), (b.defender_id, b.defender_kind)]
            elif effect.HasField("reveal"):
                shown.append((effect.reveal.piece_id, effect.reveal.kind))
    compared = [(piece_id, kind) for piece_id, kind in shown if piece_id in kind_of]
    for piece_id, kind in compared:
        if kind_of[piece_id] != kind:
            problems.append(
                f"piece {piece_id} showed as {kind} but was set up as {kind_of[piece_id]}"
            )

    # Dice (tanques): the seed opens the commitment, and every roll k is derived from it.
    rolls = 0
    if seen_dice:
        seed = bytes.fromhex(reveal.dice_seed)
        if hashlib.sha256(seed).hexdigest() != seen_dice:
            problems.append("SHA-256(dice seed) is not the dice commitment published in play")
        for event in history.events:
            for effect in event.effects:
                if not effect.HasField("dice"):
                    continue
                # k counts rolls from 0; the attack table: n attackers win on 6 - n or more.
                die, expected = effect.dice, roll(seed, rolls)
                column = min(len(event.move.attack.attackers), 4)
                if die.index != rolls or die.roll != expected:
                    problems.append(f"die k={rolls} shows {die.roll}, the seed gives {expected}")
                if die.column != column or die.attacker_wins != (die.roll >= 6 - column):
                    problems.append(f"die k={rolls} misread: {die.roll} in column {die.column}")
                rolls += 1
        if rolls != final.tanks.rolls:
            problems.append(f"the game counts {final.tanks.rolls} rolls, the history {rolls}")
    return problems, f"{len(reveal.setups)} setups, {len(compared)} identities, {rolls} dice"


def roll(seed: bytes, k: int) -> int:
    """Roll k of a seed (docs/tanques-dice.md): the first byte b < 252 of
    SHA-256(seed || k as 8 bytes big-endian), rehashing while there is none; 1 + b % 6."""
    h = hashlib.sha256(seed + k.to_bytes(8, "big")).digest()
    while True:
        for b in h:
            if b < 252:
                return 1 + b % 6
        h = hashlib.sha256(h).digest()


if __name__ == "__main__":
    try:
        main()
    except grpc.RpcError as err:
        sys.exit(f"gRPC error {err.code().name}: {err.details()}")
