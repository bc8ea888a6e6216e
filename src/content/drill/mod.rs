//! Drills: seeded practice problems with solutions and answer checking.
//!
//! Every drill is a pure function of (machine, parameters, seed): the same
//! inputs give the same bytes. Each part of a drill draws from its own
//! stream ([`Rng::derived`]), so changing one part never shifts another.
//!
//! | drill | the student computes | answer file |
//! |---|---|---|
//! | `list-schedule` | the top-down list schedule of a random block | `LABEL CYCLE` lines |
//! | `mii` | ResMII, RecMII, MII of a random loop | `res_mii N`, `rec_mii N`, `mii N` |
//! | `modulo` | a modulo schedule (II and a cycle per operation) | `ii N` and `LABEL CYCLE` lines |
//! | `forbidden` | forbidden latencies and collision vectors (Def 23.1.5) | `F(A,B) = {…}` lines |
//! | `hazard` | the recognizer trace of Alg 23.1.7 on the multiplier | `accept {…}` / `reject {…}` per issue |
//! | `rthroughput` | Block RThroughput of a loop body (Def 23.1.10) | one number (`5/2` or `2.5`) |

use std::collections::BTreeMap;

use serde_json::{json, Value};
use similar::TextDiff;

use crate::content::gen::{self, GenParams};
use crate::engine::check;
use crate::engine::hazard::{self, set_string, Event};
use crate::engine::mii;
use crate::engine::sched;
use crate::formats::submission::parse as parse_submission;
use crate::model::machine::{ClassFile, Machine, MachineFile, ResourceFile};
use crate::model::program::{Kind, Program};
use crate::util::ratio::Ratio;
use crate::util::rng::{Rng, GENERATOR_VERSION};
use crate::util::text::columns;
use crate::view::report;

/// A drill's name and what it practises.
pub struct DrillInfo {
    pub name: &'static str,
    pub summary: &'static str,
    /// The parameter file in `drills/`, if the drill has one.
    pub params: Option<&'static str>,
}

/// The drills, in the order `course drill list` shows them.
pub const DRILLS: &[DrillInfo] = &[
    DrillInfo {
        name: "list-schedule",
        summary: "top-down list scheduling of a random block (heights, Fits, the reservation table)",
        params: Some("drills/list-schedule.yaml"),
    },
    DrillInfo {
        name: "mii",
        summary: "ResMII, RecMII and MII of a random loop (usage from reservation tables, the critical recurrence)",
        params: Some("drills/mii.yaml"),
    },
    DrillInfo {
        name: "modulo",
        summary: "a modulo schedule of a random loop at the smallest II you can reach (Lesson 23.6)",
        params: Some("drills/mii.yaml"),
    },
    DrillInfo {
        name: "forbidden",
        summary: "forbidden latencies and collision vectors of random reservation tables (Def 23.1.5)",
        params: None,
    },
    DrillInfo {
        name: "hazard",
        summary: "the hazard recognizer's trace on the multiplier (Alg 23.1.7, the event table of §3)",
        params: None,
    },
    DrillInfo {
        name: "rthroughput",
        summary: "Block RThroughput of a random loop body, as llvm-mca prints it (Def 23.1.10)",
        params: Some("drills/mii.yaml"),
    },
];

/// Why a drill could not run.
#[derive(Debug, thiserror::Error)]
pub enum DrillError {
    #[error("unknown drill '{0}' (see `course drill list`)")]
    Unknown(String),
    #[error("{0}")]
    Machine(String),
}

/// A drill rendered both ways.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub text: String,
    pub json: Value,
}

/// The outcome of `--check`.
#[derive(Clone, Debug)]
pub struct Checked {
    pub correct: bool,
    pub text: String,
    pub json: Value,
}

/// The list of drills as text.
pub fn list_text() -> String {
    let rows: Vec<Vec<String>> = DRILLS
        .iter()
        .map(|d| vec![format!("  {}", d.name), d.summary.to_string()])
        .collect();
    format!(
        "Drills (course drill NAME [--seed N] [--solution] [--check FILE|-] [--format text|json]):\n{}",
        columns(&rows)
    )
}

fn info(name: &str) -> Result<&'static DrillInfo, DrillError> {
    DRILLS
        .iter()
        .find(|d| d.name == name)
        .ok_or_else(|| DrillError::Unknown(name.to_string()))
}

fn header(name: &str, seed: u64, m: &Machine) -> String {
    format!(
        "Drill {name} · seed {seed} · generator v{GENERATOR_VERSION} · machine {}\n\n",
        m.name
    )
}

fn base_json(name: &str, seed: u64, m: &Machine) -> serde_json::Map<String, Value> {
    let mut j = serde_json::Map::new();
    j.insert("drill".into(), json!(name));
    j.insert("seed".into(), json!(seed));
    j.insert("generator_version".into(), json!(GENERATOR_VERSION));
    j.insert(
        "machine".into(),
        serde_json::to_value(m.info()).unwrap_or_default(),
    );
    j
}

/// A compact description of the machine for problem statements.
pub fn machine_summary(m: &Machine) -> String {
    let res: Vec<String> = m
        .resources
        .iter()
        .map(|r| format!("{} {}", r.name, r.capacity))
        .collect();
    let mut rows = Vec::new();
    for c in &m.classes {
        let units: BTreeMap<&str, Vec<u32>> = c
            .reservation
            .iter()
            .filter(|(r, _)| r.index() != 0)
            .fold(BTreeMap::new(), |mut acc, &(r, k)| {
                acc.entry(m.resource(r).name.as_str()).or_default().push(k);
                acc
            });
        let occ: Vec<String> = units
            .iter()
            .map(|(u, ks)| {
                format!(
                    "{u} at +{}",
                    ks.iter().map(u32::to_string).collect::<Vec<_>>().join(",+")
                )
            })
            .collect();
        rows.push(vec![
            format!("  {}", c.name),
            format!("lat {}", c.latency),
            if occ.is_empty() {
                "-".into()
            } else {
                occ.join("; ")
            },
            c.opcodes.join(" "),
        ]);
    }
    format!(
        "Machine {} (capacities: {}):\n{}",
        m.name,
        res.join(" · "),
        columns(&rows)
    )
}

/// Runs a drill: the problem, plus the solution when asked.
pub fn run(
    name: &str,
    m: &Machine,
    params: Option<&GenParams>,
    seed: u64,
    solution: bool,
) -> Result<Rendered, DrillError> {
    let d = info(name)?;
    let params = drill_params(d, params);
    match d.name {
        "list-schedule" => Ok(list_schedule(m, &params, seed, solution)),
        "mii" => Ok(mii_drill(m, &params, seed, solution)),
        "modulo" => Ok(modulo_drill(m, &params, seed, solution)),
        "forbidden" => Ok(forbidden(seed, solution)),
        "hazard" => hazard_drill(m, seed, solution),
        "rthroughput" => Ok(rthroughput(m, &params, seed, solution)),
        _ => Err(DrillError::Unknown(name.to_string())),
    }
}

/// Checks an answer to a drill.
pub fn check_answer(
    name: &str,
    m: &Machine,
    params: Option<&GenParams>,
    seed: u64,
    answer: &str,
) -> Result<Checked, DrillError> {
    let d = info(name)?;
    let params = drill_params(d, params);
    match d.name {
        "list-schedule" => Ok(check_list_schedule(m, &params, seed, answer)),
        "mii" => Ok(check_mii(m, &params, seed, answer)),
        "modulo" => Ok(check_modulo(m, &params, seed, answer)),
        "forbidden" => Ok(check_forbidden(seed, answer)),
        "hazard" => check_hazard(m, seed, answer),
        "rthroughput" => Ok(check_rthroughput(m, &params, seed, answer)),
        _ => Err(DrillError::Unknown(name.to_string())),
    }
}

/// The given parameters, or the drill's own file (blocks for list-schedule,
/// loops otherwise).
fn drill_params(d: &DrillInfo, given: Option<&GenParams>) -> GenParams {
    match (given, d.params) {
        (Some(p), _) => p.clone(),
        (None, Some("drills/list-schedule.yaml")) => GenParams::block_default(),
        (None, _) => GenParams::loop_default(),
    }
}

// ------------------------------------------------------------ list-schedule

fn list_block(m: &Machine, params: &GenParams, seed: u64) -> (String, Program) {
    gen::program(m, params, seed, None, Kind::Block)
}

fn list_schedule(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Rendered {
    let (_, p) = list_block(m, params, seed);
    let mut text = header("list-schedule", seed, m);
    text.push_str(
        "Schedule this block top-down, cycle by cycle (Lesson 23.3): at each cycle try the\n\
         ready operations in priority order (height, ties by source order) and place each\n\
         one that Fits (Algorithm 23.1.4).\n\n",
    );
    text.push_str(&p.to_text());
    text.push('\n');
    text.push_str(&machine_summary(m));
    text.push_str(&format!(
        "\nAnswer with one 'LABEL CYCLE' line per operation, then:\n  course drill list-schedule --seed {seed} --check FILE\n"
    ));
    let mut j = base_json("list-schedule", seed, m);
    j.extend(report::program_json(&p, m));
    if solution {
        let s = sched::list_schedule(&p, m);
        text.push_str("\nSolution\n\nDependences:\n");
        text.push_str(&report::edges_text(&p));
        text.push_str("\nHeights h(x) = max(lat(x), max over x→y of ℓ + h(y)):\n");
        text.push_str(&report::heights_text(&p, &s.heights));
        text.push_str(&format!("\nSchedule (length {}):\n", s.length));
        text.push_str(&indent(&check::submission_text(&p, &s.cycles, None)));
        text.push_str("\nReservation table:\n");
        text.push_str(&report::reservation_table(&p, m, &s.cycles, None));
        j.insert(
            "solution".into(),
            json!({
                "heights": report::heights_json(&p, &s.heights),
                "schedule": check::schedule_map(&p, &s.cycles),
                "length": s.length,
            }),
        );
    }
    Rendered {
        text,
        json: Value::Object(j),
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}\n")).collect()
}

fn check_list_schedule(m: &Machine, params: &GenParams, seed: u64, answer: &str) -> Checked {
    let (_, p) = list_block(m, params, seed);
    let reference = sched::list_schedule(&p, m);
    let sub = parse_submission(answer, "answer");
    let result = check::check(&p, m, &sub);
    let mut mistakes: Vec<Value> = Vec::new();
    let mut text = String::new();
    // Problems with the file itself and infeasible placements first.
    for v in &result.violations {
        mistakes.push(json!({"kind": v.kind.as_str(), "message": v.message}));
        text.push_str(&format!("✗ {}\n", v.message));
    }
    let mut wrong = !result.violations.is_empty();
    if let Some(t) = &result.cycles {
        for x in p.op_ids() {
            let (mine, refc) = (t[x.index()], reference.cycles[x.index()]);
            if mine == refc {
                continue;
            }
            wrong = true;
            let already = result.violations.iter().any(|v| v.op == Some(x));
            if already {
                continue;
            }
            let msg = format!(
                "{} at {mine}: feasible, but the list scheduler places {} at {refc} (ready from {}, height {})",
                p.label(x),
                p.label(x),
                reference.ready[x.index()],
                reference.heights[x.index()]
            );
            mistakes.push(json!({"kind": "order", "message": msg}));
            text.push_str(&format!("✗ {msg}\n"));
        }
    }
    let reference_text = check::submission_text(&p, &reference.cycles, None);
    let mine_text = match &result.cycles {
        Some(t) => check::submission_text(&p, t, None),
        None => normalize_answer(answer),
    };
    let diff = TextDiff::from_lines(&mine_text, &reference_text)
        .unified_diff()
        .header("your schedule", "reference")
        .to_string();
    let mut out = header("list-schedule", seed, m);
    if wrong {
        out.push_str(&format!("{} mistake(s):\n{text}\n", mistakes.len()));
        out.push_str(&diff);
        if let Some(t) = &result.cycles {
            out.push_str("\nYour reservation table:\n");
            out.push_str(&report::reservation_table(&p, m, t, None));
        }
    } else {
        out.push_str(&format!(
            "✓ correct: every operation at its list-scheduling cycle (length {}).\n",
            reference.length
        ));
    }
    let mut j = base_json("list-schedule", seed, m);
    j.remove("machine");
    j.insert("correct".into(), json!(!wrong));
    j.insert("mistakes".into(), Value::Array(mistakes));
    j.insert("diff".into(), json!(diff));
    Checked {
        correct: !wrong,
        text: out,
        json: Value::Object(j),
    }
}

/// The answer's non-comment lines, trimmed (for a diff when it did not parse).
fn normalize_answer(answer: &str) -> String {
    answer
        .trim_start_matches('\u{feff}')
        .lines()
        .map(|l| {
            l.split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

// ---------------------------------------------------------------------- mii

fn mii_loop(m: &Machine, params: &GenParams, seed: u64) -> (String, Program) {
    gen::program(m, params, seed, None, Kind::Loop)
}

fn mii_drill(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Rendered {
    let (_, p) = mii_loop(m, params, seed);
    let mut text = header("mii", seed, m);
    text.push_str(
        "Find ResMII, RecMII and MII of this loop (Lesson 23.6). A use at or before its\n\
         definition reads the previous iteration (distance 1); r@k reads k iterations back.\n\n",
    );
    text.push_str(&p.to_text());
    text.push('\n');
    text.push_str(&machine_summary(m));
    text.push_str(&format!(
        "\nAnswer with lines 'res_mii N', 'rec_mii N', 'mii N', then:\n  course drill mii --seed {seed} --check FILE\n"
    ));
    let mut j = base_json("mii", seed, m);
    j.extend(report::program_json(&p, m));
    if solution {
        let b = mii::analyze(&p, m);
        text.push_str("\nSolution\n\nDependences:\n");
        text.push_str(&report::edges_text(&p));
        text.push('\n');
        text.push_str(&report::bounds_text(&p, m, &b));
        j.insert("solution".into(), report::bounds_json(&p, m, &b));
    }
    Rendered {
        text,
        json: Value::Object(j),
    }
}

/// `key N` / `key: N` / `key = N` lines, keys case-insensitive with `-`/`_`.
fn key_values(answer: &str) -> (BTreeMap<String, (String, u32)>, Vec<String>) {
    let mut map = BTreeMap::new();
    let mut errors = Vec::new();
    for (i, line) in answer.trim_start_matches('\u{feff}').lines().enumerate() {
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let sep = body.find([':', '=', ' ', '\t']);
        match sep {
            Some(k) => {
                let key = body[..k].trim().to_ascii_lowercase().replace('-', "_");
                let value = body[k + 1..]
                    .trim_start_matches([':', '=', ' ', '\t'])
                    .trim()
                    .to_string();
                map.insert(key, (value, i as u32 + 1));
            }
            None => errors.push(format!(
                "line {}: expected 'KEY VALUE', found '{}'",
                i + 1,
                body.chars().take(40).collect::<String>()
            )),
        }
    }
    (map, errors)
}

fn check_mii(m: &Machine, params: &GenParams, seed: u64, answer: &str) -> Checked {
    let (_, p) = mii_loop(m, params, seed);
    let b = mii::analyze(&p, m);
    let (kv, errors) = key_values(answer);
    let mut lines = Vec::new();
    let mut mistakes = Vec::new();
    for e in &errors {
        mistakes.push(json!({"kind": "format", "message": e}));
        lines.push(format!("✗ {e}"));
    }
    let reason = |key: &str| -> String {
        match key {
            "res_mii" => format!(
                "ResMII = max over resources of ⌈U/cap⌉; {} has U = {} on capacity {}, so {}",
                m.resource(b.res_bottleneck).name,
                b.usage[b.res_bottleneck.index()],
                m.resource(b.res_bottleneck).capacity,
                b.res_mii
            ),
            "rec_mii" => format!(
                "the critical recurrence is {}",
                report::recurrence_text(&p, &b)
            ),
            _ => format!(
                "MII = max(ResMII, RecMII) = max({}, {}) = {}",
                b.res_mii, b.rec_mii, b.mii
            ),
        }
    };
    for (key, want) in [
        ("res_mii", b.res_mii),
        ("rec_mii", b.rec_mii),
        ("mii", b.mii),
    ] {
        match kv.get(key).or_else(|| kv.get(&key.replace('_', ""))) {
            None => {
                let msg = format!("{key}: missing (expected a line '{key} N')");
                mistakes.push(json!({"kind": "missing", "message": msg}));
                lines.push(format!("✗ {msg}"));
            }
            Some((v, line)) => match v.parse::<u64>() {
                Ok(got) if got == want => lines.push(format!("✓ {key} = {got}")),
                Ok(got) => {
                    let msg = format!("{key}: you said {got}; {}", reason(key));
                    mistakes.push(json!({"kind": "wrong", "message": msg}));
                    lines.push(format!("✗ {msg}"));
                }
                Err(_) => {
                    let msg = format!("line {line}: {key}: '{v}' is not a whole number");
                    mistakes.push(json!({"kind": "format", "message": msg}));
                    lines.push(format!("✗ {msg}"));
                }
            },
        }
    }
    let correct = mistakes.is_empty();
    let mut text = header("mii", seed, m);
    text.push_str(&lines.join("\n"));
    text.push('\n');
    let mut j = base_json("mii", seed, m);
    j.remove("machine");
    j.insert("correct".into(), json!(correct));
    j.insert("mistakes".into(), Value::Array(mistakes));
    Checked {
        correct,
        text,
        json: Value::Object(j),
    }
}

// ------------------------------------------------------------------- modulo

fn modulo_loop(m: &Machine, params: &GenParams, seed: u64) -> Program {
    let sub_seed = Rng::derived(seed, "modulo/body").next_u64();
    gen::program(m, params, sub_seed, None, Kind::Loop).1
}

fn modulo_drill(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Rendered {
    let p = modulo_loop(m, params, seed);
    let mut text = header("modulo", seed, m);
    text.push_str(
        "Modulo-schedule this loop (Lesson 23.6): choose an initiation interval II and an\n\
         issue cycle for each operation of one iteration so that every dependence holds\n\
         (t_j + d·II ≥ t_i + ℓ) and the modulo reservation table never overflows.\n\n",
    );
    text.push_str(&p.to_text());
    text.push('\n');
    text.push_str(&machine_summary(m));
    text.push_str(&format!(
        "\nAnswer with a line 'ii N' and one 'LABEL CYCLE' line per operation, then:\n  course drill modulo --seed {seed} --check FILE\n"
    ));
    let mut j = base_json("modulo", seed, m);
    j.extend(report::program_json(&p, m));
    if solution {
        let b = mii::analyze(&p, m);
        let s = crate::engine::modulo::modulo_schedule(&p, m);
        text.push_str(&format!(
            "\nSolution\n\nResMII = {}, RecMII = {}, MII = {}; iterative modulo scheduling reaches II = {}.\n\n",
            b.res_mii, b.rec_mii, b.mii, s.ii
        ));
        text.push_str(&indent(&check::submission_text(&p, &s.cycles, Some(s.ii))));
        text.push_str("\nModulo reservation table (rows = cycle mod II):\n");
        text.push_str(&report::reservation_table(&p, m, &s.cycles, Some(s.ii)));
        j.insert(
            "solution".into(),
            json!({
                "ii": s.ii,
                "mii": b.mii,
                "res_mii": b.res_mii,
                "rec_mii": b.rec_mii,
                "schedule": check::schedule_map(&p, &s.cycles),
            }),
        );
    }
    Rendered {
        text,
        json: Value::Object(j),
    }
}

fn check_modulo(m: &Machine, params: &GenParams, seed: u64, answer: &str) -> Checked {
    let p = modulo_loop(m, params, seed);
    let b = mii::analyze(&p, m);
    let reference = crate::engine::modulo::modulo_schedule(&p, m);
    let result = check::check(&p, m, &parse_submission(answer, "answer"));
    let mut mistakes: Vec<Value> = result
        .violations
        .iter()
        .map(|v| json!({"kind": v.kind.as_str(), "message": v.message}))
        .collect();
    let mut text = header("modulo", seed, m);
    for v in &result.violations {
        text.push_str(&format!("✗ {}\n", v.message));
    }
    if result.violations.is_empty() {
        let ii = result.ii.unwrap_or(0);
        if ii > reference.ii {
            let msg = format!(
                "valid, but II = {ii} is above the reference II = {} (MII = {})",
                reference.ii, b.mii
            );
            text.push_str(&format!("✗ {msg}\n"));
            mistakes.push(json!({"kind": "quality", "message": msg}));
        } else {
            text.push_str(&format!(
                "✓ valid at II = {ii} (MII = {}{})\n",
                b.mii,
                if ii == b.mii { ": optimal" } else { "" }
            ));
        }
        if let Some(t) = &result.cycles {
            text.push_str("\nYour modulo reservation table:\n");
            text.push_str(&report::reservation_table(&p, m, t, Some(ii)));
        }
    }
    let correct = mistakes.is_empty();
    Checked {
        correct,
        text,
        json: json!({"drill": "modulo", "seed": seed, "correct": correct, "mistakes": mistakes}),
    }
}

// ---------------------------------------------------------------- forbidden

/// Two or three classes on one capacity-1 resource with random offset sets.
fn forbidden_machine(seed: u64) -> Machine {
    let mut rng = Rng::derived(seed, "forbidden/tables");
    let nclass = rng.range(2, 3);
    let names = ["A", "B", "C"];
    let mut classes = Vec::new();
    for name in names.iter().take(nclass as usize) {
        let mut offs: Vec<i64> = (0..=5).filter(|_| rng.percent(35)).collect();
        if offs.is_empty() {
            offs.push(rng.range(0, 3) as i64);
        }
        let lat = offs.iter().max().copied().unwrap_or(0) + 1;
        classes.push(ClassFile {
            name: name.to_string(),
            latency: lat,
            opcodes: vec![name.to_ascii_lowercase()],
            unit: None,
            occupancy: None,
            reservation: Some(offs.iter().map(|&k| ("r".to_string(), k)).collect()),
            uops: None,
            read_advance: None,
        });
    }
    let file = MachineFile {
        name: Some(format!("forbidden-{seed}")),
        issue_width: nclass as i64,
        micro_op_buffer_size: None,
        resources: vec![ResourceFile {
            name: "r".into(),
            capacity: 1,
        }],
        classes,
    };
    Machine::from_file(&file, "forbidden drill").expect("generated tables are valid")
}

fn forbidden_answers(m: &Machine) -> Vec<(String, Vec<u32>)> {
    let r = m.resource_by_name("r").unwrap_or_default();
    let mut v = Vec::new();
    for a in m.class_ids() {
        for b in m.class_ids() {
            v.push((
                format!("F({},{})", m.class(a).name, m.class(b).name),
                hazard::forbidden_latencies(m, r, a, b),
            ));
        }
    }
    v
}

fn forbidden(seed: u64, solution: bool) -> Rendered {
    let m = forbidden_machine(seed);
    let r = m.resource_by_name("r").unwrap_or_default();
    let mut text = format!("Drill forbidden · seed {seed} · generator v{GENERATOR_VERSION}\n\n");
    text.push_str(
        "These classes use the capacity-1 resource r at the offsets shown (K_r(o), Def 23.1.5):\n",
    );
    let mut rows = Vec::new();
    for c in m.class_ids() {
        let ks: Vec<u32> = m.class(c).offsets(r).collect();
        rows.push(vec![format!("  K({})", m.class(c).name), set_string(&ks)]);
    }
    text.push_str(&columns(&rows));
    text.push_str(&format!(
        "\nGive every forbidden-latency set F(o,o') and each class's collision vector.\nAnswer with lines like 'F(A,B) = {{0,2}}', then:\n  course drill forbidden --seed {seed} --check FILE\n"
    ));
    let mut j = serde_json::Map::new();
    j.insert("drill".into(), json!("forbidden"));
    j.insert("seed".into(), json!(seed));
    j.insert("generator_version".into(), json!(GENERATOR_VERSION));
    j.insert(
        "machine".into(),
        serde_json::to_value(m.info()).unwrap_or_default(),
    );
    if solution {
        text.push_str("\nSolution (Lemma 23.1.6: d is forbidden iff some k ∈ K(o), k' ∈ K(o') have k − k' = d):\n");
        let mut rows = Vec::new();
        let mut sol = serde_json::Map::new();
        for (k, f) in forbidden_answers(&m) {
            rows.push(vec![format!("  {k}"), "=".into(), set_string(&f)]);
            sol.insert(k, json!(f));
        }
        text.push_str(&columns(&rows));
        text.push_str("Collision vectors (latency 0 first; 1 = forbidden):\n");
        let mut cv = serde_json::Map::new();
        for c in m.class_ids() {
            let v = hazard::collision_vector(&m, r, c);
            text.push_str(&format!("  {}: {}\n", m.class(c).name, v));
            cv.insert(m.class(c).name.clone(), json!(v));
        }
        j.insert(
            "solution".into(),
            json!({"forbidden": sol, "collision_vectors": cv}),
        );
    }
    Rendered {
        text,
        json: Value::Object(j),
    }
}

/// Parses `{0, 1,2}`, `0 1 2`, `{}`, `∅` into a sorted set.
pub fn parse_set(s: &str) -> Result<Vec<u32>, String> {
    let inner = s
        .trim()
        .trim_start_matches(['{', '[', '('])
        .trim_end_matches(['}', ']', ')']);
    if inner.trim().is_empty() || inner.trim() == "∅" {
        return Ok(Vec::new());
    }
    let mut v = Vec::new();
    for part in inner.split([',', ' ', '\t']).filter(|p| !p.is_empty()) {
        v.push(
            part.parse::<u32>()
                .map_err(|_| format!("'{part}' is not a latency"))?,
        );
    }
    v.sort_unstable();
    v.dedup();
    Ok(v)
}

fn check_forbidden(seed: u64, answer: &str) -> Checked {
    let m = forbidden_machine(seed);
    let mut given: BTreeMap<String, (String, u32)> = BTreeMap::new();
    let mut errors = Vec::new();
    for (i, line) in answer.trim_start_matches('\u{feff}').lines().enumerate() {
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        match body.split_once('=') {
            Some((k, v)) => {
                let key: String = k.chars().filter(|c| !c.is_whitespace()).collect();
                given.insert(key, (v.trim().to_string(), i as u32 + 1));
            }
            None => errors.push(format!("line {}: expected 'F(A,B) = {{…}}'", i + 1)),
        }
    }
    let mut lines = Vec::new();
    let mut mistakes = Vec::new();
    for e in errors {
        lines.push(format!("✗ {e}"));
        mistakes.push(json!({"kind": "format", "message": e}));
    }
    for (key, want) in forbidden_answers(&m) {
        match given.get(&key) {
            None => {
                let msg = format!("{key}: missing");
                lines.push(format!("✗ {msg}"));
                mistakes.push(json!({"kind": "missing", "message": msg}));
            }
            Some((v, line)) => match parse_set(v) {
                Ok(got) if got == want => lines.push(format!("✓ {key} = {}", set_string(&got))),
                Ok(got) => {
                    let msg = format!(
                        "{key}: you said {}, it is {}",
                        set_string(&got),
                        set_string(&want)
                    );
                    lines.push(format!("✗ {msg}"));
                    mistakes.push(json!({"kind": "wrong", "message": msg}));
                }
                Err(e) => {
                    let msg = format!("line {line}: {key}: {e}");
                    lines.push(format!("✗ {msg}"));
                    mistakes.push(json!({"kind": "format", "message": msg}));
                }
            },
        }
    }
    let correct = mistakes.is_empty();
    Checked {
        correct,
        text: format!("Drill forbidden · seed {seed}\n\n{}\n", lines.join("\n")),
        json: json!({"drill": "forbidden", "seed": seed, "correct": correct, "mistakes": mistakes}),
    }
}

// ------------------------------------------------------------------- hazard

/// A random sequence of multiply/divide issue attempts and advances.
fn hazard_events(
    m: &Machine,
    seed: u64,
) -> Result<(Vec<Event>, crate::model::ids::ResourceId), DrillError> {
    let mul = m.class_by_opcode("mul").ok_or_else(|| {
        DrillError::Machine(
            "the hazard drill needs a machine with 'mul' and 'div' on one unit".into(),
        )
    })?;
    let div = m.class_by_opcode("div").ok_or_else(|| {
        DrillError::Machine(
            "the hazard drill needs a machine with 'mul' and 'div' on one unit".into(),
        )
    })?;
    let unit = m
        .class(div)
        .reservation
        .iter()
        .find(|(r, _)| r.index() != 0)
        .map(|&(r, _)| r)
        .ok_or_else(|| DrillError::Machine("div uses no unit".into()))?;
    let mut rng = Rng::derived(seed, "hazard/events");
    let mut events = vec![Event::Issue(div)];
    let n = rng.range(5, 7);
    for _ in 0..n {
        let adv = rng.range(0, 2);
        for _ in 0..adv {
            events.push(Event::Advance);
        }
        events.push(Event::Issue(if rng.percent(30) { div } else { mul }));
    }
    Ok((events, unit))
}

fn event_lines(m: &Machine, events: &[Event]) -> String {
    let mut cycle = 0;
    let mut s = String::new();
    for e in events {
        match e {
            Event::Advance => cycle += 1,
            Event::Issue(c) => {
                s.push_str(&format!("  cycle {cycle}: Issue({})\n", m.class(*c).name))
            }
        }
    }
    s
}

fn hazard_drill(m: &Machine, seed: u64, solution: bool) -> Result<Rendered, DrillError> {
    let (events, unit) = hazard_events(m, seed)?;
    let mut text = header("hazard", seed, m);
    text.push_str(&format!(
        "Run the hazard recognizer of Algorithm 23.1.7 on the {} unit. Starting from an\n\
         empty state at cycle 0, these issue attempts happen (Advance between cycles):\n",
        m.resource(unit).name
    ));
    text.push_str(&event_lines(m, &events));
    let ks: Vec<String> = m
        .class_ids()
        .filter(|&c| m.class(c).usage(unit) > 0)
        .map(|c| {
            format!(
                "K({}) = {}",
                m.class(c).name,
                set_string(&m.class(c).offsets(unit).collect::<Vec<_>>())
            )
        })
        .collect();
    text.push_str(&format!("\n{}\n", ks.join(", ")));
    text.push_str(&format!(
        "For each issue give 'accept' or 'reject' and s[{}] after it, one line each\n(e.g. 'accept {{0,1,2}}'), then:\n  course drill hazard --seed {seed} --check FILE\n",
        m.resource(unit).name
    ));
    let mut j = base_json("hazard", seed, m);
    j.insert(
        "events".into(),
        json!(event_lines(m, &events)
            .lines()
            .map(str::trim)
            .collect::<Vec<_>>()),
    );
    if solution {
        let rows = hazard::trace(m, unit, 0, &events);
        let mut t = vec![vec![
            "  event".to_string(),
            format!("s[{}] before", m.resource(unit).name),
            "action".into(),
            "after".into(),
        ]];
        let mut sol = Vec::new();
        for r in &rows {
            let action = match r.accepted {
                Some(true) => "accept".to_string(),
                Some(false) => "reject".to_string(),
                None => "shift".to_string(),
            };
            let ev = if r.accepted.is_some() {
                format!("  cycle {}: {}", r.cycle, r.event)
            } else {
                format!("  {}", r.event)
            };
            t.push(vec![
                ev,
                set_string(&r.before),
                action.clone(),
                set_string(&r.after),
            ]);
            if r.accepted.is_some() {
                sol.push(json!({"cycle": r.cycle, "event": r.event, "accepted": r.accepted, "after": r.after}));
            }
        }
        text.push_str("\nSolution\n\n");
        text.push_str(&columns(&t));
        j.insert("solution".into(), Value::Array(sol));
    }
    Ok(Rendered {
        text,
        json: Value::Object(j),
    })
}

fn check_hazard(m: &Machine, seed: u64, answer: &str) -> Result<Checked, DrillError> {
    let (events, unit) = hazard_events(m, seed)?;
    let rows: Vec<_> = hazard::trace(m, unit, 0, &events)
        .into_iter()
        .filter(|r| r.accepted.is_some())
        .collect();
    let given: Vec<(u32, String)> = answer
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| {
            (
                i as u32 + 1,
                l.split('#').next().unwrap_or("").trim().to_string(),
            )
        })
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let mut lines = Vec::new();
    let mut mistakes = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let want_word = if r.accepted == Some(true) {
            "accept"
        } else {
            "reject"
        };
        let what = format!("cycle {}: {}", r.cycle, r.event);
        let Some((ln, g)) = given.get(i) else {
            let msg = format!("{what}: missing");
            lines.push(format!("✗ {msg}"));
            mistakes.push(json!({"kind": "missing", "message": msg}));
            continue;
        };
        let (word, set) = g
            .split_once(char::is_whitespace)
            .unwrap_or((g.as_str(), ""));
        let word = word.to_ascii_lowercase();
        let set = parse_set(set);
        match (word.as_str(), set) {
            ("accept" | "reject", Ok(s)) => {
                if word == want_word && s == r.after {
                    lines.push(format!("✓ {what}: {want_word} {}", set_string(&s)));
                } else {
                    let why = if word != want_word {
                        if r.accepted == Some(true) {
                            format!(
                                "K ∩ s = ∅ with s = {}, so it is accepted",
                                set_string(&r.before)
                            )
                        } else {
                            format!(
                                "s = {} already holds an offset it needs, so it is rejected",
                                set_string(&r.before)
                            )
                        }
                    } else {
                        format!("the state after is {}", set_string(&r.after))
                    };
                    let msg = format!("{what}: you said {word} {}; {why}", set_string(&s));
                    lines.push(format!("✗ {msg}"));
                    mistakes.push(json!({"kind": "wrong", "message": msg}));
                }
            }
            _ => {
                let msg = format!("line {ln}: expected 'accept {{…}}' or 'reject {{…}}'");
                lines.push(format!("✗ {msg}"));
                mistakes.push(json!({"kind": "format", "message": msg}));
            }
        }
    }
    if given.len() > rows.len() {
        let msg = format!(
            "{} more line(s) than issue events",
            given.len() - rows.len()
        );
        lines.push(format!("✗ {msg}"));
        mistakes.push(json!({"kind": "format", "message": msg}));
    }
    let correct = mistakes.is_empty();
    Ok(Checked {
        correct,
        text: format!("{}{}\n", header("hazard", seed, m), lines.join("\n")),
        json: json!({"drill": "hazard", "seed": seed, "correct": correct, "mistakes": mistakes}),
    })
}

// -------------------------------------------------------------- rthroughput

fn rthr_loop(m: &Machine, params: &GenParams, seed: u64) -> Program {
    // Its own stream: the rthroughput body differs from the mii drill's.
    let sub_seed = Rng::derived(seed, "rthroughput/body").next_u64();
    gen::program(m, params, sub_seed, None, Kind::Loop).1
}

fn rthroughput(m: &Machine, params: &GenParams, seed: u64, solution: bool) -> Rendered {
    let p = rthr_loop(m, params, seed);
    let mut text = header("rthroughput", seed, m);
    text.push_str(
        "What Block RThroughput does llvm-mca print for this loop body (Def 23.1.10)?\n\n",
    );
    text.push_str(&p.to_text());
    text.push('\n');
    text.push_str(&machine_summary(m));
    text.push_str(&format!(
        "\nAnswer with one number (5/2 or 2.5), then:\n  course drill rthroughput --seed {seed} --check FILE\n"
    ));
    let mut j = base_json("rthroughput", seed, m);
    j.insert("ops".into(), report::ops_json(&p, m));
    if solution {
        let b = mii::analyze(&p, m);
        text.push_str("\nSolution\n\n");
        text.push_str(&report::usage_text(m, &b));
        text.push_str(&format!(
            "RThroughput = max over resources of U/cap (issue: μ/W) = {} → Block RThroughput: {}\n",
            b.rthroughput.fraction_string(),
            b.rthroughput.decimal1()
        ));
        j.insert(
            "solution".into(),
            json!({"rthroughput": b.rthroughput.fraction_string()}),
        );
    }
    Rendered {
        text,
        json: Value::Object(j),
    }
}

/// Parses `5/2`, `2.5`, `3` into a fraction (decimals to at most 6 places).
pub fn parse_number(s: &str) -> Option<Ratio> {
    let s = s.trim();
    if let Some((a, b)) = s.split_once('/') {
        let (a, b) = (a.trim().parse::<u64>().ok()?, b.trim().parse::<u64>().ok()?);
        return (b > 0).then(|| Ratio::new(a, b));
    }
    if let Some((int, frac)) = s.split_once('.') {
        if frac.len() > 6 || !frac.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let i = if int.is_empty() {
            0
        } else {
            int.parse::<u64>().ok()?
        };
        let f = if frac.is_empty() {
            0
        } else {
            frac.parse::<u64>().ok()?
        };
        let den = 10u64.pow(frac.len() as u32);
        return Some(Ratio::new(i.checked_mul(den)?.checked_add(f)?, den));
    }
    s.parse::<u64>().ok().map(Ratio::int)
}

fn check_rthroughput(m: &Machine, params: &GenParams, seed: u64, answer: &str) -> Checked {
    let p = rthr_loop(m, params, seed);
    let b = mii::analyze(&p, m);
    let body: String = normalize_answer(answer).trim().to_string();
    let (correct, msg, kind) = match parse_number(&body) {
        None => (
            false,
            format!(
                "'{}' is not a number (write 5/2 or 2.5)",
                body.chars().take(40).collect::<String>()
            ),
            "format",
        ),
        Some(r) => {
            // llvm-mca prints one decimal: accept the exact value or its rounding.
            // llvm-mca prints one decimal: accept the exact value or that rounding.
            let ok = r == b.rthroughput
                || (body.contains('.') && parse_number(&b.rthroughput.decimal1()) == Some(r));
            if ok {
                (
                    true,
                    format!("✓ RThroughput = {}", b.rthroughput.fraction_string()),
                    "",
                )
            } else {
                let bott = m.resource(b.res_bottleneck);
                (
                    false,
                    format!(
                        "you said {}; {} has U = {} on capacity {}, so RThroughput = {} ({})",
                        r.fraction_string(),
                        bott.name,
                        b.usage[b.res_bottleneck.index()],
                        bott.capacity,
                        b.rthroughput.fraction_string(),
                        b.rthroughput.decimal1()
                    ),
                    "wrong",
                )
            }
        }
    };
    let line = if correct {
        msg.clone()
    } else {
        format!("✗ {msg}")
    };
    let mistakes: Vec<Value> = if correct {
        vec![]
    } else {
        vec![json!({"kind": kind, "message": msg})]
    };
    Checked {
        correct,
        text: format!("{}{line}\n", header("rthroughput", seed, m)),
        json: json!({"drill": "rthroughput", "seed": seed, "correct": correct, "mistakes": mistakes}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solutions_check_as_correct() {
        let m = Machine::toy();
        for seed in 0..40 {
            let j = run("list-schedule", &m, None, seed, true).unwrap().json;
            let sched = j["solution"]["schedule"].as_object().unwrap();
            let answer: String = sched.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
            assert!(
                check_answer("list-schedule", &m, None, seed, &answer)
                    .unwrap()
                    .correct
            );

            let s = &run("mii", &m, None, seed, true).unwrap().json["solution"];
            let answer = format!(
                "res_mii {}\nrec_mii: {}\nMII = {}\n",
                s["res_mii"], s["rec_mii"], s["mii"]
            );
            assert!(
                check_answer("mii", &m, None, seed, &answer)
                    .unwrap()
                    .correct,
                "{answer}"
            );

            let s = &run("modulo", &m, None, seed, true).unwrap().json["solution"];
            let answer: String = std::iter::once(format!("ii {}\n", s["ii"]))
                .chain(
                    s["schedule"]
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| format!("{k} {v}\n")),
                )
                .collect();
            assert!(
                check_answer("modulo", &m, None, seed, &answer)
                    .unwrap()
                    .correct,
                "{answer}"
            );

            let s = &run("forbidden", &m, None, seed, true).unwrap().json["solution"]["forbidden"];
            let answer: String = s
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| format!("{k} = {v}\n"))
                .collect();
            assert!(
                check_answer("forbidden", &m, None, seed, &answer)
                    .unwrap()
                    .correct,
                "{answer}"
            );

            let s = &run("hazard", &m, None, seed, true).unwrap().json["solution"];
            let answer: String = s
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    format!(
                        "{} {}\n",
                        if r["accepted"] == true {
                            "accept"
                        } else {
                            "reject"
                        },
                        r["after"]
                    )
                })
                .collect();
            assert!(
                check_answer("hazard", &m, None, seed, &answer)
                    .unwrap()
                    .correct,
                "{answer}"
            );

            let s =
                &run("rthroughput", &m, None, seed, true).unwrap().json["solution"]["rthroughput"];
            assert!(
                check_answer("rthroughput", &m, None, seed, s.as_str().unwrap())
                    .unwrap()
                    .correct
            );
        }
    }

    #[test]
    fn wrong_answers_explain() {
        let m = Machine::toy();
        let c = check_answer("mii", &m, None, 2, "res_mii 1\nrec_mii x\n").unwrap();
        assert!(!c.correct);
        assert!(c.text.contains("res_mii: you said 1"));
        assert!(c.text.contains("is not a whole number"));
        assert!(c.text.contains("mii: missing"));
        let c = check_answer("list-schedule", &m, None, 4, "").unwrap();
        assert!(!c.correct && c.text.contains("no cycle for"));
        assert!(check_answer("rthroughput", &m, None, 4, "abc")
            .unwrap()
            .text
            .contains("not a number"));
    }

    #[test]
    fn sets_and_numbers_parse() {
        assert_eq!(parse_set("{0, 1,2}").unwrap(), vec![0, 1, 2]);
        assert_eq!(parse_set("∅").unwrap(), Vec::<u32>::new());
        assert_eq!(parse_set("[2 0]").unwrap(), vec![0, 2]);
        assert!(parse_set("{a}").is_err());
        assert_eq!(parse_number("5/2"), Some(Ratio::new(5, 2)));
        assert_eq!(parse_number("2.5"), Some(Ratio::new(5, 2)));
        assert_eq!(parse_number("3"), Some(Ratio::int(3)));
        assert_eq!(parse_number("x"), None);
    }
}
