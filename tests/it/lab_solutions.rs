//! The reference solutions in `solutions/ch23-sched/` are what the engine
//! computes today, and each passes the grader. Set `COURSE_BLESS=1` to
//! rewrite them after an intended change (then review the diff).

use std::path::Path;

use course_content::data::Source;
use course_content::lab as grade;

#[test]
fn reference_solutions_are_up_to_date() {
    let lab = grade::load_lab(&Source::Embedded, "ch23-sched").unwrap();
    assert!(lab.inputs.len() >= 8);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("solutions/ch23-sched");
    let bless = crate::common::bless();
    let mut stale = Vec::new();
    for li in &lab.inputs {
        let path = dir.join(format!("{}.sched", li.stem));
        let want = format!(
            "# Reference schedule of labs/ch23-sched/inputs/{}.txt ({} {}).\n{}",
            li.stem,
            if li.ii.is_some() { "II" } else { "length" },
            li.list_length.unwrap_or(li.target),
            li.reference_text()
        );
        if bless {
            std::fs::write(&path, &want).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(want.as_str()) {
            stale.push(li.stem.clone());
        }
        let r = grade::grade_input(li, &lab.machine, lab.points, Ok(&want));
        assert!(r.valid && r.score == lab.points, "{:?}", r.violations);
    }
    assert!(
        stale.is_empty(),
        "stale reference solutions (rerun with COURSE_BLESS=1 and review): {stale:?}"
    );
}

#[test]
fn the_lab_covers_what_the_spec_promises() {
    let lab = grade::load_lab(&Source::Embedded, "ch23-sched").unwrap();
    let m = &lab.machine;
    let find = |s: &str| lab.inputs.iter().find(|i| i.stem == s).unwrap();
    let has_op = |s: &str, op: &str| find(s).program.ops().iter().any(|o| o.opcode == op);
    assert!(has_op("divide", "div"));
    assert!(
        find("alias")
            .program
            .edges()
            .iter()
            .any(|e| e.kind == course_engine::model::program::EdgeKind::Mem)
    );
    let bounds = |s: &str| course_engine::engine::mii::analyze(&find(s).program, m);
    assert!(
        bounds("stream").res_mii > bounds("stream").rec_mii,
        "stream is resource-bound"
    );
    assert!(
        bounds("dot").rec_mii > bounds("dot").res_mii,
        "dot is recurrence-bound"
    );
    assert!(find("fib").program.edges().iter().any(|e| e.distance == 2));
    assert!(find("dot").program.edges().iter().any(|e| e.distance == 1));
}
