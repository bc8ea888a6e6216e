//! The drills as text: the listing, each problem (with its solution) and
//! each check report, rendered from the typed values of
//! [`course_content::drill`]. JSON is those values serialised; nothing here
//! builds it.

use std::collections::BTreeMap;

use course_content::drill::{
    DrillEntry, Mistake, Problem, ProblemLine, ProgramProblem, Report, Verdict, machine_flag,
};
use course_content::text::columns;
use course_engine::model::machine::Machine;
use course_engine::model::program::Program;
use course_engine::util::rng::GENERATOR_VERSION;

/// The dependence rules of a loop, as the mii and modulo prompts state
/// them (the checker builds exactly these edges, `model::program::deps`).
macro_rules! loop_dependences {
    () => {
        "  Dependences (labs/ch23-sched/SPEC.md §2): a register read depends on the
    operation that defines the register, ℓ = lat(producer); a read at or
    before the definition reads the previous iteration (d = 1), r@k reads k
    iterations back (d = k).
  Memory order in an iteration: two memory operations, at least one a
    store, may alias when they name the same symbol or either address has a
    register; they keep source order (d = 0), ℓ = lat(store) from a store
    and ℓ = 0 from a load to a store.
  Memory order across iterations: two such operations on the same plain
    symbol (no register) also order the later one, or the operation itself,
    of iteration k before the earlier one of iteration k + 1 (d = 1, the
    same ℓ).
"
    };
}
pub(crate) use loop_dependences;

mod automaton;
mod forbidden;
mod hazard;
mod list_schedule;
mod mii;
mod modulo;
mod rthroughput;

/// `course drill list`.
pub fn list_text(drills: &[DrillEntry]) -> String {
    let rows: Vec<Vec<String>> = drills
        .iter()
        .map(|d| vec![format!("  {}", d.name), d.summary.to_string()])
        .collect();
    // Summaries continue under themselves, within 80 columns.
    let hang = " ".repeat(4 + drills.iter().map(|d| d.name.len()).max().unwrap_or(0));
    let mut out =
        String::from("Drills (course drill NAME [--seed N] [--solution] [--check FILE|-]):\n");
    for line in columns(&rows).lines() {
        out.push_str(&course_content::text::wrap_line(line, &hang, 80));
        out.push('\n');
    }
    out
}

/// A problem, and its solution when it has one.
pub fn problem_text(p: &Problem) -> String {
    match p {
        Problem::ListSchedule(p) => list_schedule::problem(p),
        Problem::Mii(p) => mii::problem(p),
        Problem::Modulo(p) => modulo::problem(p),
        Problem::Forbidden(p) => forbidden::problem(p),
        Problem::Hazard(p) => hazard::problem(p),
        Problem::Automaton(p) => automaton::problem(p),
        Problem::Rthroughput(p) => rthroughput::problem(p),
    }
}

/// The hints shown with a problem or report, `Hint 1: …` wrapped to 80
/// columns; with `used`, a last line `hints used: N`. Empty without hints
/// (unless `used`).
pub fn hints_text(hints: &[String], used: bool) -> String {
    let mut out = String::new();
    if !hints.is_empty() {
        out.push('\n');
    }
    for (i, h) in hints.iter().enumerate() {
        let line = format!("Hint {}: {h}", i + 1);
        out.push_str(&course_content::text::wrap_line(&line, "  ", 80));
        out.push('\n');
    }
    if used {
        out.push_str(&format!("hints used: {}\n", hints.len()));
    }
    out
}

/// A check report: ✓ for what is right, ✗ and the reason for each mistake.
pub fn report_text(r: &Report) -> String {
    match r {
        Report::ListSchedule(r) => list_schedule::report(r),
        Report::Mii(r) => mii::report(r),
        Report::Modulo(r) => modulo::report(r),
        Report::Forbidden(r) => forbidden::report(r),
        Report::Hazard(r) => hazard::report(r),
        Report::Automaton(r) => automaton::report(r),
        Report::Rthroughput(r) => rthroughput::report(r),
    }
}

/// `Drill NAME · seed N · generator vN · machine M` and a blank line.
fn header(name: &str, seed: u64, machine: &str) -> String {
    format!("Drill {name} · seed {seed} · generator v{GENERATOR_VERSION} · machine {machine}\n\n")
}

/// `  K(A)  {0,2}` rows: the offsets at which each class of `m` uses `r`.
fn offsets_table(m: &Machine, r: course_engine::model::ids::ResourceId) -> String {
    let rows: Vec<Vec<String>> = m
        .class_ids()
        .map(|c| {
            let ks: Vec<u32> = m.class(c).offsets(r).collect();
            vec![
                format!("  K({})", m.class(c).name),
                course_engine::engine::hazard::set_string(&ks),
            ]
        })
        .collect();
    columns(&rows)
}

/// The top of a problem: its [`ProblemLine`] (which the student keeps in
/// the answer file), then the drill's header and a blank line.
fn problem_header(line: &ProblemLine) -> String {
    let name = line.drill.name();
    match &line.machine {
        Some(m) => format!("{line}\n{}", header(name, line.seed, m)),
        None => format!(
            "{line}\nDrill {name} · seed {} · generator v{GENERATOR_VERSION}\n\n",
            line.seed
        ),
    }
}

/// How to answer: `syntax` (the rest of the sentence after "Answer with",
/// with its line breaks), keeping the first line, and the command that
/// checks.
fn answer_text(line: &ProblemLine, syntax: &str) -> String {
    let machine = machine_arg(line.machine.as_deref());
    format!(
        "Answer with {syntax}\n\
         Keep the first line above at the top of your answer file, and check it with:\n\
         \x20 course drill {}{machine} --check ANSWER\n",
        line.drill.name()
    )
}

/// ` --machine NAME` for a problem on another machine than the default
/// toy one (the check must run on the same machine), else nothing.
fn machine_arg(machine: Option<&str>) -> String {
    match machine {
        Some(m) if m != "toy" => format!(" {}", machine_flag(m)),
        _ => String::new(),
    }
}

/// A problem on a generated input: the header, the task and the rules it
/// is graded by, the input, the machine, and how to answer.
fn statement(line: &ProblemLine, m: &Machine, p: &Program, task: &str, syntax: &str) -> String {
    let mut text = problem_header(line);
    text.push_str(task);
    text.push_str(&machine_rules(m));
    text.push('\n');
    text.push_str(&p.to_text());
    text.push('\n');
    text.push_str(&machine_summary(m));
    text.push('\n');
    text.push_str(&answer_text(line, syntax));
    text
}

/// The rules of `m` the checker applies beyond the toy machine's, as
/// prompt lines (empty for a machine without them): zero idioms, folded
/// loads (variant classes, Lesson 23.1 §6) and port groups (Definition
/// 23.1.8).
pub fn machine_rules(m: &Machine) -> String {
    let mut rules: Vec<String> = Vec::new();
    let zero: Vec<&course_engine::model::machine::Class> =
        m.classes().iter().filter(|c| c.zero_idiom).collect();
    if !zero.is_empty() {
        let ops: Vec<&str> = zero
            .iter()
            .flat_map(|c| c.opcodes.iter().map(String::as_str))
            .collect();
        let lat: Vec<String> = zero.iter().map(|c| c.latency.to_string()).collect();
        let mut lat = lat;
        lat.dedup();
        rules.push(format!(
            "Zero idioms: {} with the same register as both operands (xorl r1, r1) \
             reads neither, so it depends on nothing; it takes its -zero class, of \
             latency {}.",
            ops.join(", "),
            lat.join(" or ")
        ));
    }
    if m.classes().iter().any(|c| c.memory) {
        rules.push(
            "Folded loads: an operation with a memory operand and a destination takes \
             the memory form of its opcode (the other class that lists the same opcode), \
             not the register form."
                .into(),
        );
    }
    if let Some(g) = m.resource_ids().find(|&r| m.resource(r).is_group()) {
        rules.push(format!(
            "Port groups: U of a group of ports (such as {}) counts the micro-ops that \
             name the group; a micro-op on one port counts against that port only, not \
             against the groups that contain it.",
            m.resource(g).name
        ));
    }
    rules
        .iter()
        .map(|r| course_content::text::wrap_line(&format!("  {r}"), "    ", 80) + "\n")
        .collect()
}

/// [`statement`] for a list-schedule, mii or modulo problem.
fn program_problem<S>(p: &ProgramProblem<S>, task: &str, syntax: &str) -> String {
    statement(&p.line(), &p.model, &p.program, task, syntax)
}

/// `✗ message`, broken at spaces to 80 columns with its continuations
/// under the message.
fn wrong(m: &Mistake) -> String {
    let mut out = course_content::text::wrap_line(&format!("✗ {}", m.message), "  ", 80);
    for c in &m.consequences {
        out.push('\n');
        // A second rule the same step breaks reads "also: …" on its own.
        let line = if c.starts_with("also: ") {
            format!("  {c}")
        } else {
            format!("  consequence: {c}")
        };
        out.push_str(&course_content::text::wrap_line(&line, "    ", 80));
    }
    out
}

/// One line per verdict: `right` renders what was right, a mistake is
/// `✗ message`.
fn verdict_lines<R>(verdicts: &[Verdict<R>], right: impl Fn(&R) -> String) -> String {
    let lines: Vec<String> = verdicts
        .iter()
        .map(|v| match v {
            Verdict::Right(r) => right(r),
            Verdict::Wrong(m) => wrong(m),
        })
        .collect();
    lines.join("\n")
}

/// Each line indented by two spaces.
fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}\n")).collect()
}

/// A compact description of the machine for problem statements: each
/// class's latency, the units it holds at which offsets, its opcodes.
pub fn machine_summary(m: &Machine) -> String {
    let res: Vec<String> = m
        .resources()
        .iter()
        .map(|r| format!("{} {}", r.name, r.capacity))
        .collect();
    let mut rows = Vec::new();
    for c in m.classes() {
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
        m.name(),
        res.join(" · "),
        columns(&rows)
    )
}
