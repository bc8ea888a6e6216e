//! `course grade --report`: what a class gets wrong, as a self-contained
//! HTML page and the same figures as JSON. A small made-up class with
//! hostile folder names, a roster and a hidden input; the page's figures
//! are read back from its `data-*` attributes and cells and compared with
//! the JSON.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::common::{self, Course};

/// Folder names a student chose: markup, quotes, an entity (a folder
/// name has no `/`).
const HOSTILE: [&str; 3] = [
    "<b onmouseover=\"alert(1)\">x",
    "o'brien & <i>co",
    "&amp;lt;",
];

/// A scheduler that puts every operation at cycle 0 (and II 1 for a
/// loop): short dependences and overflows everywhere.
const ALL_AT_ZERO: &str = "awk '/^[ \\t]*loop[ \\t]/ { loop = 1 }\n\
     /^[ \\t]*[A-Za-z_][A-Za-z0-9_]*:/ { l = $1; sub(/:.*/, \"\", l); print l, 0 }\n\
     END { if (loop) print \"ii\", 1 }' \"$1\"\n";

/// A class of scripts run with `--run`: sequential (valid, slow), the
/// all-at-zero one, garbage; under hostile names.
fn class(dir: &Path) {
    let put = |name: &str, script: &str| {
        let d = dir.join("class").join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("sched.sh"), script).unwrap();
    };
    let sample = |s: &str| {
        std::fs::read_to_string(common::root().join(format!("tests/data/schedulers/{s}.sh")))
            .unwrap()
    };
    put(HOSTILE[0], &sample("sequential"));
    put(HOSTILE[1], ALL_AT_ZERO);
    put(HOSTILE[2], &sample("garbage"));
    put("plain", ALL_AT_ZERO);
    std::fs::write(dir.join("secret"), "a secret for the class report").unwrap();
    // The roster: two of the folders (one with a hostile id), and a
    // student without a folder.
    std::fs::write(
        dir.join("roster.csv"),
        format!(
            "folder,id,email\n\"{}\",\"<img src=x onerror=alert(2)>\",a@u.edu\nplain,1002,p@u.edu\nabsent,1003,z@u.edu\n",
            HOSTILE[0].replace('"', "\"\"")
        ),
    )
    .unwrap();
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The attributes of the start tag at the beginning of `tag`.
fn attrs(tag: &str) -> BTreeMap<String, String> {
    let end = tag.find('>').unwrap();
    let mut out = BTreeMap::new();
    let mut rest = &tag[..end];
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit(' ').next().unwrap().to_string();
        let after = &rest[eq + 2..];
        let close = after.find('"').unwrap();
        out.insert(name, unescape(&after[..close]));
        rest = &after[close + 1..];
    }
    out
}

/// Every start tag of `html` that begins with `open`, with its attributes
/// and the text up to its closing tag `close`.
fn tags<'a>(html: &'a str, open: &str, close: &str) -> Vec<(BTreeMap<String, String>, &'a str)> {
    let mut v = Vec::new();
    let mut at = 0;
    while let Some(i) = html[at..].find(open) {
        let start = at + i;
        let body_end = html[start..].find(close).map_or(html.len(), |e| start + e);
        v.push((attrs(&html[start..]), &html[start..body_end]));
        at = start + open.len();
    }
    v
}

/// The text of the cell `data-field="FIELD"` in `body`.
fn field(body: &str, name: &str) -> String {
    let key = format!("data-field=\"{name}\">");
    let i = body
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {body}"))
        + key.len();
    let j = body[i..].find('<').unwrap();
    body[i..i + j].trim_end_matches(" %").to_string()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// The figures of one scope (the class or an input) in the page equal
/// those of `j` (its JSON object).
fn same_figures(scope: &str, j: &Value) {
    // Summary cells.
    let summary = &scope[scope.find("class=\"summary\"").unwrap()..];
    for f in ["count", "valid", "mean", "median", "min", "max"] {
        assert_eq!(
            num(&field(summary, f)),
            j["summary"][f].as_f64().unwrap(),
            "{f}"
        );
    }
    // Histogram bars.
    let bins = tags(scope, "<g class=\"bin\"", "</g>");
    let jb = j["histogram"].as_array().unwrap();
    assert_eq!(bins.len(), jb.len());
    for ((a, body), b) in bins.iter().zip(jb) {
        for k in ["count", "from", "to"] {
            assert_eq!(num(&a[&format!("data-{k}")]), b[k].as_f64().unwrap(), "{k}");
        }
        assert!(body.contains(&format!(">{}</text>", b["count"])), "{body}");
    }
    // Causes: rows in the JSON's order, attributes and cells alike.
    let rows = tags(scope, "<tr class=\"cause\"", "</tr>");
    let jc = j["causes"].as_array().unwrap();
    assert_eq!(rows.len(), jc.len(), "{scope}");
    for ((a, body), c) in rows.iter().zip(jc) {
        assert_eq!(a["data-cause"], c["cause"].as_str().unwrap());
        for k in ["students", "of", "percent", "count"] {
            assert_eq!(num(&a[&format!("data-{k}")]), c[k].as_f64().unwrap(), "{k}");
            assert_eq!(num(&field(body, k)), c[k].as_f64().unwrap(), "{k} cell");
        }
        assert!(body.contains(&common_label(c)), "{body}");
    }
    let ops = tags(scope, "<tr class=\"op\"", "</tr>");
    let jo = j["misplaced"].as_array().map_or(&[][..], |v| &v[..]);
    assert_eq!(ops.len(), jo.len());
    for ((a, body), o) in ops.iter().zip(jo) {
        assert_eq!(a["data-op"], o["op"].as_str().unwrap());
        assert_eq!(
            num(&field(body, "students")),
            o["students"].as_f64().unwrap()
        );
        assert_eq!(num(&field(body, "percent")), o["percent"].as_f64().unwrap());
    }
}

/// A cause's label as the page writes it (escaped).
fn common_label(c: &Value) -> String {
    escape(c["label"].as_str().unwrap())
}

/// `s` as HTML text.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[test]
fn the_class_report_shows_the_json_figures_and_escapes_every_name() {
    let tmp = common::tempdir();
    let d = tmp.path();
    class(d);
    let page = d.join("class.html");
    let command = "sh sched.sh {input}";
    let run = |extra: &[&str]| {
        Course::new(["grade", "--lab", "ch23-sched", "--run", command])
            .args(common::run_isolation())
            .args(["--hidden", "1", "--jobs", "2"])
            .args(["--secret-seed-file".as_ref(), d.join("secret").as_os_str()])
            .args(["--roster".as_ref(), d.join("roster.csv").as_os_str()])
            .args(extra)
            .arg_path(d.join("class"))
            .code(1)
            .run()
    };
    let text = run(&["--format", "stats", "--report", page.to_str().unwrap()]).stdout;
    let html = std::fs::read_to_string(&page).unwrap();
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("class.json")).unwrap()).unwrap();
    // Self-contained: nothing fetched, nothing run.
    for bad in [
        "<script", "src=\"", "href=", "http:", "https:", "url(", "@import",
    ] {
        assert!(!html.contains(bad), "{bad}");
    }
    assert!(html.contains("default-src 'none'"));
    // Every student-provided string escaped: no raw name, and each shown
    // escaped; the roster's id too.
    for name in HOSTILE {
        assert!(!html.contains(name), "{name}");
        let escaped = escape(name);
        assert!(html.contains(&escaped), "{escaped}");
    }
    assert!(!html.contains("<img") && !html.contains("<b ") && !html.contains("<i>"));
    assert!(html.contains("&lt;img src=x onerror=alert(2)&gt;"));
    // The class, then each input, figure for figure.
    let sections: Vec<&str> = html.split("<section ").skip(1).collect();
    let class = sections[0];
    assert!(class.starts_with("id=\"class\""));
    same_figures(class, &j["total"]);
    let inputs = j["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 9, "8 lab inputs and a hidden one");
    for (s, ji) in sections[1..].iter().zip(inputs) {
        let a = attrs(s);
        assert_eq!(a["data-input"], ji["input"].as_str().unwrap());
        assert_eq!(a["data-hidden"], ji["hidden"].to_string());
        same_figures(s, ji);
    }
    // The hidden input: kinds of mistakes only, no operation named.
    let hidden = inputs.iter().find(|i| i["hidden"] == true).unwrap();
    assert_eq!(hidden["input"], "hidden-1");
    assert_eq!(hidden["misplaced"], serde_json::json!([]));
    let kinds: Vec<&str> = hidden["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cause"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"hidden:latency"), "{kinds:?}");
    assert!(
        kinds
            .iter()
            .all(|k| k.starts_with("hidden:") || *k == "no_folder" || *k == "above_reference"),
        "{kinds:?}"
    );
    // A visible input names finer causes: the all-at-zero students read a
    // load's result in its own cycle on running.
    let running = &inputs[0];
    let causes: Vec<&str> = running["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cause"].as_str().unwrap())
        .collect();
    assert!(causes.contains(&"latency:load:0:3"), "{causes:?}");
    assert!(!running["misplaced"].as_array().unwrap().is_empty());
    // Four folders and the roster's absentee, who is a zero; shares are
    // of the five.
    assert_eq!(j["total"]["summary"]["count"], 5);
    let students = j["students"].as_array().unwrap();
    let absent = students.iter().find(|s| s["name"] == "absent").unwrap();
    assert_eq!(absent["note"], "no submission folder");
    assert_eq!(absent["id"], "1003");
    let first = students.iter().find(|s| s["name"] == HOSTILE[0]).unwrap();
    assert_eq!(first["id"], "<img src=x onerror=alert(2)>");
    assert_eq!(
        students.iter().find(|s| s["name"] == HOSTILE[1]).unwrap()["note"],
        "not on the roster"
    );
    // --format stats-json prints the same value; the text names each input.
    let again: Value = serde_json::from_str(&run(&["--format", "stats-json"]).stdout).unwrap();
    assert_eq!(again, j);
    for i in inputs {
        assert!(
            text.contains(&format!("== {} (", i["input"].as_str().unwrap())),
            "{text}"
        );
    }
}

#[test]
fn report_flags_are_checked() {
    let tmp = common::tempdir();
    Course::new(["grade", "--lab", "ch23-sched", "--report"])
        .arg_path(tmp.path().join("x.json"))
        .arg_path(tmp.path())
        .code(2)
        .stderr_has("give a name such as class.html")
        .run();
    // A page over the roster, or into the class being graded, is refused
    // before anything is written.
    Course::new(["grade", "--lab", "ch23-sched", "--report"])
        .arg_path(tmp.path().join("roster.csv"))
        .arg_path(tmp.path())
        .code(2)
        .stderr_has("give a name such as class.html")
        .run();
    let class = tmp.path().join("class");
    std::fs::create_dir_all(class.join("ada")).unwrap();
    Course::new(["grade", "--lab", "ch23-sched", "--report"])
        .arg_path(class.join("ada").join("r.html"))
        .arg_path(&class)
        .code(2)
        .stderr_has("inside the class folder")
        .run();
    assert!(!class.join("ada").join("r.html").exists());
    // FILE.json beside the page is the report's only if it was one before.
    let data = tmp.path().join("class.json");
    std::fs::write(&data, "[1, 2, 3]\n").unwrap();
    Course::new(["grade", "--lab", "ch23-sched", "--report"])
        .arg_path(tmp.path().join("class.html"))
        .arg_path(&class)
        .code(2)
        .stderr_has("class.json exists and is not a class report")
        .run();
    assert_eq!(std::fs::read_to_string(&data).unwrap(), "[1, 2, 3]\n");
    assert!(!tmp.path().join("class.html").exists());
    Course::new(["grade", "labs/ch23-sched/inputs/running.txt", "x.sched"])
        .args(["--format", "stats"])
        .code(2)
        .stderr_has("add --lab")
        .run();
}
