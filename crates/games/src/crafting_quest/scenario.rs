//! The numbers of the official scenario (rulebook: *Facts*, *Rules*), pure data and helpers
//! that the built-in bots use too, and the
//! result codes of the original server, in one place.

/// Rulebook, *Facts*: units per player.
pub const UNITS: usize = 10;
/// Rulebook, *Facts*: the maximum energy ("life") of a unit, and its energy at the start and after a respawn.
pub const MAX_ENERGY: i32 = 200;
/// Rulebook, *Facts*: the Chebyshev radius of a unit's sight (an 11 × 11 square).
pub const SIGHT: i32 = 5;
/// Rulebook, *Facts*: the team's gold at the start.
pub const INITIAL_GOLD: i64 = 200;
/// Rulebook, *Energy*: a move costs `20 + 10 × carried weight`.
pub const MOVE_BASE: i32 = 20;
pub const MOVE_PER_WEIGHT: i32 = 10;
/// Rulebook, *Energy*: dig, pickup, place tower, place trap.
pub const DIG_COST: i32 = 10;
pub const PICKUP_COST: i32 = 5;
pub const TOWER_COST: i32 = 75;
pub const TRAP_COST: i32 = 40;
/// Research costs energy, as the competition's rulebook says, which names no number: ours
/// (rulebook: *Departures from the original*).
pub const RESEARCH_ENERGY: i32 = 50;
/// A turn ends after this many request lines (rulebook: *Protocol*, "Limits").
pub const MAX_ACTIONS: u32 = 1000;
/// Rulebook, *Scoring*: killing-spree threshold.
pub const SPREE: u32 = 5;

/// The resource types, in protocol order.
pub const RESOURCES: [&str; 7] = [
    "wood", "stone", "leather", "bronze", "iron", "titanium", "gold",
];
/// The letter of each resource type in sight rows and maps.
pub const LETTERS: [u8; 7] = [b'w', b's', b'l', b'b', b'i', b't', b'g'];
/// Gold goes to the team purse; it weighs nothing and is never carried.
pub const GOLD: usize = 6;

/// The resource type with this name.
pub fn resource(name: &str) -> Option<usize> {
    RESOURCES.iter().position(|r| *r == name)
}

/// The four things a blueprint describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Sword,
    Armour,
    Tower,
    Trap,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Sword, Kind::Armour, Kind::Tower, Kind::Trap];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Sword => "sword",
            Kind::Armour => "armour",
            Kind::Tower => "tower",
            Kind::Trap => "trap",
        }
    }

    /// The kind with this name (`armor` is accepted for `armour`).
    pub fn parse(name: &str) -> Option<Kind> {
        match name {
            "sword" => Some(Kind::Sword),
            "armour" | "armor" => Some(Kind::Armour),
            "tower" => Some(Kind::Tower),
            "trap" => Some(Kind::Trap),
            _ => None,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// Swords and armour are carried and equipped; towers and traps are placed.
    pub fn carried(self) -> bool {
        matches!(self, Kind::Sword | Kind::Armour)
    }
}

/// Rulebook, *Blueprints*: the recipe of each kind and level (index `level - 1`), per resource type.
pub const RECIPES: [[[u32; 7]; 3]; 4] = [
    // sword
    [
        [4, 4, 0, 0, 10, 0, 0],
        [10, 10, 0, 0, 20, 0, 0],
        [20, 20, 0, 0, 0, 40, 0],
    ],
    // armour
    [
        [4, 4, 20, 0, 0, 0, 0],
        [10, 10, 0, 20, 0, 0, 0],
        [20, 20, 0, 0, 20, 40, 0],
    ],
    // tower
    [
        [30, 30, 0, 0, 30, 0, 0],
        [40, 40, 0, 0, 40, 0, 0],
        [50, 50, 0, 0, 50, 0, 0],
    ],
    // trap
    [
        [10, 0, 10, 10, 0, 0, 0],
        [10, 0, 20, 0, 20, 0, 0],
        [20, 20, 0, 0, 20, 0, 0],
    ],
];

/// Rulebook, *Blueprints*: the gold to research level `L + 1` from level `L` (index `L - 1`).
pub const RESEARCH_GOLD: [[i64; 2]; 4] = [[200, 300], [200, 300], [100, 200], [50, 100]];

/// Rulebook, *Energy*: the weight of a sword or an armour of each level.
pub const ITEM_WEIGHT: [[i32; 3]; 2] = [[5, 7, 10], [10, 15, 20]];

/// Rulebook, *Blueprints*: tower strength, range (Chebyshev) and drain per level.
pub const TOWER_STRENGTH: [i32; 3] = [312, 375, 437];
pub const TOWER_RANGE: [i32; 3] = [5, 6, 7];
pub const TOWER_DRAIN: [i32; 3] = [125, 150, 175];

/// Rulebook, *Energy* (attack) and *Retaliation*: `round(e × (1 + sword) × (1 − armour))` with bonuses of 25 % per level, in integers
/// (quarters are exact, half rounds up as Java's `Math.round`).
pub fn damage(energy: i32, sword: u8, armour: u8) -> i32 {
    let num = i64::from(energy) * (4 + i64::from(sword.min(3))) * (4 - i64::from(armour.min(3)));
    (num * 2 + 16).div_euclid(32) as i32
}

/// Rulebook, *Energy*: `round(0.6 × energy + 0.4 × life)` (never a half: both terms are even tenths).
pub fn replenish(energy: i32, life: i32) -> i32 {
    let e = i64::from(energy.max(0));
    let l = i64::from(life.max(0));
    (((6 * e + 4 * l) + 5) / 10).min(l) as i32
}

/// Rulebook, *Towers*: `round(Euclidean distance)`, at least 1.
pub fn tower_distance(dx: i32, dy: i32) -> i32 {
    let s = i64::from(dx) * i64::from(dx) + i64::from(dy) * i64::from(dy);
    let mut n = (s as f64).sqrt() as i64;
    while n * n > s {
        n -= 1;
    }
    while (n + 1) * (n + 1) <= s {
        n += 1;
    }
    // round half up: n + 1 when (n + 0.5)² ≤ s, that is (2n + 1)² ≤ 4s.
    if (2 * n + 1) * (2 * n + 1) <= 4 * s {
        n += 1;
    }
    n.max(1) as i32
}

/// Rulebook, *Protocol*: the result codes of the original server (the ones this game produces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    NoError,
    UnitIdError,
    UnknownActionError,
    OperandError,
    MoveError,
    TerrainError,
    ObstacleError,
    NoEnergyError,
    BuildError,
    CraftingError,
    NoCreditError,
    EquipmentMissingError,
    BlueprintError,
    NoUpgradeError,
    MissingBlueprintError,
    PlayerIdError,
    ProximityError,
    FriendlyFireError,
}

impl Code {
    pub fn name(self) -> &'static str {
        match self {
            Code::NoError => "NoError",
            Code::UnitIdError => "UnitIdError",
            Code::UnknownActionError => "UnknownActionError",
            Code::OperandError => "OperandError",
            Code::MoveError => "MoveError",
            Code::TerrainError => "TerrainError",
            Code::ObstacleError => "ObstacleError",
            Code::NoEnergyError => "NoEnergyError",
            Code::BuildError => "BuildError",
            Code::CraftingError => "CraftingError",
            Code::NoCreditError => "NoCreditError",
            Code::EquipmentMissingError => "EquipmentMissingError",
            Code::BlueprintError => "BlueprintError",
            Code::NoUpgradeError => "NoUpgradeError",
            Code::MissingBlueprintError => "MissingBlueprintError",
            Code::PlayerIdError => "PlayerIdError",
            Code::ProximityError => "ProximityError",
            Code::FriendlyFireError => "FriendlyFireError",
        }
    }
}
