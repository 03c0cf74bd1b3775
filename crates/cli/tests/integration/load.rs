//! Built-in bots are timed by the CPU time of the thread that computes them: an arena of
//! built-in bots gives the same table under a competing CPU load and with any `--jobs`.

use crate::common::{botplay, stderr, words_around};

use std::process::{Child, Command, Stdio};

/// Busy loops, eight per core (with the wall clock, `rush` against itself then times out now and
/// then on this 2-core machine, and two runs differ), stopped (by their ids) when dropped.
struct Load(Vec<Child>);

impl Load {
    fn start() -> Load {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Load(
            (0..cores * 8)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .stdout(Stdio::null())
                        .spawn()
                        .expect("sh")
                })
                .collect(),
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn an_arena_of_builtin_bots_is_the_same_under_load_and_any_jobs() {
    let _load = Load::start();
    let run = |jobs: &str| {
        let o = botplay(&words_around("arena --game micro-rts --bot builtin:rush --bot builtin:rush --matches 10 --seed 5 --jobs", jobs, "--json -"));
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8(o.stdout).expect("UTF-8")
    };
    let one = run("1");
    let json: serde_json::Value = serde_json::from_str(&one).expect("JSON");
    for bot in json["bots"].as_array().expect("bots") {
        assert_eq!(bot["faults"]["timeout"], 0, "no timeouts under load: {bot}");
    }
    assert_eq!(run("4"), one, "the same JSON with 4 jobs, under load");
}
