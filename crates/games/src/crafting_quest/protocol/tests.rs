//! The fast codecs against serde_json, the one oracle. Each message the referee writes is also
//! built the plain way, as typed values read off the world with simple loops, and written by
//! serde_json: the fast writers must write the same bytes (the same fields, in the same order,
//! with the same numbers). Each request is written and read back by serde_json, and a request
//! read straight from its bytes must be what serde_json reads. All of it on random play:
//! generated maps of several sizes and the official ones, two to four seats.

use engine::{JavaRandom, Rules, Setup};
use serde::{Serialize, Serializer};

use super::super::state::{Pile, Structure, Unit, World};
use super::super::{CraftingQuest, INFO};
use super::*;

/// Resource quantities as the protocol writes them: the types held, in protocol order.
struct Res([u32; 7]);

impl Serialize for Res {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let held = self.0.iter().enumerate().filter(|(_, &n)| n > 0);
        s.collect_map(held.map(|(r, n)| (RESOURCES[r], n)))
    }
}

#[derive(Serialize)]
struct Item {
    kind: &'static str,
    level: usize,
    count: u32,
}

/// Carried or piled objects, per kind and level.
fn objects(items: &[[u32; 3]; 2]) -> Vec<Item> {
    let mut out = Vec::new();
    for (k, levels) in items.iter().enumerate() {
        for (l, &count) in levels.iter().enumerate() {
            if count > 0 {
                let kind = Kind::ALL[k].name();
                out.push(Item {
                    kind,
                    level: l + 1,
                    count,
                });
            }
        }
    }
    out
}

#[derive(Serialize)]
struct Mixed {
    x: i32,
    y: i32,
    types: Vec<&'static str>,
}

#[derive(Serialize)]
struct PileSeen {
    x: i32,
    y: i32,
    resources: Res,
    objects: Vec<Item>,
}

#[derive(Serialize)]
struct TowerSeen {
    x: i32,
    y: i32,
    player: usize,
    level: u8,
    strength: i32,
}

#[derive(Serialize)]
struct TrapSeen {
    x: i32,
    y: i32,
    level: u8,
}

#[derive(Serialize)]
struct UnitSeen {
    player: usize,
    id: usize,
    x: i32,
    y: i32,
    energy: i32,
    life: i32,
    sword: u8,
    armour: u8,
}

#[derive(Serialize, Default)]
struct Sight {
    x: i32,
    y: i32,
    rows: Vec<String>,
    mixed: Vec<Mixed>,
    piles: Vec<PileSeen>,
    towers: Vec<TowerSeen>,
    traps: Vec<TrapSeen>,
    units: Vec<UnitSeen>,
}

/// The cell `c` as (x, y).
fn at(world: &World, c: usize) -> (i32, i32) {
    ((c % world.size()) as i32, (c / world.size()) as i32)
}

/// The cells within `radius` of (x, y), as `viewer` sees them, one cell at a time.
fn sight(world: &World, viewer: usize, x: i32, y: i32, radius: i32) -> Sight {
    let last = world.size() as i32 - 1;
    let (xs, ys) = (
        (x - radius).max(0)..=(x + radius).min(last),
        (y - radius).max(0)..=(y + radius).min(last),
    );
    let inside = |c: usize| {
        let (cx, cy) = at(world, c);
        xs.contains(&cx) && ys.contains(&cy)
    };
    let mut out = Sight {
        x: *xs.start(),
        y: *ys.start(),
        ..Sight::default()
    };
    for yy in ys.clone() {
        let mut row = String::new();
        for xx in xs.clone() {
            let c = world.idx(xx, yy);
            let types: Vec<usize> = (0..7).filter(|&r| world.buried[c][r] > 0).collect();
            row.push(match types[..] {
                _ if world.map.rock[c] => '#',
                [] => '.',
                [r] => char::from(LETTERS[r]),
                _ => '*',
            });
            if !world.map.rock[c] && types.len() > 1 {
                let types = types.iter().map(|&r| RESOURCES[r]).collect();
                out.mixed.push(Mixed {
                    x: xx,
                    y: yy,
                    types,
                });
            }
        }
        out.rows.push(row);
    }
    for (&c, pile) in world.piles.iter().filter(|(&c, _)| inside(c)) {
        let (x, y) = at(world, c);
        let (resources, objects) = (Res(pile.res), objects(&pile.items));
        out.piles.push(PileSeen {
            x,
            y,
            resources,
            objects,
        });
    }
    for (&c, s) in world.structures.iter().filter(|(&c, _)| inside(c)) {
        let (x, y) = at(world, c);
        match *s {
            Structure::Tower {
                seat: player,
                level,
                strength,
                ..
            } => out.towers.push(TowerSeen {
                x,
                y,
                player,
                level,
                strength,
            }),
            Structure::Trap { seat, level } if seat == viewer => {
                out.traps.push(TrapSeen { x, y, level });
            }
            Structure::Trap { .. } => {}
        }
    }
    for u in &world.units {
        if xs.contains(&u.x) && ys.contains(&u.y) {
            out.units.push(UnitSeen {
                player: u.seat,
                id: u.id,
                x: u.x,
                y: u.y,
                energy: u.energy,
                life: u.life,
                sword: u.sword,
                armour: u.armour,
            });
        }
    }
    out
}

#[derive(Serialize)]
struct Retaliate {
    energy: i32,
    threshold: i32,
}

#[derive(Serialize)]
struct Dig {
    x: i32,
    y: i32,
    resources: Res,
}

#[derive(Serialize)]
struct OwnUnit {
    id: usize,
    x: i32,
    y: i32,
    energy: i32,
    life: i32,
    frozen: u32,
    sword: u8,
    armour: u8,
    retaliate: Retaliate,
    resources: Res,
    objects: Vec<Item>,
    weight: i32,
    move_cost: i32,
    dig: Option<Dig>,
    sight: Sight,
}

fn own_unit(world: &World, u: &Unit) -> OwnUnit {
    OwnUnit {
        id: u.id,
        x: u.x,
        y: u.y,
        energy: u.energy,
        life: u.life,
        frozen: u.frozen,
        sword: u.sword,
        armour: u.armour,
        retaliate: Retaliate {
            energy: u.retaliate.0,
            threshold: u.retaliate.1,
        },
        resources: Res(u.res),
        objects: objects(&u.items),
        weight: u.weight(),
        move_cost: u.move_cost(),
        dig: u.dig.map(|(x, y, found)| Dig {
            x,
            y,
            resources: Res(found.map(u32::from)),
        }),
        sight: sight(world, u.seat, u.x, u.y, SIGHT),
    }
}

#[derive(Serialize)]
struct Blueprints {
    sword: u8,
    armour: u8,
    tower: u8,
    trap: u8,
}

fn blueprints(world: &World, seat: usize) -> Blueprints {
    let [sword, armour, tower, trap] = world.teams[seat].known;
    Blueprints {
        sword,
        armour,
        tower,
        trap,
    }
}

#[derive(Serialize)]
struct OwnTower {
    x: i32,
    y: i32,
    level: u8,
    strength: i32,
    sight: Sight,
}

/// The player state (`write_state`).
#[derive(Serialize)]
struct StateMessage<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'static str>,
    round: u32,
    rounds: u32,
    player: usize,
    players: usize,
    size: usize,
    home: [i32; 2],
    gold: i64,
    actions_left: u32,
    blueprints: Blueprints,
    score: i64,
    kills: u32,
    deaths: u32,
    towers: Vec<OwnTower>,
    traps: Vec<TrapSeen>,
    units: Vec<OwnUnit>,
}

fn state_message<'a>(world: &World, seat: usize, clock: &Clock, kind: &'a str) -> StateMessage<'a> {
    let team = &world.teams[seat];
    let (mut towers, mut traps) = (Vec::new(), Vec::new());
    for (&c, s) in &world.structures {
        let (x, y) = at(world, c);
        match *s {
            Structure::Tower {
                seat: owner,
                level,
                strength,
                ..
            } if owner == seat => {
                let range = TOWER_RANGE[usize::from(level.clamp(1, 3)) - 1];
                let sight = sight(world, seat, x, y, range);
                towers.push(OwnTower {
                    x,
                    y,
                    level,
                    strength,
                    sight,
                });
            }
            Structure::Trap { seat: owner, level } if owner == seat => {
                traps.push(TrapSeen { x, y, level });
            }
            _ => {}
        }
    }
    StateMessage {
        kind,
        result: (kind == "state").then_some("NoError"),
        round: clock.round,
        rounds: clock.rounds,
        player: seat,
        players: world.seats,
        size: world.size(),
        home: [team.home.0, team.home.1],
        gold: team.gold,
        actions_left: clock.actions_left,
        blueprints: blueprints(world, seat),
        score: team.score(),
        kills: team.kills,
        deaths: team.deaths,
        towers,
        traps,
        units: world
            .units
            .iter()
            .filter(|u| u.seat == seat)
            .map(|u| own_unit(world, u))
            .collect(),
    }
}

/// The answer to a request (`write_answer`).
#[derive(Serialize)]
struct AnswerMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    result: &'static str,
    reason: &'a str,
    actions_left: u32,
    gold: i64,
    blueprints: Blueprints,
    unit: Option<OwnUnit>,
}

fn answer_message<'a>(
    world: &World,
    seat: usize,
    answer: &'a Answer,
    left: u32,
) -> AnswerMessage<'a> {
    AnswerMessage {
        kind: "result",
        result: answer.code.name(),
        reason: &answer.reason,
        actions_left: left,
        gold: world.teams[seat].gold,
        blueprints: blueprints(world, seat),
        unit: answer
            .unit
            .and_then(|i| world.units.get(i))
            .map(|u| own_unit(world, u)),
    }
}

/// What serde_json writes for a message.
fn serde_text(message: &impl Serialize) -> String {
    serde_json::to_string(message).expect("a message serde_json writes")
}

/// The request's line is read back as itself, by serde_json and by the straight reader when
/// it reads it (whether it did).
fn check_request(request: &Request) -> bool {
    let line = write_request(request);
    assert_eq!(parse_json(&line).as_ref(), Ok(request), "{line}");
    let straight = plain_request(&line);
    if let Some(straight) = &straight {
        assert_eq!(straight, request, "{line}");
    }
    straight.is_some()
}

/// Random play rarely affords a tower: one of each kind of structure at or next to a unit, at
/// every level, and carried and piled objects, which crafting would have made.
fn furnish(world: &mut World, turn: usize) {
    let u = &world.units[(turn * 7) % world.units.len()];
    let size = world.size() as i32;
    let (x, y) = ((u.x + 1).min(size - 1), u.y);
    let level = (turn % 3) as u8 + 1;
    let (seat, c, d) = (u.seat, world.idx(x, y), world.idx(u.x, u.y));
    let tower = Structure::Tower {
        seat,
        level,
        strength: 300,
        serial: turn as u32,
    };
    world.structures.insert(c, tower);
    // Every other time another seat's trap, which the unit does not see.
    let seat = (seat + turn / 15 % 2) % world.seats;
    world.structures.insert(d, Structure::Trap { seat, level });
    let k = (turn * 7) % world.units.len();
    world.units[k].items[turn % 2][turn % 3] += 2;
    let mut items = [[0; 3]; 2];
    items[(turn + 1) % 2][(turn + 1) % 3] = 1;
    let res = [0, 3, 0, 0, 0, 0, 1];
    world.piles.insert(d, Pile { res, items });
}

/// A match's options, as (name, value).
type Options = &'static [(&'static str, &'static str)];

/// The matches played: (seed, seats, options).
const MATCHES: [(i64, usize, Options); 6] = [
    (1, 2, &[]),
    (2, 4, &[("size", "73")]),
    (3, 4, &[("map", "v1")]),
    (4, 2, &[("map", "v2")]),
    (5, 3, &[("map", "v3")]),
    (6, 2, &[("size", "100")]),
];

/// Plays a match at random, world request by world request, and checks every request, player
/// state and answer of it against serde_json; the texts written are passed to `seen`. Returns
/// how many requests were read straight from their bytes.
fn check_match(
    seed: i64,
    seats: usize,
    options: &[(&str, &str)],
    seen: &mut impl FnMut(String),
) -> usize {
    let mut straight = 0;
    let mut setup = Setup::new(&INFO, seed);
    setup.seats = seats;
    for (k, v) in options {
        setup.options.insert(k.to_string(), v.to_string());
    }
    let game = CraftingQuest::create(&setup).expect("a valid setup");
    let mut world = game.world.clone();
    let mut rng = JavaRandom::new(seed);
    for turn in 0..100 {
        let seat = turn % seats;
        if turn % 15 == 3 {
            furnish(&mut world, turn);
        }
        let clock = Clock {
            round: turn as u32 / seats as u32 + 1,
            rounds: 70,
            actions_left: 1000 - turn as u32,
        };
        for kind in ["turn", "state"] {
            let text = write_state(&world, seat, &clock, kind);
            assert_eq!(text, serde_text(&state_message(&world, seat, &clock, kind)));
            seen(text);
        }
        for _ in 0..25 {
            let request = CraftingQuest::random_request(&world, seat, &mut rng);
            straight += usize::from(check_request(&request));
            let answer = world.act(seat, &request);
            let left = rng.next_int_bounded(1000) as u32;
            let text = write_answer(&world, seat, &answer, left);
            let plain = serde_text(&answer_message(&world, seat, &answer, left));
            assert_eq!(text, plain, "{request:?}");
            seen(text);
        }
        let mut events = Vec::new();
        world.start_turn((seat + 1) % seats, &mut events);
    }
    straight
}

#[test]
fn the_writers_write_what_serde_json_writes() {
    let mut written = 0;
    // The parts of a message met, to check below that each was compared.
    let parts = [
        "\"mixed\":[{",
        "\"piles\":[{",
        "\"towers\":[{",
        "\"traps\":[{",
        "\"objects\":[{",
        "\"dig\":{",
        "\"unit\":null",
        "\"result\":\"NoError\"",
        "\"result\":\"OperandError\"",
    ];
    let mut met = [false; 9];
    let mut straight = 0;
    for (seed, seats, options) in MATCHES {
        straight += check_match(seed, seats, options, &mut |text| {
            written += 1;
            for (part, met) in parts.iter().zip(&mut met) {
                *met |= text.contains(part);
            }
        });
    }
    assert_eq!(written, MATCHES.len() * 100 * 27);
    // Most requests of random play were read straight too.
    let requests = MATCHES.len() * 100 * 25;
    assert!(straight > requests / 3, "{straight} of {requests}");
    for (part, met) in parts.iter().zip(met) {
        assert!(met, "{part}");
    }
}

/// A reason is written as serde_json reads it back, whatever it holds.
#[test]
fn reasons_read_back_as_written() {
    for reason in [
        "",
        "plain",
        "a \"quoted\" \\ back",
        "line\nbreak\ttab\r\u{0}\u{1f}\u{7f}\u{85}\u{2028}\u{2029}",
        "é≥ \u{1F600}",
    ] {
        let mut text = String::new();
        json_string(&mut text, reason);
        assert_eq!(
            serde_json::from_str::<String>(&text).ok().as_deref(),
            Some(reason)
        );
        assert!(!text.contains(['\n', '\u{2028}', '\u{7f}']), "{text}");
    }
}

/// The requests read straight from their bytes are read as serde_json reads them: lines near
/// those bots write.
#[test]
fn plain_requests_read_as_serde_json_reads_them() {
    let lines = [
        r#"{"type":"end"}"#,
        r#"{"unit":0,"type":"move","to":[0,0]}"#,
        r#"{"unit":12,"type":"move","to":[49,7]}"#,
        r#"{"unit":012,"type":"move","to":[4,7]}"#,
        r#"{"unit":1,"type":"move","to":[-4,7]}"#,
        r#"{"unit":1,"type":"move","to":[4,7,1]}"#,
        r#"{"unit":1,"type":"move","to":[4]}"#,
        r#"{"unit":1,"type":"move","to":[4,7.5]}"#,
        r#"{"unit":1234567890,"type":"move","to":[4,7]}"#,
        r#"{"unit":99999999999999999999,"type":"move","to":[4,7]}"#,
        r#"{"unit":3,"type":"dig"}"#,
        r#"{"unit":3,"type":"dig","x":1}"#,
        r#"{"unit":3,"type":"dig"} "#,
        r#"{"unit":3,"type":"dig"}}"#,
        r#"{"unit":3,"type":"dog"}"#,
        r#"{"unit":3,"type":"pickup","resources":{}}"#,
        r#"{"unit":3,"type":"pickup","resources":{"wood":4,"stone":4}}"#,
        r#"{"unit":3,"type":"drop","resources":{"gold":0,"titanium":999999999}}"#,
        r#"{"unit":3,"type":"drop","resources":{"wood":4,"wood":5}}"#,
        r#"{"unit":3,"type":"drop","resources":{"wool":4}}"#,
        r#"{"unit":3,"type":"drop","resources":{"wood":-4}}"#,
        r#"{"unit":3,"type":"drop","resources":{"wood":4,}}"#,
        r#"{"unit":3,"type":"drop","resources":{"wood":4}}"#,
        r#"{"unit":3,"type":"drop","resources":{"wood":4},"objects":[]}"#,
        r#"{"unit":3,"type":"pickup","objects":[{"kind":"sword","level":1,"count":1}]}"#,
        r#"{"type":"end","unit":1}"#,
        r#"{ "type":"end"}"#,
    ];
    let mut plain = 0;
    for line in lines {
        if let Some(request) = plain_request(line) {
            plain += 1;
            assert_eq!(parse_json(line).as_ref().ok(), Some(&request), "{line}");
        }
    }
    assert_eq!(plain, 8);
}
