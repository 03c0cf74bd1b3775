//! The wire protocol (rulebook: *Protocol*): one JSON object per line. Reading what bots write, the
//! typed actions of the conformance layer, and the JSON the server writes.

use std::fmt;

use serde_json::{Map as JsonMap, Value};

use super::hex::Dir;

/// The three weapons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Weapon {
    Laser,
    Mortar,
    Droid,
}

impl Weapon {
    pub const ALL: [Weapon; 3] = [Weapon::Laser, Weapon::Mortar, Weapon::Droid];

    pub fn name(self) -> &'static str {
        match self {
            Weapon::Laser => "laser",
            Weapon::Mortar => "mortar",
            Weapon::Droid => "droid",
        }
    }

    pub fn parse(name: &str) -> Option<Weapon> {
        Weapon::ALL.into_iter().find(|w| w.name() == name)
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One action of a turn, as the typed layer writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    Move(Dir),
    Mine,
    Upgrade(Weapon),
    Laser(Dir),
    /// A mortar shell aimed at the tile `(dj, dk)` away.
    Mortar(i32, i32),
    Droid(Vec<Dir>),
}

/// A seat's whole answer in one turn of the conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The handshake: `{"message":"connect","revision":1,"name":NAME}`.
    Connect(String),
    /// `{"message":"loadout","primary-weapon":W1,"secondary-weapon":W2}`.
    Loadout(Weapon, Weapon),
    /// Up to three actions; fewer are followed by `{"message":"endturn"}`.
    Turn(Vec<Order>),
}

/// The line that ends a turn early (our extension).
pub const ENDTURN: &str = r#"{"message":"endturn"}"#;

/// A JSON string literal.
pub fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// The protocol line of an order.
pub fn order_line(order: &Order) -> String {
    let head = r#"{"message":"action","type":"#;
    match order {
        Order::Move(d) => format!(r#"{head}"move","direction":"{d}"}}"#),
        Order::Mine => format!(r#"{head}"mine"}}"#),
        Order::Upgrade(w) => format!(r#"{head}"upgrade","weapon":"{w}"}}"#),
        Order::Laser(d) => format!(r#"{head}"laser","direction":"{d}"}}"#),
        Order::Mortar(dj, dk) => format!(r#"{head}"mortar","coordinates":"{dj},{dk}"}}"#),
        Order::Droid(seq) => format!(r#"{head}"droid","sequence":{}}}"#, dir_list(seq)),
    }
}

/// The JSON object of an order: what [`parse_object`] makes of its [`order_line`], built
/// without the text.
pub fn order_object(order: &Order) -> JsonMap<String, Value> {
    let mut o = JsonMap::new();
    o.insert("message".into(), "action".into());
    let text = |s: &str| Value::String(s.to_string());
    let (kind, key, value) = match order {
        Order::Move(d) => ("move", "direction", Some(text(d.name()))),
        Order::Mine => ("mine", "", None),
        Order::Upgrade(w) => ("upgrade", "weapon", Some(text(w.name()))),
        Order::Laser(d) => ("laser", "direction", Some(text(d.name()))),
        Order::Mortar(dj, dk) => ("mortar", "coordinates", Some(text(&format!("{dj},{dk}")))),
        Order::Droid(seq) => (
            "droid",
            "sequence",
            Some(Value::Array(seq.iter().map(|d| text(d.name())).collect())),
        ),
    };
    o.insert("type".into(), kind.into());
    if let Some(value) = value {
        o.insert(key.into(), value);
    }
    o
}

/// `["up","down"]`.
pub fn dir_list(seq: &[Dir]) -> String {
    let names: Vec<String> = seq.iter().map(|d| format!("\"{d}\"")).collect();
    format!("[{}]", names.join(","))
}

/// The protocol lines of a whole action.
pub fn action_lines(action: &Action) -> Vec<String> {
    match action {
        Action::Connect(name) => vec![format!(
            r#"{{"message":"connect","revision":1,"name":{}}}"#,
            quoted(name)
        )],
        Action::Loadout(a, b) => vec![format!(
            r#"{{"message":"loadout","primary-weapon":"{a}","secondary-weapon":"{b}"}}"#
        )],
        Action::Turn(orders) => {
            let mut lines: Vec<String> = orders.iter().take(3).map(order_line).collect();
            if lines.len() < 3 {
                lines.push(ENDTURN.to_string());
            }
            lines
        }
    }
}

/// Parses lines written by [`action_lines`] back (the typed layer's inverse).
pub fn parse_action_lines(lines: &[String]) -> Result<Action, String> {
    let objects = lines
        .iter()
        .map(|l| parse_object(l).map_err(|e| format!("{e}: {l}")))
        .collect::<Result<Vec<_>, _>>()?;
    let kind =
        |o: &JsonMap<String, Value>| o.get("message").and_then(Value::as_str).map(str::to_string);
    match objects.as_slice() {
        [o] if kind(o).as_deref() == Some("connect") => {
            let name = o.get("name").and_then(Value::as_str).ok_or("no name")?;
            Ok(Action::Connect(name.to_string()))
        }
        [o] if kind(o).as_deref() == Some("loadout") => {
            let w = |key| {
                o.get(key)
                    .and_then(Value::as_str)
                    .and_then(Weapon::parse)
                    .ok_or_else(|| format!("bad {key}"))
            };
            Ok(Action::Loadout(
                w("primary-weapon")?,
                w("secondary-weapon")?,
            ))
        }
        _ => {
            let mut orders = Vec::new();
            for (i, o) in objects.iter().enumerate() {
                match kind(o).as_deref() {
                    Some("endturn") if i + 1 == objects.len() && orders.len() < 3 => {
                        return Ok(Action::Turn(orders))
                    }
                    Some("action") if orders.len() < 3 => {
                        orders.push(parse_order(o).ok_or_else(|| format!("bad action {o:?}"))?)
                    }
                    _ => return Err(format!("unexpected line {}", i + 1)),
                }
            }
            if orders.len() == 3 {
                Ok(Action::Turn(orders))
            } else {
                Err("a turn of fewer than three actions ends with endturn".to_string())
            }
        }
    }
}

/// A well-formed order (strict: the typed layer's own lines).
fn parse_order(o: &JsonMap<String, Value>) -> Option<Order> {
    let dir = |key| o.get(key).and_then(Value::as_str).and_then(Dir::parse);
    Some(match o.get("type")?.as_str()? {
        "move" => Order::Move(dir("direction")?),
        "mine" => Order::Mine,
        "upgrade" => Order::Upgrade(Weapon::parse(o.get("weapon")?.as_str()?)?),
        "laser" => Order::Laser(dir("direction")?),
        "mortar" => {
            let (dj, dk) = parse_coordinates(o.get("coordinates")?.as_str()?)?;
            Order::Mortar(dj, dk)
        }
        "droid" => Order::Droid(
            o.get("sequence")?
                .as_array()?
                .iter()
                .map(|v| v.as_str().and_then(Dir::parse))
                .collect::<Option<Vec<_>>>()?,
        ),
        _ => return None,
    })
}

/// A line as a JSON object.
pub fn parse_object(line: &str) -> Result<JsonMap<String, Value>, String> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err("A JSONObject text must begin with '{'".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// Relative mortar coordinates `"dj,dk"`, parsed leniently (spaces allowed around the numbers).
pub fn parse_coordinates(s: &str) -> Option<(i32, i32)> {
    let (a, b) = s.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// `{"error":TEXT}`.
pub fn error_line(text: &str) -> String {
    format!("{{\"error\":{}}}\n", quoted(text))
}

/// What a JSON value looks like when the original quotes it in a message (`'laser'`).
pub fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// org.json's message for a missing key.
pub fn not_found(key: &str) -> String {
    format!("JSONObject[\"{key}\"] not found.")
}
