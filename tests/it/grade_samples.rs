//! The sample submissions in `solutions/ch23-sched/samples/` (named
//! `INPUT--CASE.sched`), graded with snapshots of the feedback, and the
//! violation kind each one must produce.

use crate::common;
use std::path::Path;

const EXPECT: &[(&str, Option<&str>)] = &[
    ("running--good", None),
    ("running--late", None),
    ("running--format", Some("format")),
    ("running--missing", Some("missing")),
    ("running--duplicate", Some("duplicate")),
    ("running--unknown", Some("unknown")),
    ("running--latency", Some("latency")),
    ("running--resource", Some("resource")),
    ("running--ii-on-block", Some("ii")),
    ("dot--good", None),
    ("dot--slow", None),
    ("dot--ii-missing", Some("ii")),
    ("dot--ii-zero", Some("format")),
    ("dot--ii-too-small", Some("latency")),
];

#[test]
fn every_sample_is_graded_as_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("solutions/ch23-sched/samples");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".sched")
                .to_string()
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = EXPECT.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "every sample has an expectation");
    for (name, kind) in EXPECT {
        let input = name.split("--").next().unwrap();
        let in_path = format!("labs/ch23-sched/inputs/{input}.txt");
        let sub = format!("solutions/ch23-sched/samples/{name}.sched");
        let o = common::course(&["grade", &in_path, &sub, "--format", "json"], "");
        let j: serde_json::Value =
            serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{name}: {e}\n{}", o.stderr));
        match kind {
            None => {
                assert_eq!(o.code, 0, "{name}: {}", o.stdout);
                assert_eq!(j["valid"], true);
            }
            Some(k) => {
                assert_eq!(o.code, 1, "{name}");
                assert_eq!(j["valid"], false);
                assert_eq!(j["score"], 0.0);
                assert!(
                    j["violations"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|v| v["kind"] == *k),
                    "{name}: expected a {k} violation in {}",
                    j["violations"]
                );
            }
        }
        let text = common::course(&["grade", &in_path, &sub], "").stdout;
        common::snapshot!(name.replace("--", "__").replace('-', "_"), text);
    }
}
