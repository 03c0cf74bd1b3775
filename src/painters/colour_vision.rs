//! Seat colours stay apart for colour-blind viewers: every pair of colours that tells seats (or a
//! seat's cells and free cells) apart differs by a CIEDE2000 ΔE of more than [`MIN_DELTA_E`] in
//! normal vision and under simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira
//! and Fernandes 2009, severity 1, applied in linear RGB).
//!
//! The arithmetic is checked against published values: the CIEDE2000 test pairs of Sharma, Wu
//! and Dalal (2005), and sRGB colours whose CIELAB values are known.

use super::SEAT_COLOURS;

/// The least colour difference allowed between two seats' colours, in every vision.
const MIN_DELTA_E: f64 = 10.0;

type Matrix = [[f64; 3]; 3];

const NORMAL: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
/// Machado et al. 2009, severity 1.0.
const PROTANOPIA: Matrix = [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
];
const DEUTERANOPIA: Matrix = [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.011820, 0.042940, 0.968881],
];
const TRITANOPIA: Matrix = [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.303900],
];
const VISIONS: [(&str, Matrix); 4] = [
    ("normal vision", NORMAL),
    ("protanopia", PROTANOPIA),
    ("deuteranopia", DEUTERANOPIA),
    ("tritanopia", TRITANOPIA),
];

/// `#rrggbb` as linear RGB in 0..=1.
fn linear(hex: &str) -> [f64; 3] {
    let hex = hex.strip_prefix('#').unwrap_or(hex);
    assert_eq!(hex.len(), 6, "not a #rrggbb colour: {hex}");
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    [channel(0), channel(2), channel(4)]
}

/// What a viewer with this vision sees, in linear RGB (clamped to the screen's gamut).
fn simulate(rgb: [f64; 3], m: &Matrix) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (i, row) in m.iter().enumerate() {
        out[i] = (row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2]).clamp(0.0, 1.0);
    }
    out
}

/// Linear sRGB to CIELAB (D65).
fn lab(rgb: [f64; 3]) -> [f64; 3] {
    let [r, g, b] = rgb;
    let x = 0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b;
    let z = 0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b;
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x / 0.950_47), f(y), f(z / 1.088_83));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// The CIEDE2000 colour difference.
fn delta_e_2000(one: [f64; 3], two: [f64; 3]) -> f64 {
    let [l1, a1, b1] = one;
    let [l2, a2, b2] = two;
    let pow7 = |c: f64| c.powi(7);
    let c_mean = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - (pow7(c_mean) / (pow7(c_mean) + pow7(25.0))).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |b: f64, a: f64| b.atan2(a).to_degrees().rem_euclid(360.0);
    let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
    let dl = l2 - l1;
    let dc = c2p - c1p;
    let dh = if c1p * c2p == 0.0 {
        0.0
    } else if (h2p - h1p).abs() <= 180.0 {
        h2p - h1p
    } else if h2p - h1p > 180.0 {
        h2p - h1p - 360.0
    } else {
        h2p - h1p + 360.0
    };
    let dh_big = 2.0 * (c1p * c2p).sqrt() * (dh / 2.0).to_radians().sin();
    let l_mean = (l1 + l2) / 2.0;
    let cp_mean = (c1p + c2p) / 2.0;
    let h_mean = if c1p * c2p == 0.0 {
        h1p + h2p
    } else if (h1p - h2p).abs() <= 180.0 {
        (h1p + h2p) / 2.0
    } else if h1p + h2p < 360.0 {
        (h1p + h2p + 360.0) / 2.0
    } else {
        (h1p + h2p - 360.0) / 2.0
    };
    let cos = |deg: f64| deg.to_radians().cos();
    let t =
        1.0 - 0.17 * cos(h_mean - 30.0) + 0.24 * cos(2.0 * h_mean) + 0.32 * cos(3.0 * h_mean + 6.0)
            - 0.20 * cos(4.0 * h_mean - 63.0);
    let d_theta = 30.0 * (-((h_mean - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (pow7(cp_mean) / (pow7(cp_mean) + pow7(25.0))).sqrt();
    let s_l = 1.0 + 0.015 * (l_mean - 50.0).powi(2) / (20.0 + (l_mean - 50.0).powi(2)).sqrt();
    let s_c = 1.0 + 0.045 * cp_mean;
    let s_h = 1.0 + 0.015 * cp_mean * t;
    let r_t = -(2.0 * d_theta).to_radians().sin() * r_c;
    ((dl / s_l).powi(2)
        + (dc / s_c).powi(2)
        + (dh_big / s_h).powi(2)
        + r_t * (dc / s_c) * (dh_big / s_h))
        .sqrt()
}

/// The difference between two `#rrggbb` colours as a viewer with this vision sees them.
fn seen_apart(one: &str, two: &str, vision: &Matrix) -> f64 {
    delta_e_2000(
        lab(simulate(linear(one), vision)),
        lab(simulate(linear(two), vision)),
    )
}

/// Every pair of `colours` that fails, in any vision: "protanopia #aaaaaa #bbbbbb 8.3".
fn failures(name: &str, colours: &[&str]) -> Vec<String> {
    let mut failed = Vec::new();
    for (i, one) in colours.iter().enumerate() {
        for two in &colours[i + 1..] {
            for (vision, matrix) in &VISIONS {
                let d = seen_apart(one, two, matrix);
                if d <= MIN_DELTA_E {
                    failed.push(format!("{name}: {one} and {two} in {vision}: ΔE {d:.1}"));
                }
            }
        }
    }
    failed
}

#[test]
fn ciede2000_matches_the_published_test_pairs() {
    // Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula: implementation notes,
    // supplementary test data, and mathematical observations" (2005), pairs 1, 2, 7, 17-20, 25, 34.
    let pairs = [
        ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
        ([50.0, 3.1571, -77.2803], [50.0, 0.0, -82.7485], 2.8615),
        ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
        ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
        ([50.0, 2.5, 0.0], [61.0, -5.0, 29.0], 22.8977),
        ([50.0, 2.5, 0.0], [56.0, -27.0, -3.0], 31.9030),
        ([50.0, 2.5, 0.0], [58.0, 24.0, 15.0], 19.4535),
        (
            [60.2574, -34.0099, 36.2677],
            [60.4626, -34.1751, 39.4387],
            1.2644,
        ),
        (
            [22.7233, 20.0904, -46.6940],
            [23.0331, 14.9730, -42.5619],
            2.0373,
        ),
    ];
    for (one, two, expected) in pairs {
        let d = delta_e_2000(one, two);
        assert!(
            (d - expected).abs() < 1e-4,
            "{one:?} {two:?}: {d} ≠ {expected}"
        );
        assert!((delta_e_2000(two, one) - expected).abs() < 1e-4);
    }
}

#[test]
fn srgb_colours_have_their_known_cielab_values() {
    let close = |hex: &str, expected: [f64; 3]| {
        let got = lab(linear(hex));
        for (g, e) in got.iter().zip(expected) {
            assert!((g - e).abs() < 0.05, "{hex}: {got:?} ≠ {expected:?}");
        }
    };
    close("#ffffff", [100.0, 0.0, 0.0]);
    close("#000000", [0.0, 0.0, 0.0]);
    close("#ff0000", [53.24, 80.09, 67.20]);
    close("#0000ff", [32.30, 79.19, -107.86]);
    close("#808080", [53.59, 0.0, 0.0]);
}

#[test]
fn the_simulations_confuse_what_each_deficiency_confuses() {
    // Greys stay greys: each matrix maps white to white.
    for (vision, m) in &VISIONS {
        let white = simulate([1.0, 1.0, 1.0], m);
        assert!(
            white.iter().all(|c| (c - 1.0).abs() < 1e-3),
            "{vision}: {white:?}"
        );
    }
    // The former seat colours red and green: far apart in normal vision, nearly one colour to a
    // deuteranope; blue and purple likewise; red and green stay apart under tritanopia.
    assert!(seen_apart("#d8413a", "#2f9e5a", &NORMAL) > 40.0);
    assert!(seen_apart("#d8413a", "#2f9e5a", &DEUTERANOPIA) < MIN_DELTA_E);
    assert!(seen_apart("#3b78d8", "#9b59d0", &DEUTERANOPIA) < 5.0);
    assert!(seen_apart("#3b78d8", "#9b59d0", &PROTANOPIA) < 5.0);
    assert!(seen_apart("#d8413a", "#2f9e5a", &TRITANOPIA) > 20.0);
    // Tritanopes confuse blue-green with teal-blue, which the others tell apart.
    assert!(seen_apart("#2f9e5a", "#1fb5b5", &TRITANOPIA) < MIN_DELTA_E);
    assert!(seen_apart("#2f9e5a", "#1fb5b5", &NORMAL) > 15.0);
    // So the check catches the old palettes.
    assert!(!failures("old", &["#d8413a", "#3b78d8", "#2f9e5a", "#d88f1f"]).is_empty());
}

#[test]
fn seat_colours_stay_apart_for_colour_blind_viewers() {
    let all_seats: Vec<&str> = SEAT_COLOURS.iter().map(|&(c, _)| c).collect();
    let mut checks: Vec<(&str, Vec<&str>)> = vec![(
        "seat colours (swatches, Crafting Quest 3's four seats)",
        all_seats,
    )];
    for game in crate::registry::GAMES {
        checks.extend(game.painter.palettes());
    }
    // The seat colours and the painters' eight sets (a painter that lost its own fails here).
    assert!(checks.len() >= 9, "{} sets of colours", checks.len());
    let failed: Vec<String> = checks
        .iter()
        .flat_map(|(name, colours)| failures(name, colours))
        .collect();
    assert!(failed.is_empty(), "too close:\n{}", failed.join("\n"));
}

#[test]
fn the_page_swatches_use_the_seat_colours() {
    let css = include_str!("../../www/style.css");
    for (seat, (colour, _)) in SEAT_COLOURS.iter().enumerate() {
        let declaration = format!("--seat-{seat}: {colour};");
        assert!(
            css.to_lowercase().contains(&declaration),
            "www/style.css lacks `{declaration}`"
        );
    }
}
