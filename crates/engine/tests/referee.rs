//! The referee, replays and their errors, on a tiny conversational game made for these tests.
//!
//! "Tally": two seats answer simultaneously for three turns. `ASK` is answered at once with
//! `ok N`; `END` completes the turn; anything else is a fault that makes the seat lose. The
//! score is the number of ASKs. With the option `faults = go-on`, a fault only marks the seat
//! out and the match goes on (for the stopped-bot rule, [`Referee::retire`]). Every line heard
//! and every fault is an event of the frame, in the order the game learnt of it.

use engine::{
    AtDeadline, Fault, FaultKind, Frame, Game, GameEntry, GameFacts, GameInfo, LineOutcome,
    Outcome, Referee, Replay, ReplayError, Ruleset, Setup, SetupError, TurnOrder, Verdict,
};

static INFO: GameInfo = GameInfo {
    id: "tally",
    name: "Tally",
    version: 3,
    min_seats: 2,
    max_seats: 2,
    turn_order: TurnOrder::Simultaneous,
    first_turn_ms: 1000,
    turn_ms: 50,
    rulesets: &[Ruleset {
        id: "plain",
        name: "Plain",
        summary: "the only one",
    }],
    default_ruleset: "plain",
};

#[derive(Clone)]
struct Tally {
    turn: u32,
    asks: [i64; 2],
    lost: [bool; 2],
    /// Broadcast to both seats after each step ("tick N").
    notices: Vec<(usize, String)>,
    /// A fault does not end the match.
    go_on: bool,
    /// What happened since the last step, and in the last step.
    events: Vec<String>,
    last: Vec<String>,
}

impl GameFacts for Tally {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }
}

impl Game for Tally {
    fn turn(&self) -> u32 {
        self.turn
    }
    fn to_move(&self) -> Vec<usize> {
        if self.outcome().is_some() {
            vec![]
        } else {
            vec![0, 1]
        }
    }
    fn input(&self, seat: usize) -> String {
        format!("turn {} seat {seat}\n", self.turn)
    }
    fn hear(&mut self, seat: usize, line: &str) -> LineOutcome {
        self.events.push(format!("{seat} said {line}"));
        match line {
            "ASK" => {
                self.asks[seat] += 1;
                LineOutcome::Reply(format!("ok {}\n", self.asks[seat]))
            }
            "END" => LineOutcome::Done,
            _ => {
                self.lost[seat] = true;
                LineOutcome::Fault(format!("unknown '{line}'"))
            }
        }
    }
    fn fault(&mut self, seat: usize, kind: FaultKind) {
        self.lost[seat] = true;
        self.events.push(format!("{seat} {kind}"));
    }
    fn step(&mut self) {
        self.turn += 1;
        self.last = std::mem::take(&mut self.events);
        for seat in 0..2 {
            self.notices.push((seat, format!("tick {}\n", self.turn)));
        }
    }
    fn take_notices(&mut self) -> Vec<(usize, String)> {
        std::mem::take(&mut self.notices)
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.lost.iter().any(|l| *l) && !self.go_on {
            let scores = (0..2).map(|s| if self.lost[s] { -1 } else { 1 }).collect();
            return Some(Outcome::from_scores(scores, "a fault"));
        }
        (self.turn >= 3).then(|| Outcome::from_scores(self.asks.to_vec(), "three turns"))
    }
    fn frame(&self) -> Frame {
        Frame::written_out(
            self.turn,
            self.last.clone(),
            self.asks.iter().map(|a| format!("{a} asks")).collect(),
            self.lost.to_vec(),
            format!("{:?}\n", self.asks),
            "null".into(),
        )
    }
}

fn new_tally(setup: &Setup) -> Result<Box<dyn Game>, SetupError> {
    setup.check(&INFO)?;
    Ok(Box::new(Tally {
        turn: 0,
        asks: [0; 2],
        lost: [false; 2],
        notices: Vec::new(),
        go_on: setup.options.get("faults").is_some_and(|v| v == "go-on"),
        events: Vec::new(),
        last: Vec::new(),
    }))
}

static ENTRY: GameEntry = GameEntry {
    info: &INFO,
    new: new_tally,
};

fn referee(relaxed: bool) -> Referee {
    let setup = Setup::new(&INFO, 5);
    let game = (ENTRY.new)(&setup).expect("valid");
    Referee::new(game, setup, vec!["a".into(), "b".into()], relaxed)
}

#[test]
fn a_conversation_is_answered_line_by_line() {
    let mut r = referee(false);
    let asks = r.begin_turn();
    assert_eq!(asks.len(), 2);
    assert_eq!(asks[0].input, "turn 0 seat 0\n");
    assert_eq!(r.line(0, "ASK", 1.0), Verdict::Reply("ok 1\n".into()));
    assert_eq!(r.line(0, "ASK", 2.0), Verdict::Reply("ok 2\n".into()));
    assert_eq!(r.line(0, "END", 3.0), Verdict::Done);
    assert_eq!(r.line(0, "ASK", 3.0), Verdict::NotAsked, "seat 0 is done");
    assert_eq!(r.waiting_for(), vec![1]);
    assert!(r.begin_turn().is_empty(), "no new turn while one is open");
    assert_eq!(r.line(1, "END", 1.0), Verdict::Done);
    assert_eq!(r.frames().len(), 2);
    assert_eq!(r.turns()[0].seats[0].replies, vec!["ok 1\n", "ok 2\n"]);
}

#[test]
fn first_turn_and_later_budgets_and_relaxed_mode() {
    let mut r = referee(false);
    assert!(r.begin_turn().iter().all(|a| a.budget_ms == 1000));
    r.line(0, "END", 1.0);
    r.line(1, "END", 1.0);
    assert!(r.begin_turn().iter().all(|a| a.budget_ms == 50));
    let mut relaxed = referee(true);
    assert!(relaxed.begin_turn().iter().all(|a| a.budget_ms == 10_000));
}

#[test]
fn a_late_line_is_a_timeout_and_the_game_applies_its_policy() {
    let mut r = referee(false);
    r.begin_turn();
    let Verdict::Fault(fault) = r.line(0, "END", 1000.5) else {
        panic!("expected a timeout")
    };
    assert_eq!(fault.kind, FaultKind::Timeout);
    assert_eq!(fault.seat, 0);
    assert!(fault.text.contains("1000 ms"), "{}", fault.text);
    r.line(1, "END", 3.0);
    assert!(r.is_over());
    assert_eq!(r.outcome().map(|o| o.ranks), Some(vec![2, 1]));
}

#[test]
fn a_malformed_line_is_recorded_as_a_fault() {
    let mut r = referee(false);
    r.begin_turn();
    assert!(matches!(
        r.line(1, "HELLO", 1.0),
        Verdict::Fault(Fault {
            kind: FaultKind::Malformed,
            seat: 1,
            ..
        })
    ));
    assert_eq!(r.faults().len(), 1);
    assert_eq!(r.faults()[0].turn, 0, "the game's count of turns done");
    assert_eq!(
        r.faults()[0].to_string(),
        "fault seat 2 turn 1 malformed output: unknown 'HELLO'",
        "shown in the first turn, turn 1"
    );
}

#[test]
fn a_fault_is_shown_in_the_turn_the_frames_number_it() {
    // Two turns played, then seat 2 writes garbage in the third: the game's counter says 2
    // turns were done, and the frame after the fault's turn is numbered 3, as the page's
    // viewer and `botplay replay --stats` show it. People are told turn 3.
    let mut r = referee(false);
    for _ in 0..2 {
        r.begin_turn();
        r.line(0, "END", 1.0);
        r.line(1, "END", 1.0);
    }
    r.begin_turn();
    r.line(0, "END", 1.0);
    let Verdict::Fault(fault) = r.line(1, "HELLO", 1.0) else {
        panic!("expected a fault")
    };
    assert!(r.is_over());
    assert_eq!(fault.turn, 2, "recorded as the game's counter");
    let frame_after = r.frames().last().expect("frames").turn;
    assert_eq!(frame_after, 3);
    assert_eq!(fault.turn_shown(), frame_after);
    assert_eq!(
        fault.to_string(),
        "fault seat 2 turn 3 malformed output: unknown 'HELLO'"
    );
}

#[test]
fn floods_are_faults_not_memory() {
    let mut r = referee(false);
    r.begin_turn();
    let long = "A".repeat(engine::referee::MAX_LINE_BYTES + 1);
    assert!(matches!(
        r.line(0, &long, 1.0),
        Verdict::Fault(Fault {
            kind: FaultKind::Flood,
            ..
        })
    ));
    assert!(r.turns().is_empty() || r.turns()[0].seats[0].lines.is_empty());
    for _ in 0..engine::referee::MAX_LINES_PER_TURN {
        assert!(matches!(r.line(1, "ASK", 1.0), Verdict::Reply(_)));
    }
    assert!(matches!(
        r.line(1, "ASK", 1.0),
        Verdict::Fault(Fault {
            kind: FaultKind::Flood,
            ..
        })
    ));
}

#[test]
fn the_debug_log_is_capped() {
    let mut r = referee(false);
    r.begin_turn();
    for _ in 0..100 {
        r.stderr(0, &"x".repeat(1000));
    }
    r.line(0, "END", 1.0);
    r.line(1, "END", 1.0);
    let stderr = &r.turns()[0].seats[0].stderr;
    assert!(stderr.len() < engine::referee::MAX_STDERR_BYTES + 100);
    assert!(stderr.ends_with("[debug log cut: too long]\n"));
}

#[test]
fn floods_seen_by_the_driver_are_faults_that_replay() {
    let mut r = referee(false);
    r.begin_turn();
    let fault = r
        .flood(
            1,
            "more than 2000 lines written without reading its input",
            3.0,
        )
        .expect("seat 2 is asked");
    assert_eq!(fault.kind, FaultKind::Flood);
    assert_eq!(
        fault.to_string(),
        "fault seat 2 turn 1 too much output: more than 2000 lines written without reading its input"
    );
    assert_eq!(r.flood(1, "again", 4.0), None, "its turn is over");
    r.line(0, "END", 1.0);
    assert!(r.is_over(), "the flooding seat lost");
    let text = r.replay().to_json();
    let rerun = Replay::from_json(&text)
        .expect("readable")
        .rerun(&ENTRY)
        .expect("re-runs");
    assert_eq!(rerun.faults(), r.faults());
    assert_eq!(rerun.outcome(), r.outcome());
}

/// Found by the `bot_lines` fuzz target: a re-run cut the recorded (already cut) debug log a
/// second time, so the re-run's replay differed from the replay it re-ran.
#[test]
fn a_cut_debug_log_replays_as_recorded() {
    let mut r = referee(false);
    r.begin_turn();
    r.stderr(0, &"\u{fffd}".repeat(6000));
    r.line(0, "END", 1.0);
    r.line(1, "END", 1.0);
    let recorded = r.turns()[0].seats[0].stderr.clone();
    assert!(recorded.ends_with("[debug log cut: too long]\n"));
    let text = r.replay().to_json();
    let rerun = Replay::from_json(&text)
        .expect("readable")
        .rerun(&ENTRY)
        .expect("re-runs");
    assert_eq!(rerun.turns()[0].seats[0].stderr, recorded);
    assert_eq!(rerun.replay().to_json(), text);

    // A hand-made replay with a longer log is still capped when re-run.
    let long = text.replace(&recorded, &"y".repeat(100_000));
    let rerun = Replay::from_json(&long)
        .expect("readable")
        .rerun(&ENTRY)
        .expect("re-runs");
    let stderr = &rerun.turns()[0].seats[0].stderr;
    assert!(stderr.len() < engine::referee::MAX_STDERR_BYTES + 100);
    assert!(stderr.ends_with("[debug log cut: too long]\n"));
}

/// A two-turn match: a question, a debug line and answers, then a timeout that ends it.
fn played() -> Referee {
    let mut r = referee(false);
    play_two_turns(&mut r);
    r
}

/// The turns of [`played`], on any referee of the Tally game.
fn play_two_turns(r: &mut Referee) {
    r.begin_turn();
    r.line(0, "ASK", 1.0);
    r.stderr(0, "thinking\n");
    r.line(0, "END", 2.0);
    r.line(1, "END", 2.0);
    r.begin_turn();
    r.line(0, "END", 2.0);
    r.timeout(1, 50.0);
}

#[test]
fn a_timeout_after_part_of_an_answer_says_the_game_was_waiting_for_more_lines() {
    let mut r = referee(false);
    r.begin_turn();
    r.line(0, "ASK", 1.0);
    r.line(1, "END", 1.0);
    let fault = r.timeout(0, 1001.0).expect("seat 0 was asked");
    assert_eq!(
        fault.text,
        "no complete answer within 1000 ms: the bot wrote 1 line and the game was waiting for \
         more (this turn's answer takes more lines: see the rules), unless the bot was still \
         computing (an endless loop?)"
    );
    let mut r = referee(false);
    r.begin_turn();
    r.line(1, "END", 1.0);
    let silent = r.timeout(0, 1001.0).expect("seat 0 was asked");
    assert_eq!(silent.text, "no complete answer within 1000 ms");
}

#[test]
fn a_timeout_names_what_the_driver_saw_the_bot_doing_at_the_deadline() {
    let timed_out = |ask_first: bool, seen: AtDeadline| {
        let mut r = referee(false);
        r.begin_turn();
        if ask_first {
            r.line(0, "ASK", 1.0);
        }
        r.line(1, "END", 1.0);
        r.timeout_seen(0, 1001.0, seen)
            .expect("seat 0 was asked")
            .text
    };
    assert_eq!(
        timed_out(false, AtDeadline::WaitingForInput),
        "no complete answer within 1000 ms: the bot was waiting for more input, but the game had \
         sent all of this turn's (does it read more lines than a turn has? see the input in the \
         rules)"
    );
    assert_eq!(
        timed_out(true, AtDeadline::WaitingForInput),
        "no complete answer within 1000 ms: the bot wrote 1 line and then waited for its next \
         input, but the game was waiting for more lines (this turn's answer takes more lines: \
         see the rules)"
    );
    assert_eq!(
        timed_out(
            false,
            AtDeadline::Computing {
                at: Some("line 12")
            }
        ),
        "no complete answer within 1000 ms: the bot was still computing at the deadline, in line \
         12 (an endless loop, or too slow for its budget?)"
    );
    assert_eq!(
        timed_out(true, AtDeadline::Computing { at: None }),
        "no complete answer within 1000 ms: the bot wrote 1 line and was still computing at the \
         deadline (an endless loop, or too slow for its budget?)"
    );
    assert_eq!(
        timed_out(false, AtDeadline::Unknown),
        "no complete answer within 1000 ms"
    );
}

#[test]
fn replays_rerun_to_the_same_frames_faults_and_outcome() {
    let original = played();
    assert!(original.is_over());
    let text = original.replay().to_json();
    let replay = Replay::from_json(&text).expect("readable");
    assert_eq!(replay.to_json(), text);
    let rerun = replay.rerun(&ENTRY).expect("re-runs");
    assert_eq!(rerun.frames(), original.frames());
    assert_eq!(rerun.faults(), original.faults());
    assert_eq!(rerun.outcome(), original.outcome());
    assert_eq!(rerun.turns()[0].seats[0].stderr, "thinking\n");
    assert_eq!(rerun.turns()[1].seats[0].input, "turn 1 seat 0\n");
}

#[test]
fn a_match_started_from_a_replay_goes_on_from_its_turn_and_says_where_it_came_from() {
    let original = played().replay();
    let mut r = original
        .start(&ENTRY, vec!["new a".into(), "new b".into()], false)
        .expect("starts");
    let asks = r.begin_turn();
    // What a driver shows a taking-over bot: the input its seat was sent, and a copy of the
    // game that hears its lines without changing the match.
    assert_eq!(
        asks[0].input,
        original.rerun(&ENTRY).expect("re-runs").turns()[0].seats[0].input
    );
    let mut copy = r.game_copy();
    copy.hear(0, "END");
    assert!(
        r.waiting_for().contains(&0),
        "the copy's lines are not the match's"
    );
    original
        .feed_turn(&mut r, 0, &asks)
        .expect("the first turn as recorded");
    assert_eq!(
        r.turns()[0].seats[0].lines,
        original.turns[0].seats[0].lines
    );
    // A turn the replay does not have is refused.
    let asks = r.begin_turn();
    assert!(matches!(
        original.feed_turn(&mut r, 99, &asks),
        Err(engine::ReplayError::Diverged { turn: 99, .. })
    ));
    let mut taken = r.replay();
    taken.from = Some(engine::Origin {
        replay: original.digest(),
        turns: 1,
        turn: 1,
    });
    assert_eq!(original.digest().len(), 16);
    assert_ne!(original.digest(), taken.digest());
    let back = Replay::from_json(&taken.to_json()).expect("readable");
    assert_eq!(back.from, taken.from);
    assert!(
        !original.to_json().contains("\"from\""),
        "no origin, no field"
    );
}

#[test]
fn replays_from_elsewhere_are_refused_clearly() {
    let text = played().replay().to_json();
    let other_version = text.replace("\"game_version\":3", "\"game_version\":2");
    let err = Replay::from_json(&other_version)
        .expect("readable")
        .rerun(&ENTRY)
        .expect_err("version 2 is not ours");
    assert!(matches!(
        err,
        ReplayError::GameVersion {
            recorded: 2,
            current: 3,
            ..
        }
    ));
    assert!(err.to_string().contains("version 2 of the Tally rules"));

    let newer = text.replace("\"format\":1", "\"format\":9");
    assert!(matches!(
        Replay::from_json(&newer),
        Err(ReplayError::NewerFormat { found: 9, .. })
    ));
    assert!(matches!(
        Replay::from_json("{\"format\""),
        Err(ReplayError::Damaged(_))
    ));
    assert!(matches!(
        Replay::from_json("[]"),
        Err(ReplayError::Damaged(_))
    ));
    assert!(matches!(
        Replay::from_json(&text[..text.len() / 2]),
        Err(ReplayError::Damaged(_))
    ));

    let tampered = text.replacen("\"END\"", "\"ASK\"", 1);
    let err = Replay::from_json(&tampered)
        .expect("readable")
        .rerun(&ENTRY)
        .expect_err("the lines no longer complete the turn");
    assert!(
        matches!(err, ReplayError::Diverged { turn: 0, .. }),
        "{err}"
    );

    let faulty = text.replacen("\"END\"", "\"BOOM\"", 1);
    let err = Replay::from_json(&faulty)
        .expect("readable")
        .rerun(&ENTRY)
        .expect_err("the line now faults");
    assert!(err.to_string().contains("not recorded"), "{err}");

    // A replay that did not come through `from_json` (a link's) is checked when it is re-run.
    let mut unnamed = Replay::from_json(&text).expect("readable");
    unnamed.bots.pop();
    let err = unnamed.rerun(&ENTRY).expect_err("a seat without a name");
    assert!(err.to_string().contains("bot names for"), "{err}");
}

#[test]
fn setups_are_checked() {
    let mut setup = Setup::new(&INFO, 1);
    setup.seats = 3;
    let err = (ENTRY.new)(&setup).err().expect("3 seats");
    assert_eq!(err.to_string(), "this game is played by 2 bots, not 3");
    setup.seats = 2;
    setup.ruleset = "fancy".into();
    let err = (ENTRY.new)(&setup).err().expect("unknown ruleset");
    assert_eq!(err.to_string(), "unknown ruleset 'fancy' (known: plain)");
}

#[test]
fn ranks_share_places_on_equal_scores() {
    let o = Outcome::from_scores(vec![5, 9, 5], "");
    assert_eq!(o.ranks, vec![2, 1, 2]);
    assert_eq!(o.winner(), Some(1));
    assert_eq!(Outcome::from_scores(vec![4, 4], "").winner(), None);
}

#[test]
fn broadcasts_reach_the_driver_after_each_step() {
    let mut r = referee(false);
    r.begin_turn();
    assert!(r.take_notices().is_empty());
    r.line(0, "END", 1.0);
    assert!(r.take_notices().is_empty(), "no step yet");
    r.line(1, "END", 1.0);
    assert_eq!(
        r.take_notices(),
        vec![(0, "tick 1\n".to_string()), (1, "tick 1\n".to_string())]
    );
    assert!(r.take_notices().is_empty(), "taken once");
}

#[test]
fn a_referee_without_frames_plays_the_same_match() {
    let mut r = referee(false).without_frames();
    assert!(r.frames().is_empty());
    play_two_turns(&mut r);
    let original = played();
    assert!(r.is_over());
    assert!(r.frames().is_empty());
    assert_eq!(Some(&r.frame_now()), original.frames().last());
    assert_eq!(r.replay().to_json(), original.replay().to_json());
    assert_eq!(r.faults(), original.faults());
    assert_eq!(r.outcome(), original.outcome());
    let rerun = r.replay().rerun(&ENTRY).expect("re-runs");
    assert_eq!(rerun.frames(), original.frames());
}

// ---------------------------------------------------------------------------------------------
// A stopped bot crashes on each of its later turns: the referee does it (`Referee::retire`), in
// the seat's place among the seats of the turn, so that every driver applies the rule alike and
// replays re-run to the same match.

/// A Tally match in which faults do not end the match.
fn going_on() -> Referee {
    let mut setup = Setup::new(&INFO, 5);
    setup.options.insert("faults".into(), "go-on".into());
    let game = (ENTRY.new)(&setup).expect("valid");
    Referee::new(game, setup, vec!["a".into(), "b".into()], false)
}

fn asked(asks: &[engine::Ask]) -> Vec<usize> {
    asks.iter().map(|a| a.seat).collect()
}

#[test]
fn a_retired_seat_is_not_asked_and_crashes_after_the_seats_before_it() {
    let mut r = going_on();
    assert_eq!(asked(&r.begin_turn()), [0, 1]);
    r.line(0, "END", 1.0);
    r.timeout(1, 51.0);
    r.retire(1, "stopped: it timed out");
    assert!(r.is_retired(1) && !r.is_retired(0));

    assert_eq!(asked(&r.begin_turn()), [0], "seat 1 is not asked");
    assert_eq!(r.waiting_for(), [0]);
    assert_eq!(r.faults().len(), 1, "seat 1's turn waits for seat 0's");
    assert_eq!(r.line(0, "END", 1.0), Verdict::Done);
    assert!(
        !r.turn_open(),
        "seat 1 crashed after seat 0, and the turn is complete"
    );
    assert_eq!(r.frames()[2].events().as_ref(), ["0 said END", "1 crash"]);
    let crash = &r.turns()[1].seats[1];
    assert_eq!(
        crash.input, "turn 1 seat 1\n",
        "the input is recorded as sent"
    );
    let fault = crash.fault.as_ref().expect("a crash");
    assert_eq!(fault.kind, FaultKind::Crash);
    assert_eq!(fault.text, "stopped: it timed out");
    assert_eq!(crash.time_ms, 0.0);
}

#[test]
fn a_retired_seat_before_the_others_crashes_as_the_turn_begins() {
    let mut r = going_on();
    r.begin_turn();
    r.crash(0, "it ended", 3.0);
    r.retire(0, engine::referee::STOPPED);
    r.line(1, "END", 1.0);
    assert_eq!(asked(&r.begin_turn()), [1]);
    assert_eq!(r.faults().len(), 2, "seat 0 crashed at once");
    assert_eq!(r.faults()[1].text, "the bot was stopped earlier");
    assert_eq!(r.waiting_for(), [1]);
    r.line(1, "END", 1.0);
    assert_eq!(r.frames()[2].events().as_ref(), ["0 crash", "1 said END"]);
}

#[test]
fn a_turn_of_retired_seats_only_is_played_through() {
    let mut r = going_on();
    r.begin_turn();
    for seat in 0..2 {
        r.crash(seat, "gone", 2.0);
        r.retire(seat, "stopped");
        r.retire(seat, "a second reason is not kept");
    }
    assert!(r.begin_turn().is_empty(), "nobody is left to ask");
    assert!(r.is_over());
    assert_eq!(r.turns().len(), 3);
    assert_eq!(r.faults().len(), 2 + 2 * 2);
    assert!(r.faults()[2..].iter().all(|f| f.text == "stopped"));
}

#[test]
fn retiring_a_seat_leaves_its_open_turn_alone() {
    let mut r = going_on();
    r.begin_turn();
    r.retire(0, "stopped");
    assert_eq!(
        r.waiting_for(),
        [0, 1],
        "its open turn is the driver's to end"
    );
    assert_eq!(r.line(0, "END", 1.0), Verdict::Done);
    assert!(r.faults().is_empty());
    r.retire(7, "no such seat: nothing happens");
}

#[test]
fn a_match_with_a_retired_seat_replays_to_the_same_frames_and_faults() {
    let mut r = going_on();
    while !r.is_over() {
        for ask in r.begin_turn() {
            if ask.seat == 0 && r.turns().is_empty() {
                r.line(0, "ASK", 1.0);
                r.crash(0, "ended", 3.0);
                r.retire(0, "stopped");
            } else {
                r.line(ask.seat, "END", 1.0);
            }
        }
    }
    assert_eq!(r.faults().len(), 3);
    let replay = Replay::from_json(&r.replay().to_json()).expect("readable");
    let rerun = replay.rerun(&ENTRY).expect("re-runs");
    assert_eq!(rerun.frames(), r.frames());
    assert_eq!(rerun.faults(), r.faults());
    assert_eq!(rerun.outcome(), r.outcome());
}

/// A seat retired while a record is re-run (a bot that flooded before the match taken over was
/// re-run to its turn) is asked as recorded: the record says how its turns ended. From the live
/// turns on, the referee ends them itself.
#[test]
fn a_seat_retired_before_a_record_is_re_run_is_asked_as_recorded_then_crashes() {
    let mut original = going_on();
    while !original.is_over() {
        for ask in original.begin_turn() {
            original.line(ask.seat, "END", 1.0);
        }
    }
    let replay = original.replay();
    let mut r = replay
        .start(&ENTRY, vec!["flood".into(), "b".into()], false)
        .expect("starts");
    r.retire(0, "stopped: it flooded its debug log");
    for index in 0..2 {
        let asks = r.begin_turn();
        assert_eq!(asked(&asks), [0, 1], "turn record {index}");
        replay.feed_turn(&mut r, index, &asks).expect("as recorded");
    }
    assert!(r.faults().is_empty());
    assert_eq!(r.turns(), &original.turns()[..2]);
    r.check_time_from_now();
    assert_eq!(asked(&r.begin_turn()), [1], "live: seat 0 is not asked");
    r.line(1, "END", 1.0);
    let fault = r.turns()[2].seats[0].fault.as_ref().expect("a crash");
    assert_eq!(fault.kind, FaultKind::Crash);
    assert_eq!(fault.text, "stopped: it flooded its debug log");
}
