//! What the coming turns may bring, for the hard level: which hexes a tank can attack or
//! enter after one maneuver, and from that the expected harm of the enemy's next turn.

use trinchera_rules::tanques::{BASE_MANEUVERS, ROUNDS};
use trinchera_rules::{Cell, Description, Facing, Seat, TankPhase, TanquesStatus, Terrain, View};

use super::{TANK, URBAN, front_of};

/// Hexes from the centre of the map to a corner.
const RADIUS: i8 = 5;
/// Side of the square of axial coordinates the map fits in.
const SIDE: usize = 2 * RADIUS as usize + 1;
/// Forward steps a maneuver allows at most.
const MAX_STEPS: u8 = 2;
/// Turns a maneuver allows at most.
const MAX_TURNS: u8 = 2;
/// Percent of an expected attack on a tank that counts against the position (the enemy
/// cannot make every attack it threatens; tuned against the easy level).
const HARM_WEIGHT: i32 = 60;
/// Percent of the swing of an empty urban hex an enemy can drive into that counts against
/// the position (tuned against the easy level).
const HEX_WEIGHT: i32 = 150;
/// Out of six: the chance that an attack by 0, 1, 2, 3 or 4 and more tanks succeeds.
const SUCCESS: [i32; 5] = [0, 2, 3, 4, 5];

/// The index of `cell` in the square of axial coordinates, if it lies in it.
fn index(cell: Cell) -> Option<usize> {
    let side = -RADIUS..=RADIUS;
    (side.contains(&cell.x) && side.contains(&cell.y))
        .then(|| (cell.x + RADIUS) as usize * SIDE + (cell.y + RADIUS) as usize)
}

/// A set of hexes.
#[derive(Clone, Copy, Default)]
struct Hexes(u128);

impl Hexes {
    /// Adds `cell` (a cell off the square is ignored: no tank stands there).
    fn insert(&mut self, cell: Cell) {
        if let Some(index) = index(cell) {
            self.0 |= 1 << index;
        }
    }

    /// Whether `cell` is in the set.
    fn contains(self, cell: Cell) -> bool {
        index(cell).is_some_and(|index| self.0 & (1 << index) != 0)
    }

    /// Every hex of either set.
    fn union(self, other: Hexes) -> Hexes {
        Hexes(self.0 | other.0)
    }
}

/// The ground of the tanques map by axial coordinates, read once from the description.
pub(super) struct Map {
    ground: [Option<Terrain>; SIDE * SIDE],
    entries: [Vec<Cell>; 2],
}

impl Map {
    /// The map of `description`.
    pub(super) fn of(description: &Description) -> Map {
        let mut ground = [None; SIDE * SIDE];
        let mut entries = [Vec::new(), Vec::new()];
        for info in &description.board.cells {
            if let Some(index) = index(info.cell) {
                ground[index] = Some(info.terrain);
            }
            if let Terrain::Entry(seat) = info.terrain {
                entries[seat.index()].push(info.cell);
            }
        }
        Map { ground, entries }
    }

    /// What `cell` is, if it is on the map.
    fn terrain(&self, cell: Cell) -> Option<Terrain> {
        index(cell).and_then(|index| self.ground[index])
    }
}

/// Where one maneuver can take a tank.
#[derive(Clone, Copy, Default)]
struct Reach {
    /// The hexes it can end up facing (so attack next).
    attacks: Hexes,
    /// The hexes it can step into.
    enters: Hexes,
}

impl Reach {
    fn union(self, other: Reach) -> Reach {
        Reach {
            attacks: self.attacks.union(other.attacks),
            enters: self.enters.union(other.enters),
        }
    }
}

/// A tank on the board.
struct Tank {
    cell: Cell,
    owner: Seat,
    facing: Facing,
}

/// The tanks of one position, for working out what they can reach.
struct Field<'a> {
    map: &'a Map,
    tanks: Vec<Tank>,
    occupied: Hexes,
    reserve: [usize; 2],
}

impl<'a> Field<'a> {
    fn new(map: &'a Map, view: &View) -> Self {
        let mut field = Field {
            map,
            tanks: Vec::with_capacity(view.pieces.len()),
            occupied: Hexes::default(),
            reserve: [0; 2],
        };
        for piece in &view.pieces {
            match (piece.cell, piece.facing) {
                (Some(cell), Some(facing)) => {
                    field.occupied.insert(cell);
                    field.tanks.push(Tank {
                        cell,
                        owner: piece.owner,
                        facing,
                    });
                }
                _ => field.reserve[piece.owner.index()] += 1,
            }
        }
        field
    }

    /// Where a tank on `cell` facing `facing` can get with one maneuver (or none).
    fn reach(&self, cell: Cell, facing: Facing) -> Reach {
        let mut reach = Reach::default();
        let mut stack = vec![(cell, facing, 0, 0)];
        while let Some((cell, facing, steps, turns)) = stack.pop() {
            let front = front_of(cell, facing);
            reach.attacks.insert(front);
            if steps < MAX_STEPS
                && self.map.terrain(front).is_some()
                && !self.occupied.contains(front)
            {
                reach.enters.insert(front);
                stack.push((front, facing, steps + 1, turns));
            }
            if turns < MAX_TURNS && self.map.terrain(cell) != Some(Terrain::Swamp) {
                stack.push((cell, facing.left(), steps, turns + 1));
                stack.push((cell, facing.right(), steps, turns + 1));
            }
        }
        reach
    }

    /// Where a tank of `seat` entering from reserve can get in the same turn.
    fn entry_reach(&self, seat: Seat) -> Reach {
        self.map.entries[seat.index()]
            .iter()
            .filter(|&&cell| !self.occupied.contains(cell))
            .flat_map(|&cell| Facing::ALL.map(|facing| self.reach(cell, facing)))
            .fold(Reach::default(), Reach::union)
    }
}

/// The expected gain of attacking with `attackers` tanks a tank worth `stake` (a failure
/// costs an attacker), or nothing when the attack would not pay.
fn attack_worth(attackers: usize, stake: i32) -> i32 {
    let success = SUCCESS[attackers.min(SUCCESS.len() - 1)];
    ((success * stake - (6 - success) * TANK) / 6).max(0)
}

/// Whether `seat`'s enemy, at its next turn, may still enter and maneuver.
fn enemy_moves_next(view: &View, status: &TanquesStatus, seat: Seat) -> bool {
    if view.to_move == Some(!seat) {
        return status.phase == TankPhase::Movement;
    }
    match seat {
        Seat::First => status.round <= ROUNDS,
        Seat::Second => status.round < ROUNDS,
    }
}

/// The hard level's look ahead for `seat` at the position `view` shows: minus the expected
/// harm of the enemy's next turn (attacks on its tanks, with the urban hex under a tank lost
/// to the advance, and the empty urban hexes it holds that an enemy tank can drive into).
/// Counting the seat's own coming attacks as well made it lose more tanks, so it does not.
pub(super) fn outlook(map: &Map, view: &View, status: &TanquesStatus, seat: Seat) -> i32 {
    if view.to_move.is_none() {
        return 0;
    }
    let field = Field::new(map, view);
    let stake = |cell: Cell| {
        let urban = status.control.iter().any(|&(urban, _)| urban == cell);
        TANK + if urban { 2 * URBAN } else { 0 }
    };
    let facing = |attacker: &Tank, target: Cell| front_of(attacker.cell, attacker.facing) == target;
    let mut outlook = 0;
    let enemy = !seat;
    let moves = enemy_moves_next(view, status, seat);
    let reaches: Vec<Reach> = field
        .tanks
        .iter()
        .filter(|tank| tank.owner == enemy)
        .map(|tank| {
            if moves {
                field.reach(tank.cell, tank.facing)
            } else {
                let mut attacks = Hexes::default();
                attacks.insert(front_of(tank.cell, tank.facing));
                Reach {
                    attacks,
                    enters: Hexes::default(),
                }
            }
        })
        .collect();
    let entering = (moves && field.reserve[enemy.index()] > 0).then(|| field.entry_reach(enemy));
    let held = status
        .control
        .iter()
        .filter(|&&(_, holder)| holder == Some(enemy))
        .count();
    let maneuvers = usize::from(BASE_MANEUVERS) + held;
    for mine in field.tanks.iter().filter(|tank| tank.owner == seat) {
        let ready = field
            .tanks
            .iter()
            .filter(|tank| tank.owner == enemy && facing(tank, mine.cell))
            .count();
        let coming = reaches
            .iter()
            .filter(|reach| reach.attacks.contains(mine.cell))
            .count()
            - ready
            + usize::from(entering.is_some_and(|reach| reach.attacks.contains(mine.cell)));
        outlook -=
            HARM_WEIGHT * attack_worth(ready + coming.min(maneuvers), stake(mine.cell)) / 100;
    }
    for &(urban, holder) in &status.control {
        let taken = reaches.iter().any(|reach| reach.enters.contains(urban))
            || entering.is_some_and(|reach| reach.enters.contains(urban));
        if holder == Some(seat) && !field.occupied.contains(urban) && taken {
            outlook -= HEX_WEIGHT * 2 * URBAN / 100;
        }
    }
    outlook
}

#[cfg(test)]
mod tests {
    use trinchera_rules::tanques::{FINAL_ROUND, Tanques};
    use trinchera_rules::{BySeat, Rules, Seed, Sight, Status};

    use super::*;

    /// A fresh game's view (round 1, Rojo's movement) with `tanks` on the board.
    fn view(tanks: &[(Seat, &str, Facing)]) -> View {
        let description = Tanques::description();
        let mut view = Tanques::start(&BySeat([None, None]), Seed([0; 32])).view(Sight::Everything);
        for &(seat, label, facing) in tanks {
            let cell = description.cell_by_label(label).expect("a label");
            let piece = view
                .pieces
                .iter_mut()
                .find(|piece| piece.owner == seat && piece.cell.is_none())
                .expect("a tank in reserve");
            piece.cell = Some(cell);
            piece.facing = Some(facing);
        }
        view
    }

    fn status(view: &mut View) -> &mut TanquesStatus {
        let Status::Tanques(status) = &mut view.status else {
            panic!("a tanques view");
        };
        status
    }

    fn cell(label: &str) -> Cell {
        Tanques::description()
            .cell_by_label(label)
            .expect("a label")
    }

    fn reach(label: &str, facing: Facing) -> Reach {
        let view = view(&[(Seat::First, label, facing)]);
        let map = Map::of(Tanques::description());
        let field = Field::new(&map, &view);
        field.reach(cell(label), facing)
    }

    #[test]
    fn a_maneuver_reaches_two_steps_and_two_turns_but_never_behind() {
        let reach = reach("f6", Facing::E);
        let (h6, i6) = (cell("h6"), cell("i6"));
        assert!(reach.enters.contains(h6) && !reach.enters.contains(i6));
        assert!(
            reach.attacks.contains(i6),
            "two steps, then the hex in front"
        );
        assert!(
            !reach.attacks.contains(cell("e6")),
            "behind needs three turns"
        );
        assert!(reach.attacks.contains(front_of(cell("f6"), Facing::NW)));
    }

    #[test]
    fn a_tank_on_a_swamp_turns_only_once_it_has_stepped_off() {
        // f5 is a swamp, g5 the open hex east of it.
        let open = reach("g5", Facing::E);
        let swamp = reach("f5", Facing::E);
        assert!(open.attacks.contains(front_of(cell("g5"), Facing::NW)));
        assert!(!swamp.attacks.contains(front_of(cell("f5"), Facing::NW)));
        assert!(
            swamp.attacks.contains(cell("h5")),
            "straight ahead still works"
        );
    }

    /// Rojo's outlook with its tank on f6, a hex it holds, and an Azul tank beside it on f7
    /// facing `facing`, in round `round`.
    fn rojo_beside_azul(facing: Facing, round: u8) -> i32 {
        let mut view = view(&[(Seat::First, "f6", Facing::E), (Seat::Second, "f7", facing)]);
        let status = status(&mut view);
        status.round = round;
        if round == FINAL_ROUND {
            status.phase = TankPhase::Attack;
        }
        for (urban, holder) in &mut status.control {
            if *urban == cell("f6") {
                *holder = Some(Seat::First);
            }
        }
        let status = status.clone();
        outlook(
            &Map::of(Tanques::description()),
            &view,
            &status,
            Seat::First,
        )
    }

    #[test]
    fn the_enemy_s_next_turn_threatens_what_it_can_come_to_face() {
        // f7 is north-east of f6: facing south-west, the Azul tank faces Rojo's.
        assert!(rojo_beside_azul(Facing::SW, FINAL_ROUND) < 0);
        // Facing east it needs two turns, which a maneuver allows but the final phase does not.
        assert!(rojo_beside_azul(Facing::E, 5) < 0);
        assert_eq!(rojo_beside_azul(Facing::E, FINAL_ROUND), 0);
        // Facing away it cannot come to face f6 in one maneuver.
        assert_eq!(rojo_beside_azul(Facing::NE, 5), 0);
    }
}
