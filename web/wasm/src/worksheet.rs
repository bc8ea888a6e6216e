//! `{"cmd":"worksheet",…}`: `course worksheet`, the page's printable
//! problem sheets with their solutions apart, as HTML and as text.

use serde::{Deserialize, Serialize};

use course::api::worksheet::{self, Sheets, WorksheetRequest};
use course::view;
use course_content::data::Source;
use course_content::drill::Drill;

use crate::lab;

/// `{"cmd":"worksheet","drills":["mii"],"seeds":[1,2,3],"roster":null,
/// "first_seed":1}`: `course worksheet --drill mii --seeds 1-3`, or with
/// `roster` (the text of a roster file; `null` or absent for none) a
/// sheet per student, the i-th at seed `first_seed + i` (`seeds` is then
/// not used). `machine` is `--machine` (a built-in name; default toy),
/// `roster_file` how messages name the roster (default `roster`).
#[derive(Deserialize)]
pub(crate) struct WorksheetReq {
    drills: Vec<String>,
    #[serde(default)]
    seeds: Vec<u64>,
    /// The seeds as `--seeds` takes them (`1-3`, `1,4,7`), read as the CLI
    /// reads them; used instead of `seeds` when given.
    #[serde(default)]
    seeds_text: Option<String>,
    #[serde(default)]
    roster: Option<String>,
    #[serde(default)]
    roster_file: Option<String>,
    #[serde(default)]
    first_seed: Option<u64>,
    #[serde(default)]
    machine: Option<String>,
}

/// The worksheet: `html` is `course worksheet … --format html`'s output,
/// `text` its text, byte for byte.
#[derive(Serialize)]
pub(crate) struct WorksheetReply {
    html: String,
    text: String,
}

/// Makes the worksheet and renders it both ways.
pub(crate) fn worksheet(a: &WorksheetReq) -> Result<WorksheetReply, String> {
    let m = lab::machine(a.machine.as_deref(), None)?;
    let drills = a
        .drills
        .iter()
        .map(|d| worksheet::drill_named(d))
        .collect::<Result<Vec<Drill>, String>>()?;
    let listed = match &a.seeds_text {
        Some(spec) if a.roster.is_none() => {
            worksheet::parse_seeds(spec).map_err(|e| format!("--seeds: {e}"))?
        }
        _ => a.seeds.clone(),
    };
    let sheets = match &a.roster {
        Some(text) => Sheets::Roster {
            text,
            file: a.roster_file.as_deref().unwrap_or("roster"),
            first_seed: a.first_seed.unwrap_or(worksheet::DEFAULT_FIRST_SEED),
        },
        None => Sheets::Seeds(&listed),
    };
    let w = worksheet::run(&WorksheetRequest {
        drills: &drills,
        sheets,
        machine: &m,
        machine_arg: a.machine.as_deref(),
        source: &Source::Embedded,
    })
    .map_err(|e| e.to_string())?;
    Ok(WorksheetReply {
        html: view::worksheet::html(&w),
        text: view::worksheet::text(&w),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use course::api::worksheet::{Sheets, WorksheetRequest, run};
    use course::view;
    use course_content::data::Source;
    use course_content::drill::Drill;
    use course_engine::model::machine::Machine;

    use crate::call;

    fn ask(req: Value) -> Value {
        serde_json::from_str(&call(&req.to_string())).unwrap()
    }

    #[test]
    fn seeds_as_text_are_read_as_the_cli_reads_them() {
        let v = ask(json!({"cmd": "worksheet", "drills": ["mii"], "seeds_text": "1-2,5"}));
        let w = ask(json!({"cmd": "worksheet", "drills": ["mii"], "seeds": [1, 2, 5]}));
        assert_eq!(v["html"], w["html"]);
        let v = ask(json!({"cmd": "worksheet", "drills": ["mii"], "seeds_text": "3-1"}));
        assert_eq!(v["ok"], false);
        assert!(v["error"].as_str().unwrap().starts_with("--seeds: "), "{v}");
    }

    #[test]
    fn a_worksheet_is_the_librarys() {
        let v = ask(
            json!({"cmd": "worksheet", "drills": ["mii", "list-schedule"],
            "seeds": [1, 2, 3], "roster": null, "first_seed": 1}),
        );
        assert_eq!(v["ok"], true, "{v}");
        let m = Machine::toy();
        let w = run(&WorksheetRequest {
            drills: &[Drill::Mii, Drill::ListSchedule],
            sheets: Sheets::Seeds(&[1, 2, 3]),
            machine: &m,
            machine_arg: None,
            source: &Source::Embedded,
        })
        .unwrap();
        assert_eq!(v["html"], view::worksheet::html(&w));
        assert_eq!(v["text"], view::worksheet::text(&w));
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["html", "ok", "text"]);
    }

    #[test]
    fn a_roster_worksheet_is_the_librarys() {
        let roster = "Ada\n<b>Bob</b>\n";
        let v = ask(
            json!({"cmd": "worksheet", "drills": ["forbidden"], "seeds": [9],
            "roster": roster, "first_seed": 20}),
        );
        assert_eq!(v["ok"], true, "{v}");
        let m = Machine::toy();
        let w = run(&WorksheetRequest {
            drills: &[Drill::Forbidden],
            sheets: Sheets::Roster {
                text: roster,
                file: "roster",
                first_seed: 20,
            },
            machine: &m,
            machine_arg: None,
            source: &Source::Embedded,
        })
        .unwrap();
        assert_eq!(v["html"], view::worksheet::html(&w));
        assert!(
            v["html"]
                .as_str()
                .unwrap()
                .contains("&lt;b&gt;Bob&lt;/b&gt; · seed 21")
        );
    }

    #[test]
    fn bad_worksheets_are_error_responses() {
        let v = ask(json!({"cmd": "worksheet", "drills": ["mi"], "seeds": [1]}));
        assert_eq!(v["ok"], false);
        assert!(
            v["error"].as_str().unwrap().contains("did you mean `mii`?"),
            "{v}"
        );
        let v = ask(json!({"cmd": "worksheet", "drills": [], "seeds": [1]}));
        assert!(
            v["error"].as_str().unwrap().starts_with("no drill chosen"),
            "{v}"
        );
        let v = ask(
            json!({"cmd": "worksheet", "drills": ["mii"], "roster": "\n",
            "roster_file": "class.txt"}),
        );
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("class.txt:1:1: no student"),
            "{v}"
        );
        let v = ask(json!({"cmd": "worksheet", "drills": ["mii"], "seeds": []}));
        assert!(
            v["error"].as_str().unwrap().starts_with("no seed given"),
            "{v}"
        );
    }
}
