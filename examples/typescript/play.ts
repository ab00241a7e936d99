// Plays one whole Trinchera game, both seats making random legal moves, over gRPC or
// gRPC-web, then checks from GetHistory that the hidden setups and the dice were fair.
//
//   npx tsx play.ts [RULESET] [--server URL] [--transport grpc|grpc-web] [--max-moves N]
//   npx tsx play.ts --list            # the rulesets the server hosts, one per line
//
// Needs code generated from ../../proto into ./gen (npm run generate). gRPC-web needs a
// server started with --grpc-web. Exits 0 when the game ended and verified, non-zero with a
// message on stderr otherwise.

import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { fromBinary } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { Phase, type GameView, type Piece } from "./gen/trinchera/v1/game_pb.js";
import { GameService, type GetHistoryResponse } from "./gen/trinchera/v1/game_service_pb.js";
import type { Ruleset } from "./gen/trinchera/v1/rulesets_pb.js";

type Api = Client<typeof GameService>;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      server: { type: "string", default: process.env.TRINCHERA_SERVER ?? "http://127.0.0.1:50051" },
      transport: { type: "string", default: "grpc" },
      "max-moves": { type: "string", default: "2000" },
      list: { type: "boolean", default: false },
    },
  });
  const baseUrl = values.server;
  const interceptors = [waitOutRateLimits];
  // gRPC needs HTTP/2; gRPC-web (what browsers speak) works over HTTP/1.1 as well.
  const transport =
    values.transport === "grpc"
      ? createGrpcTransport({ baseUrl, interceptors })
      : values.transport === "grpc-web"
        ? createGrpcWebTransport({ baseUrl, httpVersion: "1.1", interceptors })
        : fail(`--transport must be grpc or grpc-web, not ${values.transport}`);
  const api = createClient(GameService, transport);

  const { rulesets } = await api.listRulesets({});
  if (values.list) {
    console.log(rulesets.map((r) => r.id).join("\n"));
    return;
  }
  const id = positionals[0] ?? "frente";
  const ruleset =
    rulesets.find((r) => r.id === id) ??
    fail(`unknown ruleset "${id}"; the server hosts ${rulesets.map((r) => r.id).join(", ")}`);
  await play(api, ruleset, Number(values["max-moves"]), values.transport);
}

// Calls wait out the server's rate limits. A refusal with RESOURCE_EXHAUSTED that carries
// google.rpc.RetryInfo (a rate limit) changed nothing: the call is sent again after the delay
// the server names. A refusal without it (a cap) is final, as is every other error.
let waits = 0; // refusals waited out
const waitOutRateLimits: Interceptor = (next) => async (request) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await next(request);
    } catch (err) {
      const delay = request.stream ? undefined : retryDelayMs(err);
      if (delay === undefined || attempt >= 20) throw err;
      waits += 1;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
};

// The milliseconds a RESOURCE_EXHAUSTED refusal asks to wait (its RetryInfo), or undefined.
function retryDelayMs(err: unknown): number | undefined {
  const error = ConnectError.from(err);
  if (error.code !== Code.ResourceExhausted) return undefined;
  for (const detail of error.details) {
    if (!("type" in detail) || detail.type !== "google.rpc.RetryInfo") continue;
    // RetryInfo has one field: google.protobuf.Duration retry_delay = 1.
    const reader = new BinaryReader(detail.value);
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      if (field !== 1 || wireType !== WireType.LengthDelimited) {
        reader.skip(wireType);
        continue;
      }
      const delay = fromBinary(DurationSchema, reader.bytes());
      return Number(delay.seconds) * 1000 + delay.nanos / 1e6;
    }
  }
  return undefined;
}

async function play(api: Api, ruleset: Ruleset, maxMoves: number, via: string): Promise<void> {
  // Both seats are ours: create the game, then join its free seat. Each reply carries that
  // seat's secret token, sent back as "authorization: Bearer <token>".
  const created = await api.createGame({ ruleset: ruleset.id, playerName: "Ana" });
  const gameId = created.gameId;
  const joined = await api.joinGame({ gameId, playerName: "Beto" });
  const auth = new Map(
    [created, joined].map((r) => [
      r.seat,
      { headers: { authorization: `Bearer ${r.playerToken}` } },
    ]),
  );
  const as = (seat: number) => auth.get(seat) ?? fail(`no token for seat ${seat}`);

  // Seats with a setup zone place their pieces: one lets the server choose, the other asks
  // for a suggestion first (as a client would that lets a person adjust it) and sends it.
  for (const zone of ruleset.setupZones) {
    if (zone.seat === 0) {
      await api.submitSetup({ gameId, random: true }, as(zone.seat));
    } else {
      const { placements } = await api.suggestSetup({ gameId }, as(zone.seat));
      await api.submitSetup({ gameId, placements }, as(zone.seat));
    }
  }

  let view = viewOf(await api.getView({ gameId }, as(0)));
  if (view.phase !== Phase.PLAYING) fail(`play did not start: ${Phase[view.phase]}`);
  // The commitments as published: the dice from the first view, the setups once play
  // starts. The reveal after the end must open exactly these.
  const first = viewOf(created).status;
  const seenDice = first.case === "tanks" ? first.value.diceCommitment : "";
  const seenSetups = new Map(
    view.players.filter((p) => p.setupCommitment).map((p) => [p.seat, p.setupCommitment]),
  );

  let moves = 0;
  while (view.phase === Phase.PLAYING) {
    const seat = view.toMove ?? fail("no seat to move while playing");
    if (moves >= maxMoves) {
      view = viewOf(await api.resign({ gameId }, as(seat)));
      break;
    }
    if (view.viewerSeat !== seat) {
      // legal_moves are only ever the caller's own
      view = viewOf(await api.getView({ gameId }, as(seat)));
    }
    if (view.legalMoves.length === 0) fail(`seat ${seat} is to move but has no legal moves`);
    const choice = view.legalMoves[Math.floor(Math.random() * view.legalMoves.length)];
    const reply = await api.makeMove(
      { gameId, action: { case: "move", value: choice.move! }, expectedVersion: view.version },
      as(seat),
    );
    view = viewOf(reply);
    moves += 1;
  }
  if (view.phase !== Phase.FINISHED) fail(`the game stopped in ${Phase[view.phase]}`);

  // Anybody may audit a finished game: GetHistory without a token.
  const history = await api.getHistory({ gameId });
  const { problems, checked } = verify(ruleset, history, seenSetups, seenDice);
  if (problems.length > 0) {
    fail(`${ruleset.id} game ${gameId} is NOT fair:\n  ${problems.join("\n  ")}`);
  }

  const result = viewOf(history).result!;
  const outcome =
    result.winner !== undefined ? `seat ${result.winner} wins` : result.draw ? "draw" : "no winner";
  const waited = waits > 0 ? `; waited out ${waits} rate limits` : "";
  console.log(
    `${ruleset.id} over ${via}: ${moves} moves, ${outcome} (${result.reason}); fair: ${checked}${waited}`,
  );
}

// Checks the fairness reveal as game.proto describes it (FairnessReveal, SetupReveal,
// TanksStatus.dice_commitment, DiceRoll).
function verify(
  ruleset: Ruleset,
  history: GetHistoryResponse,
  seenSetups: Map<number, string>,
  seenDice: string,
): { problems: string[]; checked: string } {
  const { reveal } = history;
  if (!reveal) {
    return { problems: ["GetHistory has no fairness reveal after the end"], checked: "" };
  }
  const final = viewOf(history);
  const problems: string[] = [];
  const key = (cell?: { x: number; y: number }) => `${cell?.x},${cell?.y}`;

  // Setups: each opens the commitment published during play and is a legal placement.
  const labels = new Map(ruleset.board!.cells.map((c) => [key(c.cell), c.label]));
  const all: Piece[] = [...final.pieces, ...final.captured];
  const kindOf = new Map<number, string>(); // Piece.id -> kind, from the revealed setups
  for (const setup of reveal.setups) {
    const who = `seat ${setup.seat}`;
    const opened = sha256(Buffer.from(setup.salt, "hex"), Buffer.from(setup.canonicalSetup));
    if (opened !== setup.commitment) {
      problems.push(`${who}: SHA-256(salt || setup) is not its commitment`);
    }
    if (setup.commitment !== seenSetups.get(setup.seat)) {
      problems.push(`${who}: the commitment differs from the one published in play`);
    }
    const ordered = [...setup.placements].sort(
      (a, b) => a.cell!.y - b.cell!.y || a.cell!.x - b.cell!.x,
    );
    const text = ordered.map((p) => `${labels.get(key(p.cell))}=${p.kind}`).join(" ");
    if (text !== setup.canonicalSetup) {
      problems.push(`${who}: the placements do not spell the canonical setup`);
    }
    const zone = ruleset.setupZones.find((z) => z.seat === setup.seat);
    const zoneCells = new Set(zone?.cells.map(key));
    const cells = new Set(setup.placements.map((p) => key(p.cell)));
    if (cells.size !== setup.placements.length || [...cells].some((c) => !zoneCells.has(c))) {
      problems.push(`${who}: pieces outside the setup zone or two on one cell`);
    }
    const wanted = zone?.pieces ?? [];
    const placed = wanted.reduce((n, pc) => n + pc.count, 0);
    if (
      placed !== setup.placements.length ||
      wanted.some((pc) => setup.placements.filter((p) => p.kind === pc.kind).length !== pc.count)
    ) {
      problems.push(`${who}: the setup does not have the ruleset's piece counts`);
    }
    const firstId = all.filter((p) => p.owner < setup.seat).length;
    setup.placements.forEach((p, index) => kindOf.set(firstId + index, p.kind));
  }
  const revealed = reveal.setups.map((s) => s.seat).sort((a, b) => a - b);
  if (String(revealed) !== String([...seenSetups.keys()].sort((a, b) => a - b))) {
    problems.push(`setups committed by seats [${[...seenSetups.keys()]}], revealed [${revealed}]`);
  }
  for (const zone of ruleset.setupZones) {
    if (zone.hidden && !seenSetups.has(zone.seat)) {
      problems.push(`seat ${zone.seat} set up in secret without a commitment`);
    }
  }

  // Every kind shown in a battle, a reveal or the final position is the one set up.
  const shown: [number, string][] = all.filter((p) => p.kind).map((p) => [p.id, p.kind]);
  for (const event of history.events) {
    for (const { effect } of event.effects) {
      if (effect.case === "battle") {
        shown.push([effect.value.attackerId, effect.value.attackerKind]);
        shown.push([effect.value.defenderId, effect.value.defenderKind]);
      } else if (effect.case === "reveal") {
        shown.push([effect.value.pieceId, effect.value.kind]);
      }
    }
  }
  const compared = shown.filter(([id]) => kindOf.has(id));
  for (const [id, kind] of compared) {
    if (kindOf.get(id) !== kind) {
      problems.push(`piece ${id} showed as ${kind} but was set up as ${kindOf.get(id)}`);
    }
  }

  // Dice (tanques): the seed opens the commitment, and every roll k is derived from it.
  let rolls = 0;
  if (seenDice) {
    const seed = Buffer.from(reveal.diceSeed, "hex");
    if (sha256(seed) !== seenDice) {
      problems.push("SHA-256(dice seed) is not the dice commitment published in play");
    }
    for (const event of history.events) {
      const action = event.move?.action;
      const column = Math.min(action?.case === "attack" ? action.value.attackers.length : 0, 4);
      for (const { effect } of event.effects) {
        if (effect.case !== "dice") continue;
        // k counts rolls from 0; the attack table: n attackers win on 6 - n or more.
        const [die, expected] = [effect.value, roll(seed, rolls)];
        if (die.index !== rolls || die.roll !== expected) {
          problems.push(`die k=${rolls} shows ${die.roll}, the seed gives ${expected}`);
        }
        if (die.column !== column || die.attackerWins !== die.roll >= 6 - column) {
          problems.push(`die k=${rolls} misread: ${die.roll} in column ${die.column}`);
        }
        rolls += 1;
      }
    }
    const counted = final.status.case === "tanks" ? final.status.value.rolls : -1;
    if (rolls !== counted) problems.push(`the game counts ${counted} rolls, the history ${rolls}`);
  }
  return {
    problems,
    checked: `${reveal.setups.length} setups, ${compared.length} identities, ${rolls} dice`,
  };
}

// Roll k of a seed (docs/tanques-dice.md): the first byte b < 252 of
// SHA-256(seed || k as 8 bytes big-endian), rehashing while there is none; 1 + b % 6.
function roll(seed: Buffer, k: number): number {
  const index = Buffer.alloc(8);
  index.writeBigUInt64BE(BigInt(k));
  let h = createHash("sha256").update(seed).update(index).digest();
  for (;;) {
    const b = h.find((byte) => byte < 252);
    if (b !== undefined) return 1 + (b % 6);
    h = createHash("sha256").update(h).digest();
  }
}

function sha256(...parts: Buffer[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
}

function viewOf(reply: { view?: GameView }): GameView {
  return reply.view ?? fail("a reply without a view");
}

function fail(message: string): never {
  throw new Error(message);
}

main().catch((err: unknown) => {
  if (err instanceof ConnectError) {
    console.error(`gRPC error ${Code[err.code]}: ${err.rawMessage}`);
  } else {
    console.error(err instanceof Error ? err.message : err);
  }
  process.exit(1);
});
