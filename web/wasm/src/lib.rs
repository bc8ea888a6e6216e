//! The `course` engine for the web page: one function, [`call`], takes a
//! JSON request and returns a JSON response, and on `wasm32` three C-ABI
//! exports (`course_alloc`, `course_free`, `course_call`) carry those
//! strings across the WebAssembly boundary.
//!
//! Every command goes through [`course::api`] and renders with
//! [`course::view`], so the page shows the values and the text the CLI
//! prints. The `json` field of a response is the CLI's `--format json`
//! output byte for byte (without the final newline); `text` is its text
//! output. Nothing here reaches the file system or the clock: course data
//! is the embedded copy, dates and seeds come from the page.
//!
//! A request is `{"cmd": NAME, …}`; a response is `{"ok": true, …}` or
//! `{"ok": false, "error": MESSAGE}`. The commands:
//!
//! | cmd | does what the CLI does for |
//! |---|---|
//! | `info` | `course drill list`, the built-in machines, lab inputs and kernels |
//! | `file` | reads an embedded course file (a lab input, a machine) |
//! | `drill` | `course drill NAME --seed N [--solution] [--check FILE]` |
//! | `place` | one step of the list-schedule table: each placement judged |
//! | `grade` | `course grade INPUT SUBMISSION`, with both reservation tables |
//! | `mca` | `course mca INPUT [--timeline] [--resource-pressure] …` |
//! | `quiz_start`, `quiz_reply`, `quiz_end` | `course quiz 23` |
//! | `flash_open`, `flash_reveal`, `flash_rate`, `flash_import` | `course flash 23`, the state kept by the page |
//! | `progress` | `course progress` and `course practice` over the page's review log |
//! | `progress_import`, `progress_export` | a review log file in and out of the page (`--review-log`) |
//!
//! A `drill` check, a `quiz_reply` that is graded and a `flash_rate` that
//! rates take an optional `"stamp": {"who", "day", "time"}` (the page's
//! clock); with it the response has `review_line`, the line the native
//! review log would get, which the page appends to its own log.

use std::cell::RefCell;

use serde::Deserialize;
use serde_json::{json, Map, Value};

use course::api;
use course::api::drill::{Answer, DrillOutput, DrillRequest};
use course::api::flash::{KeptState, Rated, Review};
use course::api::quiz::{Reply, Selection, Session};
use course::content::data::{self, Source};
use course::content::drill::Drill;
use course::content::flash::{read_state, state_text, Date, StateRead};
use course::model::machine::Machine;
use course::view;

/// The chapter the page teaches.
const CHAPTER: u32 = 23;

/// How the page names the flashcard state it keeps.
const KEPT_IN: &str = "this browser's local storage";

/// The lab inputs the page offers, by path in the course data.
const LAB_INPUTS: [&str; 8] = [
    "labs/ch23-sched/inputs/running.txt",
    "labs/ch23-sched/inputs/divide.txt",
    "labs/ch23-sched/inputs/alias.txt",
    "labs/ch23-sched/inputs/wide.txt",
    "labs/ch23-sched/inputs/dot.txt",
    "labs/ch23-sched/inputs/stream.txt",
    "labs/ch23-sched/inputs/fib.txt",
    "labs/ch23-sched/inputs/chase.txt",
];

/// The llvm-mca kernels, with the machine each was written for: the
/// lesson's assembly, then the same kernels in the lab format.
const KERNELS: [(&str, &str); 8] = [
    ("labs/ch23-sched/inputs/mca/div.s", "skylake"),
    ("labs/ch23-sched/inputs/mca/model.s", "skylake"),
    ("labs/ch23-sched/inputs/mca/dot-x86.s", "skylake"),
    ("labs/ch23-sched/inputs/mca/dot-a64.s", "neoverse-v2"),
    ("labs/ch23-sched/inputs/mca/div.txt", "skylake"),
    ("labs/ch23-sched/inputs/mca/model.txt", "skylake"),
    ("labs/ch23-sched/inputs/mca/dot-x86.txt", "skylake"),
    ("labs/ch23-sched/inputs/mca/dot-a64.txt", "neoverse-v2"),
];

thread_local! {
    static QUIZ: RefCell<Option<Session>> = const { RefCell::new(None) };
    static FLASH: RefCell<Option<Review>> = const { RefCell::new(None) };
}

/// Answers one JSON request with one JSON response (never fails: a bad
/// request is an error response).
pub fn call(request: &str) -> String {
    let out = match serde_json::from_str::<Value>(request) {
        Ok(req) => dispatch(&req),
        Err(e) => Err(format!("not a JSON request: {e}")),
    };
    let v = match out {
        Ok(Value::Object(mut m)) => {
            m.insert("ok".into(), Value::Bool(true));
            Value::Object(m)
        }
        Ok(other) => json!({ "ok": true, "value": other }),
        Err(error) => json!({ "ok": false, "error": error }),
    };
    v.to_string()
}

type Out = Result<Value, String>;

fn dispatch(req: &Value) -> Out {
    let cmd = req.get("cmd").and_then(Value::as_str).unwrap_or("");
    match cmd {
        "info" => Ok(info()),
        "file" => file(&args(req)?),
        "drill" => drill(&args(req)?),
        "place" => place(&args(req)?),
        "grade" => grade(&args(req)?),
        "mca" => mca(&args(req)?),
        "quiz_start" => quiz_start(&args(req)?),
        "quiz_reply" => quiz_reply(&args(req)?),
        "quiz_end" => quiz_end(),
        "flash_open" => flash_open(&args(req)?),
        "flash_reveal" => flash_reveal(&args(req)?),
        "flash_rate" => flash_rate(&args(req)?),
        "flash_import" => flash_import(&args(req)?),
        "bench_exact" => bench_exact(&args(req)?),
        "progress" => progress(&args(req)?),
        "progress_import" => progress_import(&args(req)?),
        "progress_export" => progress_export(&args(req)?),
        _ => Err(format!("unknown command `{cmd}`")),
    }
}

/// `{"cmd":"bench_exact","ops":N,"seed":S}`: the reference of `course gen
/// loop --ops N --seed S` on the toy machine, for `course bench --only
/// exact` (which times the call from node).
#[derive(Deserialize)]
struct BenchExact {
    ops: u64,
    seed: u64,
}

fn bench_exact(a: &BenchExact) -> Out {
    if a.ops == 0 || a.ops > 1000 {
        return Err("ops: between 1 and 1000".into());
    }
    let (proven, gap) = course::bench::exact_one(&Machine::toy(), a.ops, a.seed);
    Ok(json!({ "proven": proven, "above_mii": gap }))
}

/// The request's fields as `T`.
fn args<T: for<'de> Deserialize<'de>>(req: &Value) -> Result<T, String> {
    T::deserialize(req).map_err(|e| format!("bad request: {e}"))
}

/// What the CLI prints for `--format json`, without the final newline.
fn pretty<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// An object from `(key, value)` pairs.
fn object<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert(k.to_string(), v);
    }
    Value::Object(m)
}

/// A built-in machine by name (`toy` when none is given), or a machine
/// file's text.
fn machine(name: Option<&str>, yaml: Option<&str>) -> Result<Machine, String> {
    if let Some(text) = yaml {
        return Machine::from_yaml(text, "machine.yaml").map_err(|e| e.to_string());
    }
    match name {
        None | Some("toy") => Ok(Machine::toy()),
        Some(n) => {
            if let Some(m) = course::content::family::machine(n) {
                return m;
            }
            match data::builtin_machine(n) {
                Some(text) => {
                    Machine::from_yaml(text, &format!("{n}.yaml")).map_err(|e| e.to_string())
                }
                None => Err(format!(
                    "{n}: not a built-in machine (built in: {}; or pathological:D)",
                    data::builtin_machine_names().join(", ")
                )),
            }
        }
    }
}

fn info() -> Value {
    let drills: Vec<Value> = api::drill::list()
        .iter()
        .map(|d| json!({ "name": d.name, "summary": d.summary }))
        .collect();
    let kernels: Vec<Value> = KERNELS
        .iter()
        .map(|(path, m)| json!({ "path": path, "machine": m }))
        .collect();
    json!({
        "drills": drills,
        "drill_list_text": view::drill::list_text(&api::drill::list()),
        "machines": data::builtin_machine_names(),
        "lab_inputs": LAB_INPUTS,
        "kernels": kernels,
        "max_import_bytes": MAX_IMPORT_BYTES,
    })
}

#[derive(Deserialize)]
struct FileReq {
    path: String,
}

fn file(a: &FileReq) -> Out {
    let text = Source::Embedded.read(&a.path)?;
    Ok(json!({ "text": text }))
}

#[derive(Deserialize)]
struct DrillReq {
    drill: String,
    seed: u64,
    #[serde(default)]
    solution: bool,
    #[serde(default)]
    check: Option<CheckReq>,
    #[serde(default)]
    machine: Option<String>,
    /// Leave out the text (the comparison with the CLI needs only JSON).
    #[serde(default)]
    json_only: bool,
    /// Hints asked for (`course drill … --hint` N times); 0 for none.
    #[serde(default)]
    hints: usize,
    /// Who checks and when, for the review log.
    #[serde(default)]
    stamp: Option<Stamp>,
}

/// Who reviews and when (the page's clock), for a review-log line.
#[derive(Deserialize, Clone)]
struct Stamp {
    #[serde(default)]
    who: String,
    day: String,
    time: i64,
}

impl Stamp {
    fn day(&self) -> Result<Date, String> {
        Date::parse(&self.day)
            .ok_or_else(|| format!("stamp: `{}` is not a day YYYY-MM-DD", self.day))
    }
}

/// `{"cmd":"progress","log":TEXT,"today":"YYYY-MM-DD","who":NAME?}`: the
/// figures of `course progress` and the pick of `course practice` on the
/// page's review log, as JSON and text, and the log's bad lines.
#[derive(Deserialize)]
struct ProgressReq {
    #[serde(default)]
    log: String,
    today: String,
    #[serde(default)]
    who: Option<String>,
}

fn progress(a: &ProgressReq) -> Out {
    use course::content::progress as p;
    let today = Date::parse(&a.today).ok_or_else(|| format!("`{}` is not a day", a.today))?;
    let (reviews, warnings) = api::progress::reviews_of_text(&a.log, "review log");
    let who = a.who.as_deref().filter(|w| !w.is_empty());
    let prog = p::progress(&reviews, who, today);
    let prac = p::practice(&reviews, who, today);
    Ok(object([
        (
            "progress",
            serde_json::to_value(&prog).map_err(|e| e.to_string())?,
        ),
        ("progress_text", view::progress::progress_text(&prog).into()),
        (
            "practice",
            serde_json::to_value(&prac).map_err(|e| e.to_string())?,
        ),
        ("practice_text", view::progress::practice_text(&prac).into()),
        ("warnings", warnings.into()),
    ]))
}

/// The most bytes of review log the page imports at once: a browser keeps
/// a few MiB per page, and a larger log is read by `course progress`.
const MAX_IMPORT_BYTES: usize = 2 << 20;

/// `{"cmd":"progress_import","name":NAME,"text":TEXT}`: the records of an
/// imported review log, one line each as `course` writes them (its bad
/// lines are reported and left out), and how many there are.
#[derive(Deserialize)]
struct ProgressImportReq {
    name: String,
    #[serde(default)]
    text: String,
    /// The file's size, when the page asks before reading it.
    #[serde(default)]
    size: usize,
}

fn progress_import(a: &ProgressImportReq) -> Out {
    if a.text.len().max(a.size) > MAX_IMPORT_BYTES {
        return Err(format!(
            "{}: larger than {} MiB, more than the page keeps; read it with course progress --review-log {}",
            a.name,
            MAX_IMPORT_BYTES >> 20,
            a.name
        ));
    }
    let read = course::content::review_log::read_log(a.text.as_bytes(), &a.name);
    let lines: String = read.reviews.iter().map(|r| r.line()).collect();
    let warnings: Vec<String> = read.bad.iter().map(ToString::to_string).collect();
    Ok(json!({ "lines": lines, "count": read.reviews.len(), "warnings": warnings }))
}

#[derive(Deserialize)]
struct ExportReq {
    #[serde(default)]
    log: String,
}

/// `{"cmd":"progress_export","log":TEXT}`: the page's review log as a file
/// `course progress --review-log` reads, its header first.
fn progress_export(a: &ExportReq) -> Out {
    let header = course::content::review_log::HEADER;
    let text = if a.log.starts_with('#') {
        a.log.clone()
    } else {
        format!("{header}\n{}", a.log)
    };
    Ok(json!({ "text": text }))
}

#[derive(Deserialize)]
struct CheckReq {
    file: String,
    text: String,
}

/// How text views are laid out for the page: what a pipe gets from the
/// command line (80 columns, no colour), so the page and `course` agree.
const STYLE: view::style::Style = view::style::Style {
    color: false,
    width: view::style::DEFAULT_WIDTH,
};

fn drill_named(name: &str) -> Result<Drill, String> {
    Drill::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .ok_or_else(|| format!("no drill `{name}`"))
}

fn drill(a: &DrillReq) -> Out {
    let m = machine(a.machine.as_deref(), None)?;
    let d = drill_named(&a.drill)?;
    let req = DrillRequest {
        drill: d,
        seed: Some(a.seed),
        machine: &m,
        source: &Source::Embedded,
        solution: a.solution,
        check: a.check.as_ref().map(|c| Answer {
            file: &c.file,
            text: &c.text,
        }),
    };
    let (out, hints) = api::drill::run_with_hints(&req, a.hints).map_err(|e| e.to_string())?;
    if a.hints > 0 {
        return Ok(object([
            ("hints", hints.clone().into()),
            ("text", view::drill::hints_text(&hints, false).into()),
        ]));
    }
    let text = |t: String| if a.json_only { Value::Null } else { t.into() };
    Ok(match out {
        DrillOutput::Problem(p) => object([
            ("answer", p.answer().map_or(Value::Null, Value::from)),
            ("json", pretty(&p).into()),
            ("text", text(view::drill::problem_text(&p))),
        ]),
        DrillOutput::Report(r) => {
            let line = match &a.stamp {
                Some(st) => api::drill::review(&req, None, &r, &st.who, st.day()?, st.time)
                    .map_or(Value::Null, |rev| rev.line().into()),
                None => Value::Null,
            };
            object([
                ("correct", r.correct().into()),
                ("json", pretty(&r).into()),
                ("review_line", line),
                ("text", text(view::drill::report_text(&r))),
            ])
        }
    })
}

#[derive(Deserialize)]
struct PlaceReq {
    seed: u64,
    placed: Vec<(String, i64)>,
    #[serde(default)]
    machine: Option<String>,
}

fn place(a: &PlaceReq) -> Out {
    let m = machine(a.machine.as_deref(), None)?;
    let r =
        api::drill::place(a.seed, &m, &Source::Embedded, &a.placed).map_err(|e| e.to_string())?;
    serde_json::to_value(&r).map_err(|e| e.to_string())
}

#[derive(Deserialize)]
struct GradeReq {
    /// The input's file name (its stem names the input).
    input: String,
    input_text: String,
    /// The submission's file name.
    name: String,
    submission: String,
    #[serde(default)]
    machine: Option<String>,
    #[serde(default)]
    machine_yaml: Option<String>,
}

fn grade(a: &GradeReq) -> Out {
    let m = machine(a.machine.as_deref(), a.machine_yaml.as_deref())?;
    let g = api::grade::input_text(&a.input_text, &a.input, &a.name, &a.submission, &m)
        .map_err(|d| d.to_string())?;
    let r = g.report();
    let lab = &g.grades().lab;
    let tables = lab.input(&r.input).map(|li| {
        let p = &li.program;
        let reference = view::report::reservation_table(p, &m, &li.reference, li.ii);
        let mine = r
            .submitted
            .as_ref()
            .map(|t| view::report::reservation_table(p, &m, t, r.submitted_ii.or(li.ii)));
        json!({ "mine": mine, "reference": reference })
    });
    Ok(object([
        ("json", pretty(&g).into()),
        ("tables", tables.unwrap_or(Value::Null)),
        ("text", view::grade::text(g.grades()).into()),
        ("valid", r.valid.into()),
    ]))
}

#[derive(Deserialize)]
struct McaReq {
    input: String,
    input_text: String,
    #[serde(default)]
    machine: Option<String>,
    #[serde(default)]
    machine_yaml: Option<String>,
    #[serde(default = "hundred")]
    iterations: u64,
    #[serde(default = "ten")]
    timeline_iterations: u64,
    #[serde(default)]
    timeline: bool,
    #[serde(default)]
    resource_pressure: bool,
    #[serde(default)]
    instruction_info: bool,
    #[serde(default)]
    bottleneck: bool,
}

fn hundred() -> u64 {
    100
}

fn ten() -> u64 {
    course::engine::mca::DEFAULT_TIMELINE_ITERATIONS
}

fn mca(a: &McaReq) -> Out {
    let m = machine(a.machine.as_deref(), a.machine_yaml.as_deref())?;
    let req = api::mca::Request {
        iterations: a.iterations,
        timeline_iterations: a.timeline_iterations,
        views: api::mca::Views {
            bottleneck: a.bottleneck,
            instruction_info: a.instruction_info,
            resource_pressure: a.resource_pressure,
            timeline: a.timeline,
        },
        skip_unsupported: false,
        memory: Default::default(),
    };
    let out = api::mca::run(&a.input_text, &a.input, &m, &req).map_err(|e| e.to_string())?;
    Ok(object([
        ("json", pretty(&out).into()),
        ("text", view::mca::text(&out).into()),
    ]))
}

#[derive(Deserialize)]
struct QuizStartReq {
    seed: u64,
    #[serde(default)]
    tags: Vec<String>,
}

/// The current question of the quiz (or `null` and the summary when it is
/// over).
fn quiz_state(s: &Session) -> Value {
    match s.question() {
        Some(q) => object([
            ("prompt_text", view::quiz::answer_prompt(&q).into()),
            ("question", serde_json::to_value(&q).unwrap_or(Value::Null)),
            ("question_text", view::quiz::question(&q, &STYLE).into()),
        ]),
        None => {
            let sum = s.summary();
            object([
                ("question", Value::Null),
                ("summary", serde_json::to_value(&sum).unwrap_or(Value::Null)),
                ("summary_text", view::quiz::summary(&sum, &STYLE).into()),
            ])
        }
    }
}

fn quiz_start(a: &QuizStartReq) -> Out {
    let sel = Selection {
        source: &Source::Embedded,
        chapter: CHAPTER,
        tags: &a.tags,
    };
    let s = api::quiz::session(sel, Some(a.seed)).map_err(|e| e.to_string())?;
    let mut v = quiz_state(&s);
    if let Value::Object(m) = &mut v {
        m.insert(
            "intro_text".into(),
            view::quiz::intro(&s.intro(), &STYLE).into(),
        );
        m.insert(
            "intro".into(),
            serde_json::to_value(s.intro()).unwrap_or(Value::Null),
        );
    }
    QUIZ.with(|q| *q.borrow_mut() = Some(s));
    Ok(v)
}

#[derive(Deserialize)]
struct LineReq {
    line: String,
    #[serde(default)]
    stamp: Option<Stamp>,
}

fn quiz_reply(a: &LineReq) -> Out {
    QUIZ.with(|q| {
        let mut q = q.borrow_mut();
        let s = q.as_mut().ok_or("no quiz is running")?;
        let asked = s.question();
        let reply = s.reply(&a.line).ok_or("the quiz is over")?;
        let mut v = quiz_state(s);
        if let Value::Object(m) = &mut v {
            match reply {
                Reply::Retry(r) => {
                    m.insert("retry_text".into(), view::quiz::retry(&r, &STYLE).into());
                }
                Reply::Feedback(f) => {
                    m.insert(
                        "feedback_text".into(),
                        view::quiz::feedback(&f, &STYLE).into(),
                    );
                    m.insert(
                        "status".into(),
                        serde_json::to_value(f.outcome.status).unwrap_or(Value::Null),
                    );
                    if let (Some(st), Some(q)) = (&a.stamp, &asked) {
                        let rev = course::content::review_log::quiz_review(
                            &f.outcome,
                            q.kind,
                            &st.who,
                            st.day()?,
                            st.time,
                        );
                        m.insert("review_line".into(), rev.line().into());
                    }
                }
            }
        }
        Ok(v)
    })
}

fn quiz_end() -> Out {
    QUIZ.with(|q| {
        let mut q = q.borrow_mut();
        let s = q.as_mut().ok_or("no quiz is running")?;
        let ended = s.end_of_input();
        let mut v = quiz_state(s);
        if let Value::Object(m) = &mut v {
            m.insert("ended_text".into(), view::quiz::input_ended(&ended).into());
        }
        Ok(v)
    })
}

#[derive(Deserialize)]
struct FlashOpenReq {
    /// The state file's text kept by the page, if any.
    #[serde(default)]
    state: Option<String>,
    /// Today, `YYYY-MM-DD` (the page's local date, as the CLI's).
    today: String,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    all: bool,
}

/// The current card of the review (or the end line).
fn flash_state(r: &Review) -> Value {
    match r.front() {
        Some(f) => object([
            ("front", serde_json::to_value(&f).unwrap_or(Value::Null)),
            ("front_text", view::flash::front(&f, &STYLE).into()),
        ]),
        None => object([
            ("front", Value::Null),
            ("end_text", view::flash::end(&r.end()).into()),
        ]),
    }
}

fn flash_open(a: &FlashOpenReq) -> Out {
    let today =
        Date::parse(&a.today).ok_or_else(|| format!("{}: expected a date YYYY-MM-DD", a.today))?;
    let cards = api::flash::open_kept(
        &Source::Embedded,
        CHAPTER,
        &a.tags,
        KeptState {
            text: a.state.as_deref(),
            kept_in: KEPT_IN,
        },
        today,
    )
    .map_err(|e| e.to_string())?;
    let warnings: Vec<String> = cards.warnings().to_vec();
    let list = cards.list();
    let state = state_text(cards.state());
    let base = [
        ("list", serde_json::to_value(&list).unwrap_or(Value::Null)),
        ("list_text", view::flash::list(&list).into()),
        ("state", state.into()),
        ("warnings", warnings.into()),
    ];
    match cards.review(a.all) {
        Err(nothing) => {
            FLASH.with(|f| *f.borrow_mut() = None);
            let mut v = object(base);
            if let Value::Object(m) = &mut v {
                m.insert("front".into(), Value::Null);
                m.insert(
                    "nothing_due_text".into(),
                    view::flash::nothing_due(&nothing).into(),
                );
            }
            Ok(v)
        }
        Ok(review) => {
            let mut v = flash_state(&review);
            if let Value::Object(m) = &mut v {
                for (k, x) in base {
                    m.insert(k.into(), x);
                }
                m.insert(
                    "start_text".into(),
                    view::flash::start(&review.start(), &STYLE).into(),
                );
            }
            FLASH.with(|f| *f.borrow_mut() = Some(review));
            Ok(v)
        }
    }
}

#[derive(Deserialize)]
struct ReplyReq {
    #[serde(default)]
    reply: String,
    #[serde(default)]
    stamp: Option<Stamp>,
}

fn flash_reveal(a: &ReplyReq) -> Out {
    FLASH.with(|f| {
        let mut f = f.borrow_mut();
        let r = f.as_mut().ok_or("no review is running")?;
        Ok(match r.reveal(&a.reply) {
            Some(back) => object([("back_text", view::flash::back(&back, &STYLE).into())]),
            None => flash_state(r),
        })
    })
}

fn flash_rate(a: &ReplyReq) -> Out {
    FLASH.with(|f| {
        let mut f = f.borrow_mut();
        let r = f.as_mut().ok_or("no review is running")?;
        let front = r.front();
        let rated = r.rate(&a.reply).map_err(|e| e.to_string())?;
        let mut v = match &rated {
            Rated::NotARating(n) => {
                object([("not_a_rating_text", view::flash::not_a_rating(n).into())])
            }
            Rated::Scheduled(next) => {
                let mut v = flash_state(r);
                if let Value::Object(m) = &mut v {
                    m.insert(
                        "scheduled_text".into(),
                        view::flash::scheduled(next, &STYLE).into(),
                    );
                    m.insert(
                        "scheduled".into(),
                        serde_json::to_value(next).unwrap_or(Value::Null),
                    );
                    let rating = course::content::flash::Rating::parse(&a.reply);
                    if let (Some(st), Some(card), Some(rating)) = (&a.stamp, &front, rating) {
                        let rev = course::content::review_log::flash_review(
                            &card.id,
                            &card.tags,
                            rating,
                            &st.who,
                            st.day()?,
                            st.time,
                        );
                        m.insert("review_line".into(), rev.line().into());
                    }
                }
                v
            }
            Rated::Stopped => flash_state(r),
        };
        if let Value::Object(m) = &mut v {
            m.insert("state".into(), state_text(r.state()).into());
        }
        Ok(v)
    })
}

#[derive(Deserialize)]
struct ImportReq {
    text: String,
    /// The file's name, for messages.
    name: String,
}

/// Reads an imported state file: its text as the page will keep it, and
/// what had to be dropped. A damaged file is refused (the kept state stays).
fn flash_import(a: &ImportReq) -> Out {
    let deck = format!("ch{CHAPTER}");
    match read_state(a.text.as_bytes(), &deck) {
        StateRead::Whole(state) => Ok(json!({ "state": state_text(&state), "warnings": [] })),
        StateRead::Partly { state, dropped } => {
            let warnings: Vec<String> = dropped
                .iter()
                .map(|m| format!("{}: ignoring a bad entry: {m}", a.name))
                .collect();
            Ok(json!({ "state": state_text(&state), "warnings": warnings }))
        }
        StateRead::Damaged { problem, .. } => Err(format!(
            "{}: not a review state ({problem}); nothing imported",
            a.name
        )),
    }
}

/// The WebAssembly boundary: the page allocates a buffer, writes the
/// request's UTF-8 bytes, calls `course_call`, reads the response (a
/// little-endian `u32` length, then the bytes) and frees both buffers.
#[cfg(target_arch = "wasm32")]
mod abi {
    use std::alloc::{alloc, dealloc, Layout};

    fn layout(len: usize) -> Layout {
        Layout::from_size_align(len.max(1), 4).unwrap_or(Layout::new::<u32>())
    }

    /// A buffer of `len` bytes for the page to fill.
    #[no_mangle]
    pub extern "C" fn course_alloc(len: usize) -> *mut u8 {
        // SAFETY: the layout has a non-zero size.
        unsafe { alloc(layout(len)) }
    }

    /// Frees a buffer from [`course_alloc`] or [`course_call`].
    ///
    /// # Safety
    /// `ptr` and `len` must be those of a buffer this module handed out.
    #[no_mangle]
    pub unsafe extern "C" fn course_free(ptr: *mut u8, len: usize) {
        dealloc(ptr, layout(len))
    }

    /// Answers the request in `ptr[..len]`; the response buffer holds
    /// `4 + n` bytes (the length `n`, then the JSON).
    ///
    /// # Safety
    /// `ptr[..len]` must be a buffer from [`course_alloc`], filled.
    #[no_mangle]
    pub unsafe extern "C" fn course_call(ptr: *const u8, len: usize) -> *mut u8 {
        let bytes = std::slice::from_raw_parts(ptr, len);
        let out = super::call(&String::from_utf8_lossy(bytes));
        let n = out.len();
        let buf = course_alloc(4 + n);
        std::ptr::copy_nonoverlapping((n as u32).to_le_bytes().as_ptr(), buf, 4);
        std::ptr::copy_nonoverlapping(out.as_ptr(), buf.add(4), n);
        buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(req: Value) -> Value {
        serde_json::from_str(&call(&req.to_string())).unwrap()
    }

    #[test]
    fn a_drill_is_the_cli_drill() {
        let v = ask(json!({"cmd": "drill", "drill": "list-schedule", "seed": 4, "solution": true}));
        assert_eq!(v["ok"], true, "{v}");
        let m = Machine::toy();
        let p = Drill::ListSchedule.problem(&m, None, 4, true).unwrap();
        assert_eq!(v["json"], pretty(&p));
        assert_eq!(v["text"], view::drill::problem_text(&p));
        let answer = v["answer"].as_str().unwrap();
        let r = ask(json!({"cmd": "drill", "drill": "list-schedule", "seed": 4,
            "check": {"file": "mine.txt", "text": answer}}));
        assert_eq!(r["correct"], true, "{r}");
    }

    #[test]
    fn bad_requests_are_error_responses() {
        for req in ["", "{", "[]", r#"{"cmd":"nope"}"#, r#"{"cmd":"drill"}"#] {
            let v: Value = serde_json::from_str(&call(req)).unwrap();
            assert_eq!(v["ok"], false, "{req}: {v}");
        }
        let v = ask(json!({"cmd": "quiz_reply", "line": "1"}));
        assert_eq!(v["error"], "no quiz is running");
        let v = ask(json!({"cmd": "drill", "drill": "mii", "seed": 1, "machine": "vax"}));
        assert!(v["error"]
            .as_str()
            .unwrap()
            .contains("not a built-in machine"));
    }

    #[test]
    fn quiz_and_flashcards_run_as_sessions() {
        let v = ask(json!({"cmd": "quiz_start", "seed": 7}));
        assert!(
            v["intro_text"].as_str().unwrap().starts_with("Quiz 23"),
            "{v}"
        );
        let v = ask(json!({"cmd": "quiz_reply", "line": "999"}));
        assert!(v["feedback_text"].is_string(), "{v}");
        let v = ask(json!({"cmd": "quiz_end"}));
        assert!(
            v["summary_text"].as_str().unwrap().starts_with("Score: "),
            "{v}"
        );
        let v = ask(json!({"cmd": "flash_open", "today": "2026-01-01"}));
        assert!(v["start_text"].is_string(), "{v}");
        ask(json!({"cmd": "flash_reveal", "reply": ""}));
        let v = ask(json!({"cmd": "flash_rate", "reply": "good"}));
        assert_eq!(v["scheduled"]["box"], 2, "{v}");
        let state = v["state"].as_str().unwrap().to_string();
        let v = ask(json!({"cmd": "flash_open", "today": "2026-01-01", "state": state}));
        let listed = &v["list"]["cards"];
        assert!(listed
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["state"]["box"] == 2));
        let v = ask(json!({"cmd": "flash_import", "name": "f.json", "text": "nonsense"}));
        assert_eq!(v["ok"], false);
        let v = ask(json!({"cmd": "flash_import", "name": "f.json", "text": state}));
        assert_eq!(v["state"], state.as_str());
    }

    #[test]
    fn a_review_log_is_imported_as_records_and_exported_with_its_header() {
        let header = course::content::review_log::HEADER;
        let good = "2026-01-01 1767225600 ada drill mii:1 mii right -\n";
        let text = format!("{header}\n{good}not a record\n2026-01-02 17");
        let v = ask(json!({"cmd": "progress_import", "name": "r.log", "text": text}));
        assert_eq!(v["lines"], good, "{v}");
        assert_eq!(v["count"], 1, "{v}");
        assert!(
            v["warnings"][0].as_str().unwrap().starts_with("r.log:3:1:"),
            "{v}"
        );
        let v =
            ask(json!({"cmd": "progress_import", "name": "big.log", "size": MAX_IMPORT_BYTES + 1}));
        assert_eq!(v["ok"], false);
        assert!(
            v["error"].as_str().unwrap().contains("larger than 2 MiB"),
            "{v}"
        );
        let v = ask(json!({"cmd": "progress_export", "log": good}));
        assert_eq!(v["text"], format!("{header}\n{good}"));
    }

    #[test]
    fn grade_and_mca_answer_like_the_cli() {
        let v = ask(json!({"cmd": "grade", "input": "running.txt",
            "input_text": data::RUNNING_TXT, "name": "mine.sched",
            "submission": "c 0\na 1\nb 2\ne 3\nf 4\nd 4\ng 5\nh 6\ni 8\nj 9\n"}));
        assert_eq!(v["valid"], false, "{v}");
        assert!(v["text"]
            .as_str()
            .unwrap()
            .contains("d at 4: mul is taken at cycle 4 by f"));
        assert!(v["tables"]["mine"].is_string() && v["tables"]["reference"].is_string());
        for (path, m) in KERNELS {
            let text = data::embedded(path).unwrap();
            let v = ask(json!({"cmd": "mca", "input": path, "input_text": text,
                "machine": m, "timeline": true, "resource_pressure": true}));
            assert!(
                v["text"].as_str().unwrap().contains("Timeline view:"),
                "{v}"
            );
        }
        let v = ask(json!({"cmd": "place", "seed": 4, "placed": [["a", 0], ["zz", 1]]}));
        assert_eq!(v["ignored"].as_array().unwrap().len(), 1, "{v}");
        let v = ask(json!({"cmd": "info"}));
        for p in LAB_INPUTS {
            assert!(data::embedded(p).is_some(), "{p}");
        }
        assert_eq!(v["drills"].as_array().unwrap().len(), Drill::ALL.len());
    }

    #[test]
    fn reviews_give_log_lines_and_progress_reads_them() {
        let stamp = json!({"who": "ada", "day": "2026-01-05", "time": 1767571200});
        let v = ask(json!({"cmd": "drill", "drill": "rthroughput", "seed": 3,
            "check": {"file": "a.txt", "text": "999\n"}, "stamp": stamp}));
        let line = v["review_line"].as_str().unwrap().to_string();
        assert_eq!(
            line,
            "2026-01-05 1767571200 ada drill rthroughput:3 rthroughput wrong wrong\n"
        );
        let v = ask(json!({"cmd": "flash_open", "today": "2026-01-05"}));
        assert_eq!(v["ok"], true);
        ask(json!({"cmd": "flash_reveal", "reply": ""}));
        let v = ask(json!({"cmd": "flash_rate", "reply": "again", "stamp": stamp}));
        let flash = v["review_line"].as_str().unwrap().to_string();
        assert!(
            flash.contains(" ada flash ") && flash.ends_with(" wrong again\n"),
            "{flash}"
        );
        let log = format!("{line}{flash}garbage\n");
        let v = ask(json!({"cmd": "progress", "log": log, "today": "2026-01-05"}));
        assert_eq!(v["progress"]["total"]["attempts"], 2);
        // The weakest: a topic got wrong (0 of 1), not one never tried.
        assert_eq!(v["practice"]["progress"]["tally"]["attempts"], 1);
        assert_eq!(v["practice"]["progress"]["tally"]["right"], 0);
        assert!(v["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with("review log:3:1:"));
        assert!(v["progress_text"]
            .as_str()
            .unwrap()
            .starts_with("Progress on 2026-01-05"));
    }
}
