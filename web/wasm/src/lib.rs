//! The `course` engine for the web page: one function, [`call`], takes a
//! JSON request and returns a JSON response, and on `wasm32` three C-ABI
//! exports (`course_alloc`, `course_free`, `course_call`) carry those
//! strings across the WebAssembly boundary. A fourth,
//! `course_mca_table`, hands over the bytes of a processor model's table
//! ([`register_table`]).
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
//! | `bench_exact` | the exact search of `course-bench --only exact`, timed from node |
//! | `worksheet` | `course worksheet --drill NAME … --seeds LIST\|--roster FILE [--first-seed N]`: `html` and `text` |
//!
//! A `drill` check, a `quiz_reply` that is graded and a `flash_rate` that
//! rates take an optional `"stamp": {"who", "day", "time"}` (the page's
//! clock); with it the response has `review_line`, the line the native
//! review log would get, which the page appends to its own log.
//!
//! The tables of the built-in processor models (`course mca` on assembly,
//! `--machine skylake`) are not in the page's WebAssembly (the feature
//! `lazy-mca` of course-content): an `mca` request that needs one the page
//! has not handed over answers `{"ok": false, "error": …,
//! "missing_tables": [NAME, …]}`; the page then loads `mca/NAME.js`
//! (written by `web/build.sh` from `crates/course-content/mca/NAME.z`),
//! hands each table over with `course_mca_table` and asks again. The lab
//! format never needs them. A native build embeds them all.

use std::cell::RefCell;
use std::thread::LocalKey;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use course::view;
use course_content::flash::Date;
use course_content::review_log::Review;

mod drill;
mod flash;
mod lab;
mod progress;
mod quiz;
mod worksheet;

/// The chapter the page teaches.
const CHAPTER: u32 = 23;

/// How text views are laid out for the page: what a pipe gets from the
/// command line (80 columns, no colour), so the page and `course` agree.
const STYLE: view::style::Style = view::style::Style {
    color: false,
    width: view::style::DEFAULT_WIDTH,
};

/// A request: `{"cmd": NAME, …}`, the command's arguments beside `cmd`.
#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
enum Request {
    Info,
    File(lab::FileReq),
    Drill(drill::DrillReq),
    Place(drill::PlaceReq),
    Grade(lab::GradeReq),
    Mca(lab::McaReq),
    QuizStart(quiz::StartReq),
    QuizReply(quiz::LineReq),
    QuizEnd,
    FlashOpen(flash::OpenReq),
    FlashReveal(flash::ReplyReq),
    FlashRate(flash::ReplyReq),
    FlashImport(flash::ImportReq),
    BenchExact(drill::BenchExact),
    Progress(progress::ProgressReq),
    ProgressImport(progress::ImportReq),
    ProgressExport(progress::ExportReq),
    Worksheet(worksheet::WorksheetReq),
    /// A `cmd` the page does not know.
    #[serde(other)]
    Unknown,
}

/// The response to a request that succeeded: `ok` beside the reply's
/// fields.
#[derive(Serialize)]
struct Done<T> {
    ok: bool,
    #[serde(flatten)]
    reply: T,
}

/// The response to a request that failed.
#[derive(Serialize)]
struct Failed<'a> {
    error: &'a str,
    ok: bool,
}

/// Answers one JSON request with one JSON response (never fails: a bad
/// request is an error response).
pub fn call(request: &str) -> String {
    respond(request).unwrap_or_else(|error| {
        // A string and a bool, in the order of their keys: always written.
        serde_json::to_string(&Failed {
            error: &error,
            ok: false,
        })
        .unwrap_or_default()
    })
}

/// Reads a request and runs it. A request without a string `cmd` is of no
/// command the page knows; bad arguments say what is wrong with them.
fn respond(request: &str) -> Result<String, String> {
    let req: Value =
        serde_json::from_str(request).map_err(|e| format!("not a JSON request: {e}"))?;
    let cmd = req.get("cmd").and_then(Value::as_str);
    let parsed = match cmd {
        Some(_) => Request::deserialize(&req).map_err(|e| format!("bad request: {e}"))?,
        None => Request::Unknown,
    };
    answer(parsed, cmd.unwrap_or(""))
}

/// Runs the request `cmd` names and writes its response.
fn answer(req: Request, cmd: &str) -> Result<String, String> {
    match req {
        Request::Info => done(lab::info()),
        Request::File(a) => done(lab::file(&a)),
        Request::Drill(a) => done(drill::drill(&a)),
        Request::Place(a) => done(drill::place(&a)),
        Request::Grade(a) => done(lab::grade(&a)),
        Request::Mca(a) => match lab::missing_tables(&a) {
            Some((model, missing)) => needs_tables(model, &missing),
            None => done(lab::mca(&a)),
        },
        Request::QuizStart(a) => done(quiz::start(&a)),
        Request::QuizReply(a) => done(quiz::reply(&a)),
        Request::QuizEnd => done(quiz::end()),
        Request::FlashOpen(a) => done(flash::open(&a)),
        Request::FlashReveal(a) => done(flash::reveal(&a)),
        Request::FlashRate(a) => done(flash::rate(&a)),
        Request::FlashImport(a) => done(flash::import(&a)),
        Request::BenchExact(a) => done(drill::bench_exact(&a)),
        Request::Progress(a) => done(progress::progress(&a)),
        Request::ProgressImport(a) => done(progress::import(&a)),
        Request::ProgressExport(a) => done(progress::export(&a)),
        Request::Worksheet(a) => done(worksheet::worksheet(&a)),
        Request::Unknown => Err(format!("unknown command `{cmd}`")),
    }
}

/// The response to a run that needs tables the page has not handed over.
#[derive(Serialize)]
struct NeedsTables<'a> {
    error: &'a str,
    missing_tables: &'a [&'static str],
    ok: bool,
}

/// The response naming the tables of `model` to hand over first.
fn needs_tables(model: &str, missing: &[&'static str]) -> Result<String, String> {
    let error = format!(
        "the tables of the processor model {model} are not loaded yet: {}",
        missing.join(", ")
    );
    let response = NeedsTables {
        error: &error,
        missing_tables: missing,
        ok: false,
    };
    serde_json::to_string(&response).map_err(|e| e.to_string())
}

/// Takes the bytes of the processor model table `name` (the file
/// `crates/course-content/mca/NAME.z`) and answers `{"ok": true}`, or an
/// error response for a name no built-in model has.
pub fn register_table(name: &str, bytes: &[u8]) -> String {
    let response = course_content::mca_models::register(name, bytes).map(|()| Done {
        ok: true,
        reply: serde_json::Map::new(),
    });
    match response {
        Ok(done) => serde_json::to_string(&done).unwrap_or_default(),
        Err(error) => serde_json::to_string(&Failed {
            error: &error,
            ok: false,
        })
        .unwrap_or_default(),
    }
}

/// The response of a reply (or of its error). Every object's keys come
/// out in sorted order, as the page has always received them: the reply
/// goes through [`Value`], whose maps keep their keys sorted.
fn done<T: Serialize>(reply: Result<T, String>) -> Result<String, String> {
    let response = Done {
        ok: true,
        reply: reply?,
    };
    let v = serde_json::to_value(response).map_err(|e| e.to_string())?;
    Ok(v.to_string())
}

/// What the CLI prints for `--format json`, without the final newline.
fn pretty<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// A reply of one text (a course file, an exported review log).
#[derive(Serialize)]
struct Text {
    text: String,
}

/// Who reviews and when (the page's clock), for a review-log line.
#[derive(Deserialize)]
struct Stamp {
    #[serde(default)]
    who: String,
    day: String,
    time: i64,
}

impl Stamp {
    /// The review-log line of the record `review` makes for this reviewer,
    /// day and time (`None` when it makes none).
    fn line(
        &self,
        review: impl FnOnce(&str, Date, i64) -> Option<Review>,
    ) -> Result<Option<String>, String> {
        self.lines(|who, day, time| review(who, day, time).into_iter().collect())
    }

    /// The review-log lines of the records `reviews` makes (marker lines
    /// of a solution or hints shown), joined; `None` when it makes none.
    fn lines(
        &self,
        reviews: impl FnOnce(&str, Date, i64) -> Vec<Review>,
    ) -> Result<Option<String>, String> {
        let day = Date::parse(&self.day)
            .ok_or_else(|| format!("stamp: `{}` is not a day YYYY-MM-DD", self.day))?;
        let lines: String = reviews(&self.who, day, self.time)
            .iter()
            .map(Review::line)
            .collect();
        Ok((!lines.is_empty()).then_some(lines))
    }
}

/// Runs `f` on the session `cell` keeps (a quiz, a review); `idle` is the
/// error when none is running.
fn with_session<S, T>(
    cell: &'static LocalKey<RefCell<Option<S>>>,
    idle: &str,
    f: impl FnOnce(&mut S) -> Result<T, String>,
) -> Result<T, String> {
    cell.with(|c| f(c.borrow_mut().as_mut().ok_or(idle)?))
}

/// The WebAssembly boundary: the page allocates a buffer, writes the
/// request's UTF-8 bytes, calls `course_call`, reads the response (a
/// little-endian `u32` length, then the bytes) and frees both buffers.
#[cfg(target_arch = "wasm32")]
mod abi {
    use std::alloc::{Layout, alloc, dealloc};

    fn layout(len: usize) -> Layout {
        Layout::from_size_align(len.max(1), 4).unwrap_or(Layout::new::<u32>())
    }

    /// A buffer of `len` bytes for the page to fill.
    #[unsafe(no_mangle)]
    pub extern "C" fn course_alloc(len: usize) -> *mut u8 {
        // SAFETY: the layout has a non-zero size.
        unsafe { alloc(layout(len)) }
    }

    /// Frees a buffer from [`course_alloc`] or [`course_call`].
    ///
    /// # Safety
    /// `ptr` and `len` must be those of a buffer this module handed out.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn course_free(ptr: *mut u8, len: usize) {
        // SAFETY: the caller hands back a buffer of this module's, with its
        // length, so the layout is the one it was allocated with.
        unsafe { dealloc(ptr, layout(len)) }
    }

    /// Answers the request in `ptr[..len]`; the response buffer holds
    /// `4 + n` bytes (the length `n`, then the JSON).
    ///
    /// # Safety
    /// `ptr[..len]` must be a buffer from [`course_alloc`], filled.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn course_call(ptr: *const u8, len: usize) -> *mut u8 {
        // SAFETY: the caller filled `ptr[..len]`, a buffer of this module's.
        let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
        response(&super::call(&String::from_utf8_lossy(bytes)))
    }

    /// Hands over the table named by `name[..name_len]` (UTF-8), its bytes
    /// in `ptr[..len]` ([`super::register_table`]); the response buffer is
    /// as [`course_call`]'s.
    ///
    /// # Safety
    /// `name[..name_len]` and `ptr[..len]` must be buffers from
    /// [`course_alloc`], filled.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn course_mca_table(
        name: *const u8,
        name_len: usize,
        ptr: *const u8,
        len: usize,
    ) -> *mut u8 {
        // SAFETY: the caller filled both buffers, buffers of this module's.
        let (name, bytes) = unsafe {
            (
                std::slice::from_raw_parts(name, name_len),
                std::slice::from_raw_parts(ptr, len),
            )
        };
        response(&super::register_table(
            &String::from_utf8_lossy(name),
            bytes,
        ))
    }

    /// A response buffer: the length of `out`, then its bytes.
    fn response(out: &str) -> *mut u8 {
        let n = out.len();
        let buf = course_alloc(4 + n);
        // SAFETY: `buf` holds `4 + n` bytes and overlaps neither source.
        unsafe {
            std::ptr::copy_nonoverlapping((n as u32).to_le_bytes().as_ptr(), buf, 4);
            std::ptr::copy_nonoverlapping(out.as_ptr(), buf.add(4), n);
        }
        buf
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use course::view;
    use course_content::data;
    use course_content::drill::Drill;
    use course_engine::model::machine::Machine;

    use super::{call, needs_tables, pretty, register_table};
    use crate::progress::MAX_IMPORT_BYTES;

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
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .contains("not a built-in machine")
        );
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
        assert!(
            listed
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["state"]["box"] == 2)
        );
        let v = ask(json!({"cmd": "flash_import", "name": "f.json", "text": "nonsense"}));
        assert_eq!(v["ok"], false);
        let v = ask(json!({"cmd": "flash_import", "name": "f.json", "text": state}));
        assert_eq!(v["state"], state.as_str());
    }

    #[test]
    fn a_review_log_is_imported_as_records_and_exported_with_its_header() {
        let header = course_content::review_log::HEADER;
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
        assert!(
            v["text"]
                .as_str()
                .unwrap()
                .contains("d at 4: mul is taken at cycle 4 by f")
        );
        assert!(v["tables"]["mine"].is_string() && v["tables"]["reference"].is_string());
        let info = ask(json!({"cmd": "info"}));
        for k in info["kernels"].as_array().unwrap() {
            let (path, m) = (k["path"].as_str().unwrap(), &k["machine"]);
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
        assert_eq!(info["drills"].as_array().unwrap().len(), Drill::ALL.len());
    }

    #[test]
    fn tables_are_handed_over_by_name_and_a_missing_one_is_named() {
        let v: Value = serde_json::from_str(&register_table("vax.model", b"")).unwrap();
        assert_eq!(v["ok"], false, "{v}");
        assert!(
            v["error"].as_str().unwrap().contains("skylake.model"),
            "{v}"
        );
        let bytes = include_bytes!("../../../crates/course-content/mca/skylake.model.z");
        let v: Value = serde_json::from_str(&register_table("skylake.model", bytes)).unwrap();
        assert_eq!(v, json!({"ok": true}));
        // What the page gets before it has handed the tables over (a native
        // build embeds them, so a run never answers this here).
        let v: Value =
            serde_json::from_str(&needs_tables("skylake", &["x86.forms"]).unwrap()).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["missing_tables"], json!(["x86.forms"]));
        assert_eq!(
            v["error"],
            "the tables of the processor model skylake are not loaded yet: x86.forms"
        );
    }

    #[test]
    fn info_lists_the_lab_inputs_and_the_kernels_on_their_machines() {
        let v = ask(json!({"cmd": "info"}));
        let inputs = [
            "running", "divide", "alias", "wide", "dot", "stream", "fib", "chase",
        ];
        let want: Vec<String> = inputs
            .iter()
            .map(|s| format!("labs/ch23-sched/inputs/{s}.txt"))
            .collect();
        assert_eq!(v["lab_inputs"], json!(want));
        let on = [
            ("div", "skylake"),
            ("model", "skylake"),
            ("dot-x86", "skylake"),
            ("dot-a64", "neoverse-v2"),
        ];
        let kernels: Vec<Value> = [".s", ".txt"]
            .iter()
            .flat_map(|ext| {
                on.iter().map(move |(stem, m)| {
                    json!({"machine": m, "path": format!("labs/ch23-sched/inputs/mca/{stem}{ext}")})
                })
            })
            .collect();
        assert_eq!(v["kernels"], json!(kernels));
    }

    #[test]
    fn reviews_give_log_lines_and_progress_reads_them() {
        let stamp = json!({"who": "ada", "day": "2026-01-05", "time": 1767571200});
        let v = ask(json!({"cmd": "drill", "drill": "rthroughput", "seed": 3,
            "check": {"file": "a.txt", "text": "999\n"}, "stamp": stamp}));
        let line = v["review_line"].as_str().unwrap().to_string();
        assert_eq!(
            line,
            "2026-01-05 1767571200 ada drill rthroughput:3 rthroughput wrong resource_bound\n"
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
        assert!(
            v["warnings"][0]
                .as_str()
                .unwrap()
                .starts_with("review log:3:1:")
        );
        assert!(
            v["progress_text"]
                .as_str()
                .unwrap()
                .starts_with("Progress on 2026-01-05")
        );
    }

    #[test]
    fn a_shown_solution_or_hint_is_logged_and_moves_the_path_on() {
        let stamp = json!({"who": "ada", "day": "2026-01-05", "time": 1767571200});
        let v = ask(
            json!({"cmd": "drill", "drill": "forbidden", "seed": 1, "hints": 2, "stamp": stamp}),
        );
        assert_eq!(
            v["review_line"],
            "2026-01-05 1767571200 ada drill forbidden:1 forbidden-latencies wrong hints-2\n"
        );
        let v = ask(
            json!({"cmd": "drill", "drill": "forbidden", "seed": 1, "solution": true, "stamp": stamp}),
        );
        let marker = v["review_line"].as_str().unwrap().to_string();
        assert!(marker.ends_with(" wrong solution-viewed\n"), "{marker}");
        // Without a stamp nothing is logged.
        let v = ask(json!({"cmd": "drill", "drill": "forbidden", "seed": 1, "solution": true}));
        assert_eq!(v["review_line"], Value::Null);
        // Step 1 of the path is forbidden; its seed 1 was shown, so the
        // next exercise is seed 2, as `course next` picks it.
        let v = ask(json!({"cmd": "progress", "log": marker, "today": "2026-01-05"}));
        assert_eq!(v["path"]["done"], 0);
        assert_eq!(v["path"]["next"]["number"], 1);
        assert_eq!(v["path"]["next"]["drill"], "forbidden");
        assert_eq!(v["path"]["next"]["seed"], 2);
    }
}
