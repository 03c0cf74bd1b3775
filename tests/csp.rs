//! The page's Content-Security-Policy allows the match host's inline script by its SHA-256
//! (`www/match-host.js`, put into the match frame as it is by `src/runner.rs`): the hash in the
//! `<meta>` of `index.html` and in the header of `Trunk.toml` (which the service worker also
//! sends on static hosts) must be the script's. Edit the script, and this test says the new hash.

use base64::Engine;
use sha2::{Digest, Sha256};

const SCRIPT: &str = include_str!("../www/match-host.js");
const INDEX: &str = include_str!("../index.html");
const TRUNK: &str = include_str!("../Trunk.toml");

fn source() -> String {
    let digest = Sha256::digest(SCRIPT.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

#[test]
fn the_policy_allows_the_match_host_by_its_hash() {
    let expected = source();
    for (file, text) in [("index.html", INDEX), ("Trunk.toml", TRUNK)] {
        let policies: Vec<&str> = text.lines().filter(|l| l.contains("script-src")).collect();
        assert!(!policies.is_empty(), "{file} has no script-src");
        for policy in policies {
            assert!(
                policy.contains(&expected),
                "{file}'s script-src must allow www/match-host.js by {expected}: {policy}"
            );
            assert!(
                !policy.contains("'unsafe-eval'"),
                "{file}'s policy must not allow eval: {policy}"
            );
        }
    }
}

#[test]
fn the_match_host_script_can_live_inside_a_script_element() {
    assert!(
        !SCRIPT.to_ascii_lowercase().contains("</script"),
        "www/match-host.js is put into <script>…</script> and must not close it"
    );
}
